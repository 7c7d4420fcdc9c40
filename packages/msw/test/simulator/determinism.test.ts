import { TEST_SCOPES } from "../support/scopes.js";
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator } from "../../src/simulator/simulator.js";
import type { SimOutcome } from "../../src/simulator/types.js";

/** One scripted session: requests and clock steps; returns every outcome. */
function transcript(seed: number): SimOutcome[] {
  const clock = new ManualClock();
  const sim = createPowerContextSimulator({ scopes: TEST_SCOPES, clock, seed, waitBudgetMs: 0 });
  const out: SimOutcome[] = [];
  const call = (id: string, request: object) => out.push(sim.handle(id, { token: "pc-admin", ...request }));
  for (let i = 1; i <= 4; i += 1)
    call("capture_content_source", { body: { scope_id: "s", source_id: `x${i}`, content: `note ${i}` } });
  call("flush_memory", { body: { scope_id: "s" } });
  clock.advance(250);
  call("flush_memory", { body: { scope_id: "s" } });
  clock.advance(1_000);
  call("list_operations", { query: { scope_id: "s" } });
  call("capture_content_source", { body: { scope_id: "s", source_id: "x5", content: "note 5" } });
  sim.controls.exhaustTopicBudget("s");
  call("get_topic_memory_processing_status", { body: { scope_id: "s" } });
  sim.controls.injectFault({ operationId: "search_memory", action: { type: "status", status: 503 } });
  call("search_memory", { body: { scope_id: "s", query: "note" } });
  call("search_memory", { body: { scope_id: "s", query: "note" } });
  return out;
}

describe("determinism", () => {
  it("gives identical transcripts for the same seed and clock script", () => {
    expect(transcript(42)).toEqual(transcript(42));
  });

  it("draws different ids from a different seed", () => {
    expect(JSON.stringify(transcript(42))).not.toEqual(JSON.stringify(transcript(43)));
  });
});
