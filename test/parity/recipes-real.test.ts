// The Python side of the whole-contract parity run: the released Python client calls
// every recipe step against the released server (loopback, SQLite, auth on). The SDK
// side will run the same steps through client.request(operationId, request) and the two
// outcome lists will be compared step by step.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRealServer, type RealServer } from "../real/server.js";
import { pythonTools, requireTools, venvBin } from "../real/tools.js";
import { loadRecipes, recipesDir, serverSettings } from "./recipes/recipe-format.js";

const run = promisify(execFile);

/** One step's outcome as run_recipes.py reports it. */
interface StepOutcome {
  step: string;
  operation: string;
  outcome: string;
  status: number | null;
  code: string | null;
  accepted: boolean | null;
  as_expected: boolean;
  note?: string;
}

describe.runIf(requireTools("test/parity/recipes-real.test.ts", pythonTools()))("recipes through the released Python client", () => {
  let server: RealServer;
  let outcomes: StepOutcome[] = [];

  beforeAll(async () => {
    server = await startRealServer({ env: serverSettings() });
    const { stdout } = await run(venvBin("python"), [join(recipesDir, "run_recipes.py"), "--base-url", server.baseUrl, "--token", server.token, "--json"], {
      maxBuffer: 16 * 1024 * 1024,
      timeout: 240_000,
    });
    outcomes = JSON.parse(stdout) as StepOutcome[];
    const rows = outcomes.map((o) => `${o.step.padEnd(36)} ${String(o.status ?? "-").padStart(4)}  ${(o.code ?? o.outcome).padEnd(36)} ${o.accepted ?? ""}`);
    console.log(`recipes, Python client against powercontext 1.4.1:\n${rows.join("\n")}`);
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
  });

  it("runs every step of the recipes", () => {
    expect(outcomes.map((o) => o.step)).toEqual(loadRecipes().map((s) => s.id));
  });

  it("calls all 126 operations and reaches a success status on at least 80", () => {
    const called = new Set(outcomes.filter((o) => o.outcome !== "skipped").map((o) => o.operation));
    const succeeded = new Set(outcomes.filter((o) => o.outcome === "success").map((o) => o.operation));
    console.log(`operations called: ${called.size}, reaching a success status: ${succeeded.size}`);
    expect(called.size).toBe(126);
    expect(succeeded.size).toBeGreaterThanOrEqual(80);
  });

  it("gets from the release exactly what each step expects", () => {
    const unexpected = outcomes.filter((o) => !o.as_expected).map((o) => `${o.step}: ${o.status} ${o.code ?? o.outcome} ${o.note ?? ""}`);
    expect(unexpected).toEqual([]);
  });

  it("has the client accept every success body", () => {
    expect(outcomes.filter((o) => o.outcome === "success" && o.accepted !== true).map((o) => o.step)).toEqual([]);
    expect(outcomes.filter((o) => o.outcome === "invalid_response").map((o) => o.step)).toEqual([]);
  });
});
