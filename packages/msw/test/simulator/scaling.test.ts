import { TEST_SCOPES } from "../support/scopes.js";
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator, type PowerContextSimulator } from "../../src/simulator/simulator.js";
import type { SimOperationId } from "../../src/simulator/contract/operation-table.js";

/**
 * The cost of a request must not grow with the number of scopes the
 * simulator has seen (Sources, Operations and Topic Memory state of each).
 * Measured as a ratio in one run: the median cost of a batch of requests on a
 * fresh simulator against the same batch after many distinct scopes, so the
 * machine's speed cancels out. Requests go through `sim.handle`, the path the
 * HTTP server and the msw handlers share.
 */

const TARGET_SCOPES = 12_000;
/** Filling stops here even if TARGET_SCOPES is not reached (a linear scan makes filling quadratic). */
const FILL_BUDGET_MS = 20_000;
const BATCH = 50;
const ROUNDS = 7;
/** Generous: the measured ratio is about 1; a linear scan over 12,000 scopes gives far more. */
const MAX_RATIO = 3;

function call(
  sim: PowerContextSimulator,
  operationId: SimOperationId,
  request: Parameters<PowerContextSimulator["handle"]>[1],
): void {
  const outcome = sim.handle(operationId, { token: "pc-admin", ...request });
  if (!("status" in outcome) || outcome.status >= 400)
    throw new Error(`${operationId} answered ${JSON.stringify(outcome)}`);
}

/** A scope's life: a Source, a flush, the Topic Memory status, a listing. */
function useScope(sim: PowerContextSimulator, clock: ManualClock, scopeId: string): void {
  sim.controls.addScope(scopeId);
  call(sim, "capture_content_source", { body: { scope_id: scopeId, source_id: "a", content: "lease renewal" } });
  call(sim, "flush_memory", { body: { scope_id: scopeId } });
  call(sim, "get_topic_memory_processing_status", { body: { scope_id: scopeId } });
  call(sim, "list_operations", { query: { scope_id: scopeId } });
  clock.advance(1);
}

/** Median cost of one request (ms) over ROUNDS batches of BATCH fresh scopes. */
function measure(sim: PowerContextSimulator, clock: ManualClock, prefix: string): number {
  const perRequest: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    for (let i = 0; i < BATCH; i += 1) useScope(sim, clock, `${prefix}-${round}-${i}`);
    perRequest.push((performance.now() - started) / (BATCH * 4));
  }
  return perRequest.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)] as number;
}

describe("simulator scaling", () => {
  it(`a request costs the same after ${TARGET_SCOPES} distinct scopes as at the start`, () => {
    const warmClock = new ManualClock();
    measure(createPowerContextSimulator({ scopes: TEST_SCOPES, clock: warmClock, seed: 1 }), warmClock, "warm");
    const clock = new ManualClock();
    const sim = createPowerContextSimulator({ scopes: TEST_SCOPES, clock, seed: 1 });
    const atStart = measure(sim, clock, "start");

    const fillStarted = performance.now();
    let scopes = ROUNDS * BATCH;
    while (scopes < TARGET_SCOPES && performance.now() - fillStarted < FILL_BUDGET_MS) {
      const scopeId = sim.controls.addScope(`fill-${scopes}`);
      call(sim, "capture_content_source", { body: { scope_id: scopeId, source_id: "a", content: "lease renewal" } });
      call(sim, "flush_memory", { body: { scope_id: scopeId } });
      clock.advance(1);
      scopes += 1;
    }
    const afterMany = measure(sim, clock, "after");
    const ratio = afterMany / atStart;
    console.log(
      `request cost: ${atStart.toFixed(4)} ms at start, ${afterMany.toFixed(4)} ms after ${scopes} scopes, ratio ${ratio.toFixed(2)}`,
    );
    expect(scopes).toBe(TARGET_SCOPES);
    expect(ratio).toBeLessThan(MAX_RATIO);
  }, 120_000);
});
