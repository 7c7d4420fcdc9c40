import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator, type PowerContextSimulator } from "../../src/simulator/simulator.js";
import { contractProblems } from "../support/contract.js";
import { call, type Reply } from "../support/flat-call.js";

/**
 * merge_atomic_memories as the release answers it: a merge needs two different
 * inputs (an input named twice is 409 invalid_memory_relation, before any input's state is
 * compared), and its records come back ordered by Artifact id, the new record
 * among the merged ones. A merged input's head leaves list_artifacts; a
 * forgotten one stays.
 */
function fresh(): PowerContextSimulator {
  return createPowerContextSimulator({ seed: 11, clock: new ManualClock(), scopes: ["s1"] });
}

function remember(sim: PowerContextSimulator, text: string) {
  const record = call(sim, "remember_memory", { scope_id: "s1", kind: "fact", text }).body.records[0];
  return { artifact: record.artifact, state_version: record.state_version };
}

describe("Atomic Memory merge", () => {
  it("refuses one input named twice with 409 invalid_memory_relation, even under a stale state_version", () => {
    const sim = fresh();
    const a = remember(sim, "Backups run nightly.");
    const content = { kind: "fact", text: "Backups run nightly at three." };
    for (const inputs of [
      [a, a],
      [
        { ...a, state_version: 99 },
        { ...a, state_version: 99 },
      ],
    ]) {
      const refused = call(sim, "merge_atomic_memories", { scope_id: "s1", inputs, content });
      expect([refused.status, refused.code, refused.body.error.details]).toEqual([
        409,
        "invalid_memory_relation",
        null,
      ]);
    }
    // Named twice is refused before any input is looked up: unknown ones too, beside a real one.
    const unknown = { artifact: { ...a.artifact, artifact_id: "art_unknown" }, state_version: 1 };
    for (const inputs of [
      [unknown, unknown],
      [a, unknown, unknown],
    ]) {
      const refused = call(sim, "merge_atomic_memories", { scope_id: "s1", inputs, content });
      expect([refused.status, refused.code]).toEqual([409, "invalid_memory_relation"]);
    }
    // Different unknown inputs are looked up: not found.
    const missing = call(sim, "merge_atomic_memories", {
      scope_id: "s1",
      inputs: [a, unknown],
      content,
    });
    expect([missing.status, missing.code]).toEqual([404, "not_found"]);
    // The Scope is found first.
    const noScope = call(sim, "merge_atomic_memories", { scope_id: "s9", inputs: [unknown, unknown], content });
    expect([noScope.status, noScope.code]).toEqual([404, "scope_not_found"]);
    const stale = call(sim, "merge_atomic_memories", {
      scope_id: "s1",
      inputs: [{ ...a, state_version: 99 }, remember(sim, "Backups are kept a month.")],
      content,
    });
    expect([stale.status, stale.code]).toEqual([409, "atomic_memory_changed"]);
  });

  it("answers the merged records and the new one ordered by Artifact id", () => {
    for (const seed of [11, 12, 13, 14]) {
      const sim = createPowerContextSimulator({ seed, clock: new ManualClock(), scopes: ["s1"] });
      const inputs = [remember(sim, "One."), remember(sim, "Two."), remember(sim, "Three.")];
      const merged: Reply = call(sim, "merge_atomic_memories", {
        scope_id: "s1",
        inputs,
        content: { kind: "fact", text: "One, two, three." },
      });
      expect(contractProblems("merge_atomic_memories", merged.status, { ...merged.headers }, merged.body)).toEqual([]);
      const records = merged.body.records as {
        artifact: { artifact_id: string };
        state: string;
        merged_into_id: string | null;
      }[];
      const ids = records.map((r) => r.artifact.artifact_id);
      expect(ids).toEqual([...ids].sort());
      const result = records.find((r) => r.state === "active");
      expect(result?.merged_into_id).toBeNull();
      expect(records.filter((r) => r.state === "merged").map((r) => r.merged_into_id)).toEqual([
        result?.artifact.artifact_id,
        result?.artifact.artifact_id,
        result?.artifact.artifact_id,
      ]);
    }
  });

  it("lists the merge's result but no longer its inputs, and keeps a forgotten record listed", () => {
    const sim = fresh();
    const [a, b, c] = [remember(sim, "One."), remember(sim, "Two."), remember(sim, "Three.")];
    call(sim, "change_atomic_memory_lifecycle", { scope_id: "s1", target: c, state: "forgotten" });
    const merged = call(sim, "merge_atomic_memories", {
      scope_id: "s1",
      inputs: [a, b],
      content: { kind: "fact", text: "One and two." },
    });
    const result = merged.body.records.find((r: { state: string }) => r.state === "active").artifact.artifact_id;
    const listed = call(sim, "list_artifacts", { scope_id: "s1", family: "atomic-memory", limit: 100 });
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((i: { artifact_id: string }) => i.artifact_id).sort()).toEqual(
      [c.artifact.artifact_id, result].sort(),
    );
    expect(listed.body.items[0]).not.toHaveProperty("listed");
  });

  it("checks each input as the caller saw it, then cites the other revisions the request names, which must exist", () => {
    const sim = fresh();
    const a = remember(sim, "Backups run nightly.");
    const b = remember(sim, "Logs rotate weekly.");
    const c = remember(sim, "Alerts page the on-call.");
    const content = { kind: "fact", text: "Operations notes." };
    const merge = (inputs: unknown[], artifact_refs: unknown[] = []) =>
      call(sim, "merge_atomic_memories", { scope_id: "s1", inputs, content, artifact_refs });
    // An input at another revision or state version than it holds changed since it was read.
    for (const stale of [
      { ...b, artifact: { ...b.artifact, revision: 2 } },
      { ...b, state_version: 3 },
    ]) {
      const refused = merge([a, stale]);
      expect([refused.status, refused.code]).toEqual([409, "atomic_memory_changed"]);
    }
    // The lineage names an input at another revision: a relation fault, before any lookup.
    const unknown = { family: "atomic-memory", artifact_id: "art_unknown", revision: 1 };
    const other = merge([a, b], [{ ...a.artifact, revision: 2 }, unknown]);
    expect([other.status, other.code]).toEqual([409, "invalid_memory_relation"]);
    // An Artifact revision the Scope does not hold.
    for (const ref of [unknown, { ...c.artifact, revision: 2 }]) {
      const missing = merge([a, b], [ref]);
      expect([missing.status, missing.code]).toEqual([404, "not_found"]);
    }
    expect(
      call(sim, "get_atomic_memory_state", { scope_id: "s1", artifact_id: a.artifact.artifact_id }).body.state,
    ).toBe("active");
    // The new record cites its inputs and the named revision, each once.
    const made = merge([a, b], [c.artifact, a.artifact]);
    expect(made.status).toBe(200);
    const ids = [a, b].map((input) => input.artifact.artifact_id);
    const result = (made.body.records as { artifact: { artifact_id: string } }[]).find(
      (record) => !ids.includes(record.artifact.artifact_id),
    )!;
    const head = call(sim, "get_artifact", {
      scope_id: "s1",
      family: "atomic-memory",
      artifact_id: result.artifact.artifact_id,
    });
    const key = (ref: { artifact_id: string }) => ref.artifact_id;
    expect(head.body.artifacts.map(key).sort()).toEqual([a, b, c].map((input) => input.artifact.artifact_id).sort());
  });
});
