// `powercontext-mock verify` against a server whose answers are hostile: the token
// echoed where a report would cut it or escape it, and answers nested deeper than a
// JSON writer recurses. Nothing of the token reaches what verify prints or writes, and
// the run reports instead of dying.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startMockServer } from "../../src/server/index.js";
import { runVerifyCli } from "../support/verify-cli.js";
import { type ProxyOptions, startProxy } from "../support/verify-proxy.js";

/** A valid header value with the characters JSON and URLs escape. */
const TOKEN = 'Ab"cd\\ef+/=ghij-SECRET-klmnop';
const dir = mkdtempSync(join(tmpdir(), "pc-verify-hostile-"));

async function verifyAgainst(options: ProxyOptions, extra: readonly string[] = []) {
  const server = await startMockServer({
    seed: 5,
    inference: "off",
    principals: { tokens: { [TOKEN]: { static: true } } },
  });
  const proxy = await startProxy(server.url, options);
  try {
    const junit = join(dir, `run-${Math.random().toString(36).slice(2)}.xml`);
    const run = await runVerifyCli(
      [
        ...["--server", proxy.url, "--token-env", "PC_HOSTILE_TOKEN", "--seed", "4", "--max-requests", "12"],
        ...["--junit", junit, ...extra],
      ],
      { PC_HOSTILE_TOKEN: TOKEN },
    );
    return { ...run, xml: readFileSync(junit, "utf8") };
  } finally {
    await proxy.close();
    await server.close();
  }
}

/** Every form of the token a report could carry: as sent, JSON-escaped, percent-encoded, and its halves. */
const forms = [
  TOKEN,
  JSON.stringify(TOKEN).slice(1, -1),
  encodeURIComponent(TOKEN),
  TOKEN.slice(0, 16),
  TOKEN.slice(-14),
];

describe("powercontext-mock verify against a hostile server", () => {
  it("shows no form of a token the server echoes, where a report cuts it or escapes it", async () => {
    // 1,423 characters before the token: a kept answer is cut at 1,500, in the middle of it
    const echo = (_seen: unknown, text: string) =>
      text.replace(
        /^\{/,
        `{"pad":"${"x".repeat(1423)}","echo":${JSON.stringify(TOKEN)},"url":"${encodeURIComponent(TOKEN)}",`,
      );
    for (const flags of [["--json"], []]) {
      const run = await verifyAgainst({ rewrite: echo }, flags);
      expect([0, 1], run.stderr).toContain(run.code);
      for (const text of [run.stdout, run.stderr, run.xml]) for (const form of forms) expect(text).not.toContain(form);
    }
  }, 90_000);

  it("reports on answers nested deeper than a JSON writer recurses, instead of stopping", async () => {
    // every answer but the contract and the capabilities the face is chosen by
    const deep = (seen: { target: string }, text: string) =>
      /openapi\.json|capabilities/.test(seen.target) ? text : `${"[".repeat(6000)}${"]".repeat(6000)}`;
    const run = await verifyAgainst({ rewrite: deep }, ["--json"]);
    expect(run.code, run.stderr).toBe(1);
    const result = JSON.parse(run.stdout) as { random: { overall: { requests: number } } };
    expect(result.random.overall.requests).toBeGreaterThan(0);
  }, 90_000);
});
