import type { MockServer } from "@powercontext/msw/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_TOKEN,
  READER_TOKEN,
  RETRY_ONLY_TOKEN,
  captureSources,
  runCli,
  startServer,
  tokensIn,
} from "./harness.js";

let server: MockServer;
const runs: Awaited<ReturnType<typeof runCli>>[] = [];

async function cli(args: readonly string[], token: string = ADMIN_TOKEN) {
  const run = await runCli(args, { url: server.url, token });
  runs.push(run);
  return run;
}

/** Puts `scopeId` into the blocked state (three failed attempts) and returns the block id. */
function blockScope(scopeId: string): string {
  server.simulator.controls.setProcessingEnabled(false);
  captureSources(server, scopeId, 5, scopeId);
  server.simulator.controls.exhaustTopicBudget(scopeId, { lastErrorCode: "model_timeout" });
  server.simulator.controls.setProcessingEnabled(true);
  const [block] = server.simulator.inspect.blocks(scopeId);
  if (block === undefined) throw new Error("no block was recorded");
  return block.block_id;
}

function row(stdout: string, label: string): string | undefined {
  const line = stdout.split("\n").find((candidate) => candidate.trimStart().startsWith(`${label}  `));
  return line
    ?.trimStart()
    .slice(label.length)
    .trim()
    .split(/\s{2,}/)[0];
}

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server.close();
  // Whatever was printed in this file, no token was.
  expect(runs.flatMap(tokensIn)).toEqual([]);
});

describe("topic-memory status", () => {
  it("lays out a blocked scope with the block and keeps the three *_source_through apart", async () => {
    const blockId = blockScope("scope-blocked");
    const run = await cli(["topic-memory", "status", "--scope-id", "scope-blocked"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const block = server.simulator.inspect.blocks("scope-blocked")[0]!;
    expect(row(run.stdout, "State")).toBe("blocked");
    expect(row(run.stdout, "Topic cursor")).toBe(String(server.simulator.inspect.topic("scope-blocked").cursor));
    expect(run.stdout).toMatch(new RegExp(`^  Topic cursor\\s+${block.source_after}\\s+source_after: `, "m"));
    expect(row(run.stdout, "Source head")).toBe("5");
    expect(row(run.stdout, "Block")).toBe(blockId);
    expect(row(run.stdout, "source_through")).toBe(String(block.source_through));
    expect(row(run.stdout, "budget_source_through")).toBe(String(block.budget_source_through));
    expect(row(run.stdout, "legacy_source_through")).toBe("null");
    expect(row(run.stdout, "target_source_through")).toBe(String(block.target_source_through));
    expect(row(run.stdout, "Last attempt error")).toBe("model_timeout");
    expect(row(run.stdout, "Retried at")).toBe("null");
    expect(run.stdout).toContain(`Retry with: powercontext-ts topic-memory retry --scope-id scope-blocked ${blockId}`);
  });

  it("prints the wire object with --json", async () => {
    const run = await cli(["--json", "topic-memory", "status", "--scope-id", "scope-blocked"]);
    expect(run.code).toBe(0);
    const status = JSON.parse(run.stdout);
    expect(status.state).toBe("blocked");
    expect(Object.keys(status.block)).toEqual(
      expect.arrayContaining([
        "source_through",
        "budget_source_through",
        "legacy_source_through",
        "target_source_through",
      ]),
    );
    expect(status.block.legacy_source_through).toBeNull();
  });

  it("shows an idle scope without a block section", async () => {
    const run = await cli(["topic-memory", "status", "--scope-id", "scope-empty"]);
    expect(run.code).toBe(0);
    expect(row(run.stdout, "State")).toBe("idle");
    expect(row(run.stdout, "Target")).toBe("null");
    expect(run.stdout).not.toContain("Block");
  });
});

describe("topic-memory block get and retry", () => {
  it("shows an imported legacy block with null source_through and budget_source_through", async () => {
    const blockId = server.simulator.controls.importLegacyBlock("scope-legacy", {
      legacySourceThrough: 12,
      targetSourceThrough: 15,
    });
    const run = await cli(["topic-memory", "block", "get", "--scope-id", "scope-legacy", blockId], READER_TOKEN);
    expect(run.code).toBe(0);
    expect(row(run.stdout, "Block")).toBe(blockId);
    expect(row(run.stdout, "source_through")).toBe("null");
    expect(row(run.stdout, "budget_source_through")).toBe("null");
    expect(row(run.stdout, "legacy_source_through")).toBe("12");
    expect(row(run.stdout, "target_source_through")).toBe("15");
  });

  it("accepts a retry once, then reports the replayed receipt without granting a second budget", async () => {
    const blockId = blockScope("scope-retry");
    const first = await cli(["topic-memory", "retry", "--scope-id", "scope-retry", blockId]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout.split("\n")[0]).toBe(
      "Retry accepted (receipt below); the block had no receipt before this call.",
    );
    const retriedAt = row(first.stdout, "Retried at");
    const generation = row(first.stdout, "Retry generation");
    expect(retriedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(generation).toMatch(/^\d+$/);

    const again = await cli(["topic-memory", "retry", "--scope-id", "scope-retry", blockId]);
    expect(again.code).toBe(0);
    expect(again.stdout.split("\n")[0]).toBe(
      "Retry already accepted earlier (replayed receipt); no new budget was granted.",
    );
    expect(row(again.stdout, "Retried at")).toBe(retriedAt);
    expect(row(again.stdout, "Retry generation")).toBe(generation);
    expect(server.simulator.inspect.acceptances(blockId)).toBe(1);

    const record = await cli(["topic-memory", "block", "get", "--scope-id", "scope-retry", blockId]);
    expect(row(record.stdout, "Retried at")).toBe(retriedAt);
  });

  it("returns the original acceptance when the first retry response was lost", async () => {
    const blockId = blockScope("scope-retry-lost");
    server.simulator.controls.injectFault({
      operationId: "retry_topic_memory_processing",
      action: { type: "reset", when: "after" },
    });
    const run = await cli(["topic-memory", "retry", "--scope-id", "scope-retry-lost", blockId]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")[0]).toBe(
      "Retry accepted (receipt below); the block had no receipt before this call.",
    );
    expect(server.simulator.inspect.acceptances(blockId)).toBe(1);
    const [block] = server.simulator.inspect.blocks("scope-retry-lost");
    expect(row(run.stdout, "Retried at")).toBe(block?.retried_at);
  });

  it("still retries when the block cannot be read first, and says the verdict is unknown", async () => {
    const blockId = blockScope("scope-retry-only");
    const run = await cli(["topic-memory", "retry", "--scope-id", "scope-retry-only", blockId], RETRY_ONLY_TOKEN);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")[0]).toMatch(/^Retry accepted \(receipt below\); the block could not be read first/);
    expect(server.simulator.inspect.acceptances(blockId)).toBe(1);
  });

  it("tells --json callers on stderr whether the receipt was replayed", async () => {
    const blockId = blockScope("scope-retry-json");
    const first = await cli(["--json", "topic-memory", "retry", "--scope-id", "scope-retry-json", blockId]);
    const again = await cli(["--json", "topic-memory", "retry", "--scope-id", "scope-retry-json", blockId]);
    expect(JSON.parse(again.stdout)).toEqual(JSON.parse(first.stdout));
    expect(JSON.parse(first.stdout).status).toBe("accepted");
    expect(first.stderr).toBe("note: the block had no receipt before this call\n");
    expect(again.stderr).toBe("note: replayed an earlier acceptance; no new budget was granted\n");
  });

  it("fails a stale block with one line naming status, code and request id, exit 1", async () => {
    const blockId = blockScope("scope-stale");
    server.simulator.controls.supersedeTopicBlock("scope-stale");
    const run = await cli(["topic-memory", "retry", "--scope-id", "scope-stale", blockId]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^error: 409 topic_memory_block_conflict \(request id req_[0-9a-z_]+\): .+\n$/);
    expect(server.simulator.inspect.acceptances(blockId)).toBe(0);
  });

  it("reports an unknown block as 404 and a reader's retry as 403", async () => {
    const missing = await cli(["topic-memory", "block", "get", "--scope-id", "scope-retry", "blk_missing"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: 404 topic_memory_block_not_found \(request id \S+\)/);
    const blockId = blockScope("scope-reader");
    const denied = await cli(["topic-memory", "retry", "--scope-id", "scope-reader", blockId], READER_TOKEN);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(/^error: 403 forbidden \(request id \S+\).*\n$/);
    expect(server.simulator.inspect.acceptances(blockId)).toBe(0);
  });
});
