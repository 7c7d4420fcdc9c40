import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator, type PowerContextSimulator } from "../../src/simulator/simulator.js";
import { call } from "../support/flat-call.js";

/**
 * update_scope is a replacement, as the release's PUT is: what the request
 * leaves out takes the value the request schema gives it (no parent, no
 * references), not the one stored before.
 */
function create(sim: PowerContextSimulator, key: string, more: Record<string, unknown> = {}) {
  const reply = call(sim, "create_scope", { title: key, summary: `Scope ${key}`, idempotency_key: key, ...more });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body as { scope_id: string; version: number };
}

describe("update_scope replaces the Scope", () => {
  it("drops the parent and the references a replacement leaves out, and keeps what it sends", () => {
    const sim = createPowerContextSimulator({ seed: 5, clock: new ManualClock() });
    const parent = create(sim, "P");
    const child = create(sim, "C", {
      parent_scope_id: parent.scope_id,
      context_references: [parent.scope_id],
      external_references: [{ kind: "git", value: "u" }],
    });
    const replaced = call(sim, "update_scope", {
      scope_id: child.scope_id,
      title: "C2",
      summary: "x",
      expected_version: 1,
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      scope_id: child.scope_id,
      title: "C2",
      summary: "x",
      parent_scope_id: null,
      context_references: [],
      external_references: [],
      version: 2,
    });
    const read = call(sim, "get_scope", { scope_id: child.scope_id }).body;
    expect([read.parent_scope_id, read.context_references, read.external_references]).toEqual([null, [], []]);
    const listed = call(sim, "list_scopes", { parent_scope_id: parent.scope_id }).body.items as { scope_id: string }[];
    expect(listed.map((s) => s.scope_id)).not.toContain(child.scope_id);

    const again = call(sim, "update_scope", {
      scope_id: child.scope_id,
      title: "C3",
      summary: "y",
      expected_version: 2,
      parent_scope_id: parent.scope_id,
      external_references: [{ kind: "jira", value: "PRJ-1" }],
    });
    expect(again.body).toMatchObject({
      title: "C3",
      parent_scope_id: parent.scope_id,
      context_references: [],
      external_references: [{ kind: "jira", value: "PRJ-1" }],
      version: 3,
    });
  });
});
