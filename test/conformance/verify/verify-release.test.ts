// `powercontext-mock verify` against a fresh released server (powercontext 1.4.1 from
// the venv, as the conformance suite starts it): it exits 0 and its JUnit file counts
// the cases its JSON and table count; behind a proxy that renames an error code and
// drops an operation, it exits 1 and names both; with --read-only, in front of a
// server that refuses every write, it still reports and sends no write. Without the
// venv it skips loudly; under CI=true it fails instead (test/real/tools.ts).
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { junitCounts, runVerifyCli } from "../../../packages/msw/test/support/verify-cli.js";
import { type LoopbackProxy, type Seen, startProxy } from "../../../packages/msw/test/support/verify-proxy.js";
import { operationFacts } from "../../../packages/msw/src/verify/operation-facts.js";
import { Contract, type Schema } from "../../../packages/msw/src/verify/random/contract.js";
import { loadOurs } from "../../contract/documents.js";
import { type RealServer, startRealServer } from "../../real/server.js";
import { pythonTools, requireTools, suiteName } from "../../real/tools.js";
import { realServerSettings } from "../scenario-format.js";

const run = requireTools(suiteName(import.meta.url), pythonTools());
/** K=2 requests for each of the release's 126 operations, and the request creating verify's own Scope. */
const REQUESTS = 2 * 126 + 1;
const dir = mkdtempSync(join(tmpdir(), "pc-verify-release-"));
/** The seed and K of the random run of npm test (RANDOM_TARGETS.test): a run of seconds. */
const SMALL = ["--seed", "20261204", "--k", "2"];

interface Report {
  readonly cases: readonly { readonly agree: boolean; readonly skipped?: string }[];
  readonly drift: { readonly missing: readonly { readonly operationId: string }[] };
  readonly random: { readonly overall: { readonly requests: number; readonly codeRatio: number } };
  readonly seconds: number;
}

describe.runIf(run)("powercontext-mock verify against a fresh release", () => {
  let real: RealServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    real = await startRealServer({ env: realServerSettings(), readyTimeoutMs: 90_000 });
    env = { PC_VERIFY_TOKEN: real.token };
  }, 120_000);
  afterAll(async () => {
    await real?.stop();
  });

  const verify = (server: string, ...extra: string[]) =>
    runVerifyCli(["--server", server, "--token-env", "PC_VERIFY_TOKEN", ...SMALL, ...extra], env);

  it("exits 0; the JUnit file counts the cases of the JSON report, and the table the same requests", async () => {
    const junit = join(dir, "release.xml");
    const json = await verify(real.baseUrl, "--json", "--junit", junit);
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as Report;
    const xml = readFileSync(junit, "utf8");
    expect(junitCounts(xml)).toEqual({
      tests: report.cases.length,
      cases: report.cases.length,
      failures: report.cases.filter((c) => !c.agree).length,
      skipped: report.cases.filter((c) => c.skipped !== undefined).length,
    });
    expect(report.random.overall.requests).toBe(REQUESTS);
    console.log(
      `verify against the release: status+code ${report.random.overall.codeRatio.toFixed(3)}, ${report.cases.length} cases, ${report.seconds.toFixed(1)} s`,
    );
    for (const text of [json.stdout, xml]) expect(text).not.toContain(real.token);

    const table = await verify(real.baseUrl);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(
      new RegExp(
        `cases: ${report.cases.length} \\(${report.cases.length - REQUESTS} contract drift, ${REQUESTS} requests\\)`,
      ),
    );
    expect(table.stdout).toMatch(new RegExp(`^ {2}all +${REQUESTS} `, "m"));
  }, 120_000);

  describe("behind a proxy that renames an error code and drops an operation", () => {
    let proxy: LoopbackProxy;
    const dropped = { operationId: "get_server_info", path: "/v1/server-info" };

    beforeAll(async () => {
      proxy = await startProxy(real.baseUrl, {
        intercept: (seen) =>
          seen.target.split("?")[0] === dropped.path ? { status: 404, body: { detail: "Not Found" } } : undefined,
        rewrite: (seen, text) => {
          if (seen.target !== "/openapi.json")
            return text.replaceAll('"invalid_access_request"', '"invalid_access_request_renamed"');
          const document = JSON.parse(text) as { paths: Record<string, Record<string, unknown>> };
          delete document.paths[dropped.path];
          return JSON.stringify(document);
        },
      });
    });
    afterAll(async () => {
      await proxy?.close();
    });

    it("exits 1, names the renamed code among the differences and the dropped operation in the drift", async () => {
      const result = await verify(proxy.url);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout).toMatch(/missing +get_server_info \(GET \/v1\/server-info\)/);
      expect(result.stdout).toMatch(/server 422 invalid_access_request_renamed, mock 422 invalid_access_request/);
      expect(result.stdout).toMatch(/FAIL: status\+code agreement 0\.\d+ is below 0\.\d+/);
      expect(proxy.seen.some((seen) => seen.target === dropped.path)).toBe(false);
    }, 120_000);
  });

  describe("--read-only in front of a server that refuses every write", () => {
    let proxy: LoopbackProxy;
    const facts = operationFacts(new Contract(loadOurs() as Schema));
    /** True when a request the proxy saw is one of an operation without side effects. */
    const safe = (seen: Seen) =>
      [...facts.values()].some(
        (f) =>
          f.readOnly &&
          f.operation.method === seen.method &&
          new RegExp(`^${f.operation.path.replace(/\{[^}]+\}/g, "[^/]*")}(\\?|$)`).test(seen.target),
      );

    beforeAll(async () => {
      proxy = await startProxy(real.baseUrl, {
        intercept: (seen) =>
          seen.method === "GET"
            ? undefined
            : { status: 403, body: { error: { code: "forbidden", message: "read only" } } },
      });
    });
    afterAll(async () => {
      await proxy?.close();
    });

    it("still reports, and sends no operation with side effects", async () => {
      const result = await verify(proxy.url, "--read-only", "--json");
      expect([0, 1]).toContain(result.code);
      const report = JSON.parse(result.stdout) as Report;
      expect(report.random.overall.requests).toBeGreaterThan(20);
      const unsafe = proxy.seen.filter((seen) => seen.target !== "/openapi.json" && !safe(seen));
      expect(unsafe).toEqual([]);
    }, 120_000);
  });
});
