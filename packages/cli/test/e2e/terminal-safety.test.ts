import type { MockServer } from "@powercontext/msw/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, captureSources, runCli, startServer, tokensIn } from "./harness.js";

/**
 * The real CLI process against the mock server, with a scope id that carries
 * a window-title OSC, a bell and a screen clear: the server echoes it back in
 * Operations and blocks, and the CLI must not write it raw.
 */
const SCOPE = "team\x1b]0;owned\x07\x1b[2J";
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

let server: MockServer;
let operationId: string;
let blockId: string;
const runs: Awaited<ReturnType<typeof runCli>>[] = [];

async function cli(args: readonly string[]) {
  const run = await runCli(args, { url: server.url });
  runs.push(run);
  return run;
}

beforeAll(async () => {
  server = await startServer({ scopes: [SCOPE] });
  const sim = server.simulator;
  captureSources(server, SCOPE, 1, "a");
  sim.handle("flush_memory", { token: ADMIN_TOKEN, body: { scope_id: SCOPE } });
  operationId = sim.inspect.operations(SCOPE)[0]!.operation_id;
  sim.controls.setProcessingEnabled(false);
  captureSources(server, SCOPE, 1, "b");
  sim.controls.exhaustTopicBudget(SCOPE);
  sim.controls.setProcessingEnabled(true);
  blockId = sim.inspect.blocks(SCOPE)[0]!.block_id;
});

afterAll(async () => {
  await server.close();
  expect(runs.flatMap(tokensIn)).toEqual([]);
});

describe("server text with control sequences", () => {
  it("is escaped in human output of operations get and topic-memory block get", async () => {
    const operation = await cli(["operations", "get", operationId]);
    const block = await cli(["topic-memory", "block", "get", "--scope-id", SCOPE, blockId]);
    for (const run of [operation, block]) {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).not.toMatch(RAW_CONTROL);
      expect(run.stdout).toContain("team\\x1b]0;owned\\x07\\x1b[2J");
    }
  });

  it("keeps its exact value with --json, still without raw control characters", async () => {
    const run = await cli(["--json", "operations", "get", operationId]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(RAW_CONTROL);
    expect((JSON.parse(run.stdout) as { scope_id: string }).scope_id).toBe(SCOPE);
  });
});
