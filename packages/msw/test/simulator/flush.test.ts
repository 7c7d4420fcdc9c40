import { TEST_SCOPES } from "../support/scopes.js";
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { SUBMISSION_LOG_SIZE } from "../../src/simulator/flush.js";
import { createPowerContextSimulator } from "../../src/simulator/simulator.js";
import { asAdmin, captureMany } from "../support/world.js";

type Op = { operation_id: string; status: string; version: number; result: unknown };
const flush = { body: { scope_id: "s1" } };

function slowSim() {
  const clock = new ManualClock();
  const sim = createPowerContextSimulator({
    scopes: TEST_SCOPES,
    clock,
    waitBudgetMs: 0,
    flushTiming: { queuedMs: 500, runningMs: 1500 },
  });
  return { clock, sim };
}

describe("memory flush", () => {
  it("answers 200 idle when nothing is pending", () => {
    const { sim } = slowSim();
    const r = asAdmin(sim, "flush_memory", flush);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "idle", processed_source_count: 0, memory: null });
  });

  it("answers 200 processed when the work fits in the wait budget, naming no Memory Artifact (as 1.4.1, which writes one per record)", () => {
    const sim = createPowerContextSimulator({
      scopes: TEST_SCOPES,
      clock: new ManualClock(),
      waitBudgetMs: 1000,
      flushTiming: { queuedMs: 100, runningMs: 400 },
    });
    captureMany(sim, "s1", "src", 2);
    const r = asAdmin(sim, "flush_memory", flush);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      status: "processed",
      previous_cursor: 0,
      current_cursor: 2,
      processed_source_count: 2,
      memory: null,
    });
    expect(sim.inspect.memoryCursor("s1")).toBe(2);
    // what it wrote is listed, and an idle flush after it still names none
    const listed = asAdmin(sim, "list_atomic_memories", { body: { scope_id: "s1" } });
    expect((listed.body as { items: unknown[] }).items).toHaveLength(2);
    expect(asAdmin(sim, "flush_memory", flush).body).toMatchObject({ status: "idle", memory: null });
  });

  it("names no Memory for a window with nothing to extract (only the journal of an Artifact write)", () => {
    const sim = createPowerContextSimulator({ scopes: TEST_SCOPES, clock: new ManualClock(), waitBudgetMs: 1000 });
    const remembered = asAdmin(sim, "remember_memory", {
      body: { scope_id: "s1", kind: "fact", text: "Cut on Tuesdays." },
    });
    expect(remembered.status).toBe(200);
    const r = asAdmin(sim, "flush_memory", flush);
    expect(r.body).toMatchObject({ status: "processed", current_cursor: 1, processed_source_count: 0, memory: null });
  });

  it("answers 202 with Location and Retry-After, merges a repeated flush, and versions increase to success", () => {
    const { clock, sim } = slowSim();
    captureMany(sim, "s1", "src", 2);
    const first = asAdmin(sim, "flush_memory", flush);
    expect(first.status).toBe(202);
    const op = first.body as Op;
    expect(first.headers.Location).toBe(`/v1/operations/${op.operation_id}`);
    expect(Number(first.headers["Retry-After"])).toBe(2);
    captureMany(sim, "s1", "later", 1);
    clock.advance(600);
    const again = asAdmin(sim, "flush_memory", flush);
    expect(again.status).toBe(202);
    expect((again.body as Op).operation_id).toBe(op.operation_id);
    expect(sim.inspect.flushSubmissions().map((s) => s.created)).toEqual([true, false]);
    const versions = [op.version, (again.body as Op).version];
    clock.advance(2_000);
    const done = asAdmin(sim, "get_operation", { params: { operation_id: op.operation_id } }).body as Op;
    versions.push(done.version);
    expect(done.status).toBe("succeeded");
    expect(versions).toEqual([1, 2, 3]);
    // the window was fixed by the first submission: the later Source is left for the next window
    expect(done.result).toMatchObject({
      previous_cursor: 0,
      current_cursor: 2,
      processed_source_count: 2,
      high_watermark: 3,
    });
  });

  it("blocks the window with 409 operation_blocked after a failure until the operation is retried or cancelled", () => {
    const { clock, sim } = slowSim();
    captureMany(sim, "s1", "src", 2);
    sim.controls.failNextFlushAttempts(1, { category: "timeout", code: "model_timeout" });
    const id = (asAdmin(sim, "flush_memory", flush).body as Op).operation_id;
    clock.advance(3_000);
    const blocked = asAdmin(sim, "flush_memory", flush);
    expect(blocked.status).toBe(409);
    expect(blocked.body).toEqual({
      error: { code: "operation_blocked", message: expect.any(String), details: { operation_id: id } },
    });
    const failed = asAdmin(sim, "get_operation", { params: { operation_id: id } }).body as Op & { error: unknown };
    expect(failed).toMatchObject({
      status: "failed",
      version: 3,
      error: { category: "timeout", code: "model_timeout" },
    });

    const conflict = asAdmin(sim, "retry_operation", { params: { operation_id: id }, body: { expected_version: 2 } });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ error: { code: "version_conflict", details: { current_version: 3 } } });
    const retried = asAdmin(sim, "retry_operation", { params: { operation_id: id }, body: { expected_version: 3 } });
    expect(retried.body).toMatchObject({ status: "queued", version: 4, error: null });
    const cancelQueued = asAdmin(sim, "cancel_operation", {
      params: { operation_id: id },
      body: { expected_version: 4 },
    });
    expect(cancelQueued.body).toMatchObject({ status: "cancelled", version: 5 });
    const again = asAdmin(sim, "cancel_operation", { params: { operation_id: id }, body: { expected_version: 5 } });
    expect(again.body).toMatchObject({
      error: { code: "invalid_operation_transition", details: { current_status: "cancelled", current_version: 5 } },
    });
    // the window is released: a new flush starts a new operation for it
    const fresh = asAdmin(sim, "flush_memory", flush);
    expect(fresh.status).toBe(202);
    expect((fresh.body as Op).operation_id).not.toBe(id);
    expect(asAdmin(sim, "get_operation", { params: { operation_id: "op_missing" } }).status).toBe(404);
  });

  it("pages operations newest first with a cursor bound to the filters", () => {
    const { clock, sim } = slowSim();
    for (let i = 0; i < 3; i += 1) {
      captureMany(sim, "s1", `w${i}`, 1);
      asAdmin(sim, "flush_memory", flush);
      clock.advance(5_000);
    }
    const page1 = asAdmin(sim, "list_operations", { query: { scope_id: "s1", limit: "2" } }).body as {
      operations: Op[];
      next_cursor: string;
    };
    const page2 = asAdmin(sim, "list_operations", { query: { scope_id: "s1", limit: "2", cursor: page1.next_cursor } })
      .body as { operations: Op[]; next_cursor: null };
    const all = sim.inspect
      .operations("s1")
      .map((o) => o.operation_id)
      .reverse();
    expect([...page1.operations, ...page2.operations].map((o) => o.operation_id)).toEqual(all);
    expect(page2.next_cursor).toBeNull();
    const wrong = asAdmin(sim, "list_operations", {
      query: { scope_id: "s1", status: "failed", cursor: page1.next_cursor },
    });
    expect(wrong.status).toBe(422);
  });
});

describe("the flush submission log", () => {
  it("keeps the latest 1,000 submissions, whatever number of idle flushes is answered", () => {
    const sim = createPowerContextSimulator({ seed: 1, clock: new ManualClock(), scopes: ["s1"] });
    for (let i = 0; i < 2500; i += 1)
      expect(sim.handle("flush_memory", { token: "pc-admin", body: { scope_id: "s1" } }).status).toBe(200);
    expect(SUBMISSION_LOG_SIZE).toBe(1000);
    expect(sim.inspect.flushSubmissions()).toHaveLength(1000);
    expect(sim.inspect.requestCount()).toBe(2500);
  });
});
