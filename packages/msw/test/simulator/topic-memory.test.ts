import { TEST_SCOPES } from "../support/scopes.js";
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator } from "../../src/simulator/simulator.js";
import { asAdmin, captureMany, response } from "../support/world.js";

/** Seed 000: blocks, receipts and budgets. */
function blockedScope(scopeId = "s1") {
  const clock = new ManualClock();
  const sim = createPowerContextSimulator({ scopes: TEST_SCOPES, clock, seed: 3 });
  // no attempt runs while the Sources arrive, so the budget starts with the whole window as target
  sim.controls.setProcessingEnabled(false);
  captureMany(sim, scopeId, "src", 3);
  sim.controls.exhaustTopicBudget(scopeId, { lastErrorCode: "model_timeout" });
  sim.controls.setProcessingEnabled(true);
  const status = asAdmin(sim, "get_topic_memory_processing_status", { body: { scope_id: scopeId } });
  const block = (status.body as { state: string; block: Record<string, unknown> }).block;
  return { sim, clock, status: status.body as { state: string }, block, blockId: block.block_id as string };
}

const retry = (scope: string, blockId: string) => ({ body: { scope_id: scope, block_id: blockId } });

describe("topic memory processing", () => {
  it("reports an exhausted budget as a block with distinct range fields", () => {
    const { status, block } = blockedScope();
    expect(status.state).toBe("blocked");
    // selections 2, 1, 1 after Cursor 0 with target 3 (seed 000's example)
    expect(block).toMatchObject({
      source_after: 0,
      source_through: 1,
      budget_source_through: 2,
      legacy_source_through: null,
      target_source_through: 3,
    });
    expect(block).toMatchObject({
      attempts: 3,
      requests: 9,
      tokens: 60_000,
      error_code: "window_attempt_limit",
      last_error_code: "model_timeout",
    });
    expect(block).toMatchObject({ retried_at: null, retry_request_generation: null });
  });

  it("shows pending while the last attempt is live, blocked once it stops", () => {
    const sim = createPowerContextSimulator({ scopes: TEST_SCOPES, clock: new ManualClock() });
    captureMany(sim, "s1", "src", 2);
    sim.controls.exhaustTopicBudget("s1", { live: true });
    const state = () =>
      (asAdmin(sim, "get_topic_memory_processing_status", { body: { scope_id: "s1" } }).body as { state: string })
        .state;
    expect(state()).toBe("pending");
    sim.controls.stopTopicAttempt("s1", null);
    expect(state()).toBe("blocked");
    expect(sim.inspect.blocks("s1")[0]?.last_error_code).toBeNull();
  });

  it("accepts a retry once, sets the receipt pair together and grants one budget", () => {
    const { sim, clock, blockId } = blockedScope();
    clock.advance(1_000);
    const first = asAdmin(sim, "retry_topic_memory_processing", retry("s1", blockId));
    expect(first.status).toBe(200);
    const receipt = (first.body as { status: string; block: { retried_at: string; retry_request_generation: number } })
      .block;
    expect((first.body as { status: string }).status).toBe("accepted");
    expect(receipt.retried_at).toBe(new Date(clock.now()).toISOString());
    expect(receipt.retry_request_generation).toBe(1);
    expect(sim.inspect.acceptances(blockId)).toBe(1);
    expect(sim.inspect.budgetsGranted("s1")).toBe(1);
    expect(sim.inspect.topic("s1").budget).toBeNull();
  });

  it("replays the identical receipt forever: later blocks, processing disabled, time passing", () => {
    const { sim, clock, blockId } = blockedScope();
    const first = asAdmin(sim, "retry_topic_memory_processing", retry("s1", blockId)).body;
    sim.controls.exhaustTopicBudget("s1");
    const second = sim.inspect.blocks("s1").find((b) => b.block_id !== blockId);
    expect(second).toBeDefined();
    sim.controls.setProcessingEnabled(false);
    clock.advance(86_400_000);
    const before = sim.inspect.snapshot();
    const replay = asAdmin(sim, "retry_topic_memory_processing", retry("s1", blockId));
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first);
    expect(sim.inspect.snapshot()).toEqual(before);
    expect(sim.inspect.acceptances(blockId)).toBe(1);
    const fresh = response(
      sim.handle("retry_topic_memory_processing", { token: "pc-admin", ...retry("s1", second!.block_id) }),
    );
    expect(fresh.status).toBe(503);
    expect((fresh.body as { error: { code: string } }).error.code).toBe("processing_unavailable");
  });

  it("answers 409 for a never-retried block that is no longer current, and never grants it a budget", () => {
    const { sim, blockId } = blockedScope();
    sim.controls.supersedeTopicBlock("s1");
    // settle the processing the published window lets run at this instant, then freeze time
    asAdmin(sim, "get_topic_memory_processing_status", { body: { scope_id: "s1" } });
    const before = sim.inspect.snapshot();
    for (let i = 0; i < 3; i += 1) {
      const stale = asAdmin(sim, "retry_topic_memory_processing", retry("s1", blockId));
      expect(stale.status).toBe(409);
      expect((stale.body as { error: { code: string } }).error.code).toBe("topic_memory_block_conflict");
    }
    expect(sim.inspect.snapshot()).toEqual(before);
    expect(sim.inspect.acceptances(blockId)).toBe(0);
    expect(sim.inspect.budgetsGranted("s1")).toBe(0);
  });

  it("answers 404 for unknown and other-scope block ids, 403 without scope.admin, 401 without a token", () => {
    const { sim, blockId } = blockedScope();
    const codeOf = (token: string | null, scope: string, id: string) => {
      const r = response(sim.handle("retry_topic_memory_processing", { token, ...retry(scope, id) }));
      return [r.status, (r.body as { error: { code: string } }).error.code];
    };
    const before = sim.inspect.snapshot();
    expect(codeOf("pc-admin", "s1", "blk_unknown")).toEqual([404, "topic_memory_block_not_found"]);
    expect(codeOf("pc-admin", "other", blockId)).toEqual([404, "topic_memory_block_not_found"]);
    expect(codeOf("pc-reader", "s1", blockId)).toEqual([403, "forbidden"]);
    expect(codeOf(null, "s1", blockId)).toEqual([401, "unauthorized"]);
    expect(sim.inspect.snapshot()).toEqual(before);
    const read = asAdmin(sim, "get_topic_memory_processing_block", { body: { scope_id: "other", block_id: blockId } });
    expect(read.status).toBe(404);
  });

  it("keeps imported legacy ranges apart and treats such blocks as stale", () => {
    const sim = createPowerContextSimulator({ scopes: TEST_SCOPES, clock: new ManualClock() });
    const id = sim.controls.importLegacyBlock("s1", { legacySourceThrough: 7, targetSourceThrough: 9 });
    const block = asAdmin(sim, "get_topic_memory_processing_block", { body: { scope_id: "s1", block_id: id } }).body;
    expect(block).toMatchObject({
      source_through: null,
      budget_source_through: null,
      legacy_source_through: 7,
      target_source_through: 9,
    });
    expect(asAdmin(sim, "retry_topic_memory_processing", retry("s1", id)).status).toBe(409);
  });

  it("processes Sources with the clock and publishes the Cursor when attempts succeed", () => {
    const clock = new ManualClock();
    const sim = createPowerContextSimulator({ scopes: TEST_SCOPES, clock });
    captureMany(sim, "s1", "src", 3);
    clock.advance(1_000);
    const status = asAdmin(sim, "get_topic_memory_processing_status", { body: { scope_id: "s1" } }).body;
    expect(status).toMatchObject({
      state: "idle",
      source_cursor: 3,
      source_head: 3,
      target_source_through: null,
      block: null,
    });
  });
});
