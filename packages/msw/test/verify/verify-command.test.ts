// `powercontext-mock verify` with Node alone: the embedded mock checked against another
// mock (behind a loopback proxy that records what reaches it), usage and connection
// errors (exit 2, nothing sent), the token removed from everything printed or written,
// and Ctrl-C (the run stops, reports and exits 130).
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockServer, type MockServer } from "../../src/server/index.js";
import { junitCounts, runVerifyCli } from "../support/verify-cli.js";
import { type LoopbackProxy, type ProxyOptions, startProxy } from "../support/verify-proxy.js";

const TOKEN_ENV = { PC_VERIFY_TOKEN: "pc-admin" };
const dir = mkdtempSync(join(tmpdir(), "pc-verify-"));

/** A fresh mock as "the server", behind a proxy; closed after `body`. */
async function againstFreshMock<T>(options: ProxyOptions, body: (proxy: LoopbackProxy) => Promise<T>): Promise<T> {
  const server = await startMockServer({ seed: 3, inference: "off" });
  const proxy = await startProxy(server.url, options);
  try {
    return await body(proxy);
  } finally {
    await proxy.close();
    await server.close();
  }
}

describe("powercontext-mock verify against another mock", () => {
  it("exits 0, and the JUnit file counts the cases the JSON report has, with the token removed everywhere", async () => {
    // the server reflects the token into every answer: verify must not print it
    const reflect = (_seen: unknown, text: string) => text.replace(/^\{/, '{"echo":"Bearer pc-admin",');
    await againstFreshMock({ rewrite: reflect }, async (proxy) => {
      const junit = join(dir, "mock.xml");
      const run = await runVerifyCli(
        [
          ...["--server", proxy.url, "--token-env", "PC_VERIFY_TOKEN", "--seed", "11", "--max-requests", "60"],
          ...["--json", "--junit", junit],
        ],
        TOKEN_ENV,
      );
      expect(run.code, run.stderr).toBe(0);
      const result = JSON.parse(run.stdout) as {
        cases: { agree: boolean }[];
        inference: string;
        random: { overall: { requests: number; codeRatio: number; pathRatio: number } };
      };
      expect(result.inference).toBe("off");
      expect(result.random.overall).toMatchObject({ requests: 60, codeRatio: 1, pathRatio: 0 });
      const xml = readFileSync(junit, "utf8");
      expect(junitCounts(xml)).toEqual({
        tests: result.cases.length,
        cases: result.cases.length,
        failures: result.cases.filter((c) => !c.agree).length,
        skipped: 0,
      });
      expect(proxy.seen.length).toBeGreaterThan(60);
      for (const text of [run.stdout, run.stderr, xml]) expect(text).not.toContain("pc-admin");
      expect(run.stdout).toContain("[REDACTED]");
      expect(xml).toContain("[REDACTED]");
    });
  }, 60_000);

  it("says why when the server refuses the Scope verify writes in (a token that may only read)", async () => {
    await againstFreshMock({}, async (proxy) => {
      const run = await runVerifyCli(
        ["--server", proxy.url, "--token-env", "PC_VERIFY_TOKEN", "--seed", "11", "--max-requests", "20"],
        { PC_VERIFY_TOKEN: "pc-reader" },
      );
      expect(run.code, run.stderr).toBe(1);
      expect(run.stdout).toMatch(
        /refused verify's own Scope \(403\): use a token that may create Scopes, or pass --read-only/,
      );
    });
  }, 60_000);

  it("prints a table per tag whose total counts the same requests", async () => {
    await againstFreshMock({}, async (proxy) => {
      const run = await runVerifyCli(
        ["--server", proxy.url, "--token-env", "PC_VERIFY_TOKEN", "--seed", "11", "--max-requests", "40"],
        TOKEN_ENV,
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^ {2}all +40 +0 +100\.0%/m);
      expect(run.stdout).toMatch(/cases: 40 \(0 contract drift, 40 requests\); differ: 0/);
      expect(run.stdout).toContain("PASS");
    });
  }, 60_000);

  it("stops at --timeout, reports what ran, and judges it", async () => {
    await againstFreshMock({ delayMs: 40 }, async (proxy) => {
      const run = await runVerifyCli(
        ["--server", proxy.url, "--token-env", "PC_VERIFY_TOKEN", "--seed", "11", "--timeout", "2", "--json"],
        TOKEN_ENV,
      );
      expect(run.code, run.stderr).toBe(0);
      const result = JSON.parse(run.stdout) as { stopped: string; random: { overall: { requests: number } } };
      expect(result.stopped).toBe("timeout");
      expect(result.random.overall.requests).toBeGreaterThan(0);
      expect(result.random.overall.requests).toBeLessThan(60);
    });
  }, 60_000);

  it("exits 130 on Ctrl-C before the server's contract is read, saying so", async () => {
    await againstFreshMock({ delayMs: 5_000 }, async (proxy) => {
      const run = await runVerifyCli(
        ["--server", proxy.url, "--token-env", "PC_VERIFY_TOKEN", "--seed", "11"],
        TOKEN_ENV,
        () => proxy.seen.length >= 1,
      );
      expect(run.code, run.stderr).toBe(130);
      expect(run.stderr).toMatch(/interrupted before the server's contract/);
    });
  }, 60_000);

  it("stops on Ctrl-C, still reports what ran, and exits 130", async () => {
    await againstFreshMock({ delayMs: 40 }, async (proxy) => {
      const run = await runVerifyCli(
        ["--server", proxy.url, "--token-env", "PC_VERIFY_TOKEN", "--seed", "11"],
        TOKEN_ENV,
        () => proxy.seen.length >= 12,
      );
      expect(run.code, run.stderr).toBe(130);
      expect(run.stdout).toContain("Stopped early (interrupted)");
      expect(proxy.seen.length).toBeLessThan(60);
    });
  }, 60_000);
});

describe("powercontext-mock verify refuses before sending anything", () => {
  let proxy: LoopbackProxy;
  let server: MockServer;

  beforeAll(async () => {
    server = await startMockServer();
    proxy = await startProxy(server.url);
  });
  afterAll(async () => {
    await proxy.close();
    await server.close();
  });

  const cases: [string, string[], Record<string, string>, RegExp][] = [
    ["a token variable that is not set", [], {}, /PC_VERIFY_TOKEN holds no token/],
    ["K below 1", ["--k", "0"], TOKEN_ENV, /k must be an integer of at least 1/],
    ["a seed past 32 bits", ["--seed", "4294967296"], TOKEN_ENV, /seed must be an integer from 0 to 4294967295/],
    ["a minimum agreement above 1", ["--min-agreement", "1.5"], TOKEN_ENV, /fraction from 0 to 1/],
    ["an empty minimum agreement (an unset variable)", ["--min-agreement", ""], TOKEN_ENV, /fraction from 0 to 1/],
    ["a K past the most a run may ask for", ["--k", "1000000"], TOKEN_ENV, /k must be at most 64/],
    ["a time limit past what a timer holds", ["--timeout", "3000000"], TOKEN_ENV, /at most 2147483/],
  ];
  for (const [what, extra, env, message] of cases)
    it(`exits 2 on ${what}`, async () => {
      const run = await runVerifyCli(["--server", proxy.url, "--token-env", "PC_VERIFY_TOKEN", ...extra], env);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(proxy.seen).toEqual([]);
    }, 30_000);

  it("exits 2 on plaintext http:// to a host that is not loopback, without --allow-insecure", async () => {
    const run = await runVerifyCli(["--server", "http://pc.example.com", "--token-env", "PC_VERIFY_TOKEN"], TOKEN_ENV);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /plaintext http:\/\/ is refused outside loopback; use https:\/\/, or pass --allow-insecure/,
    );
  }, 30_000);

  it("exits 2 on writes to a host that is not loopback, without --allow-writes or --read-only", async () => {
    const run = await runVerifyCli(["--server", "https://pc.example.com", "--token-env", "PC_VERIFY_TOKEN"], TOKEN_ENV);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/not on loopback: pass --read-only, or --allow-writes/);
  }, 30_000);

  it("exits 2 with a clear message when the server cannot be reached", async () => {
    const closed = await startProxy(server.url);
    await closed.close();
    const run = await runVerifyCli(["--server", closed.url, "--token-env", "PC_VERIFY_TOKEN"], TOKEN_ENV);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/cannot reach the server: .*ECONNREFUSED|cannot reach the server/);
  }, 30_000);
});
