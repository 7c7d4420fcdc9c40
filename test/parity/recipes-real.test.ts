// The whole-contract parity run (docs/compatibility.md): the released Python client
// (run_recipes.py) and our SDK (recipes/run-recipes.ts) run every recipe step, each against
// its own fresh 1.4.1 server started with the same settings (loopback, SQLite, auth on), so
// both start from the same state. Their outcomes are compared step by step: status, error
// code, and whether the client accepted the success body.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRealServer, type RealServer } from "../real/server.js";
import { pythonTools, requireTools, suiteName, venvBin } from "../real/tools.js";
import { compareOutcomes, countComparison, formatComparison, type ComparedStep } from "./recipes/compare-outcomes.js";
import { loadRecipes, recipesDir, serverSettings } from "./recipes/recipe-format.js";
import { runRecipes, type StepOutcome } from "./recipes/run-recipes.js";

const run = promisify(execFile);

async function pythonSide(server: RealServer): Promise<StepOutcome[]> {
  const { stdout } = await run(
    venvBin("python"),
    [join(recipesDir, "run_recipes.py"), "--base-url", server.baseUrl, "--token", server.token, "--json"],
    {
      maxBuffer: 16 * 1024 * 1024,
      timeout: 150_000,
    },
  );
  return JSON.parse(stdout) as StepOutcome[];
}

describe.runIf(requireTools(suiteName(import.meta.url), pythonTools()))(
  "recipes through the released Python client and our SDK",
  () => {
    const servers: RealServer[] = [];
    const steps = loadRecipes();
    let python: StepOutcome[] = [];
    let sdk: StepOutcome[] = [];
    let rows: ComparedStep[] = [];

    beforeAll(async () => {
      // The second server starts while the Python runner works on the first: starting both
      // at once on a busy machine can miss the readiness deadline.
      const start = async () => {
        const server = await startRealServer({ env: serverSettings(), readyTimeoutMs: 90_000 });
        servers.push(server);
        return server;
      };
      const forPython = await start();
      [python, sdk] = await Promise.all([
        pythonSide(forPython),
        start().then((forSdk) => runRecipes({ baseUrl: forSdk.baseUrl, token: forSdk.token })),
      ]);
      rows = compareOutcomes(steps, python, sdk);
      console.log(`whole-contract parity against powercontext 1.4.1:\n${formatComparison(rows)}`);
    }, 240_000);

    afterAll(async () => {
      await Promise.all(servers.map((server) => server.stop()));
    });

    it("runs every step of the recipes on both sides", () => {
      const ids = steps.map((s) => s.id);
      expect(python.map((o) => o.step)).toEqual(ids);
      expect(sdk.map((o) => o.step)).toEqual(ids);
    });

    it("gets the same status, error code and acceptance from both clients at every step", () => {
      const differing = rows
        .filter((r) => !r.agree)
        .map((r) => `${r.step}: python ${JSON.stringify(r.python)} sdk ${JSON.stringify(r.sdk)}`);
      expect(differing).toEqual([]);
    });

    it("calls all 126 operations through both clients and reaches a success status on at least 80", () => {
      const counts = countComparison(rows);
      expect(counts.calledByBoth).toBe(126);
      expect(counts.successes).toBeGreaterThanOrEqual(80);
    });

    it("gets from the release exactly what each step expects, on both sides", () => {
      const unexpected = (outcomes: StepOutcome[]) =>
        outcomes
          .filter((o) => !o.as_expected)
          .map((o) => `${o.step}: ${o.status} ${o.code ?? o.outcome} ${o.note ?? ""}`);
      expect(unexpected(python)).toEqual([]);
      expect(unexpected(sdk)).toEqual([]);
    });

    it("has both clients accept every success body", () => {
      for (const outcomes of [python, sdk]) {
        expect(outcomes.filter((o) => o.outcome === "success" && o.accepted !== true).map((o) => o.step)).toEqual([]);
        expect(outcomes.filter((o) => o.outcome === "invalid_response").map((o) => o.step)).toEqual([]);
      }
    });
  },
);
