import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { simOperations } from "../../src/simulator/contract/operation-table.js";
import { withDefaults } from "../../src/simulator/resources/defaults.js";
import { createPowerContextSimulator } from "../../src/simulator/simulator.js";
import { call } from "../support/flat-call.js";

/**
 * Requests compared as the release's request models read them: a member sent
 * with the value the contract gives it when left out (its default, or null
 * for a nullable member) is the same request as one that leaves it out, so an
 * idempotent repeat replays; another value under the same key is still the
 * conflict.
 */
describe("idempotent repeats with members at their defaults", () => {
  it("replays create_scope whether context_references, external_references and parent_scope_id are left out or sent at their defaults", () => {
    const sim = createPowerContextSimulator({ seed: 5, clock: new ManualClock() });
    const request = { title: "I1", summary: "x", idempotency_key: "idem-1" };
    const first = call(sim, "create_scope", request);
    expect(first.status).toBe(201);
    for (const more of [
      { context_references: [] },
      { parent_scope_id: null },
      { external_references: [], parent_scope_id: null, context_references: [] },
    ]) {
      const again = call(sim, "create_scope", { ...request, ...more });
      expect([JSON.stringify(more), again.status, again.body.scope_id]).toEqual([
        JSON.stringify(more),
        201,
        first.body.scope_id,
      ]);
    }
    const other = call(sim, "create_scope", { ...request, context_references: [first.body.scope_id] });
    expect([other.status, other.code]).toEqual([409, "scope_idempotency_conflict"]);
  });

  it("replays the first request sent with its defaults when the repeat leaves them out", () => {
    const sim = createPowerContextSimulator({ seed: 6, clock: new ManualClock() });
    const request = { title: "I2", summary: "x", idempotency_key: "idem-2" };
    const first = call(sim, "create_scope", { ...request, context_references: [], parent_scope_id: null });
    const again = call(sim, "create_scope", request);
    expect([again.status, again.body.scope_id]).toEqual([201, first.body.scope_id]);
  });

  it("fills in a nested object's defaults only where the request has that object", () => {
    const op = simOperations.preview_atomic_memory_restoration;
    expect(op.body?.defaults).toMatchObject({ operation: "restore", "target.revision": null });
    expect(withDefaults(op, { scope_id: "s", target: { artifact_id: "a" } })).toEqual({
      scope_id: "s",
      target: { artifact_id: "a", revision: null },
      operation: "restore",
    });
    expect(withDefaults(op, { scope_id: "s" })).toEqual({ scope_id: "s", operation: "restore" });
    expect(withDefaults(op, { target: { artifact_id: "a", revision: 2 }, operation: "undo_merge" })).toEqual({
      target: { artifact_id: "a", revision: 2 },
      operation: "undo_merge",
    });
  });
});
