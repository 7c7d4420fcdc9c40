import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator, type PowerContextSimulator } from "../../src/simulator/simulator.js";
import { call } from "../support/flat-call.js";

/**
 * Restoring an Atomic Memory record undoes the merges on its merge path, as the
 * release plans it: the path is followed to its live result (the preview's
 * endpoint), every merge on it is undone outermost first (the result retired,
 * the inputs it froze active again, each as a new revision), and `undo_merge`
 * also undoes the merge the record is the result of. A record no merge made
 * cannot be undone, a retired one not restored.
 */
type Ref = { family: string; artifact_id: string; revision: number };

function world() {
  const sim = createPowerContextSimulator({ seed: 9, clock: new ManualClock(), scopes: ["s1"] });
  const remember = (text: string): Ref =>
    call(sim, "remember_memory", { scope_id: "s1", kind: "fact", text }).body.records[0].artifact;
  const state = (id: string) =>
    call(sim, "get_atomic_memory_state", { scope_id: "s1", artifact_id: id }).body as {
      artifact: Ref;
      state: string;
      state_version: number;
      merged_into_id: string | null;
    };
  const merge = (...ids: string[]): string => {
    const inputs = ids.map((id) => {
      const now = state(id);
      return { artifact: now.artifact, state_version: now.state_version };
    });
    const made = call(sim, "merge_atomic_memories", {
      scope_id: "s1",
      inputs,
      content: { kind: "fact", text: `merged ${ids.length}` },
    });
    expect(made.status).toBe(200);
    return (made.body.records as { artifact: Ref }[])
      .map((r) => r.artifact.artifact_id)
      .find((id) => !ids.includes(id))!;
  };
  return { sim, remember, state, merge };
}

const sorted = (ids: string[]) => [...ids].sort();
const restoration = (sim: PowerContextSimulator, kind: "preview" | "restore", artifactId: string, operation: string) =>
  call(sim, kind === "preview" ? "preview_atomic_memory_restoration" : "restore_atomic_memory", {
    scope_id: "s1",
    target: { artifact_id: artifactId },
    operation,
  });

describe("merge restoration", () => {
  it("undoes a merge: the result retired, its inputs active again, each as a new revision", () => {
    const { sim, remember, state, merge } = world();
    const a = remember("Alpha one.").artifact_id;
    const b = remember("Beta two.").artifact_id;
    const r = merge(a, b);
    const preview = restoration(sim, "preview", r, "undo_merge").body;
    expect(preview.endpoint).toEqual({ artifact_id: r, revision: 1, state_version: 0 });
    expect(preview.restore).toEqual(
      sorted([a, b]).map((id) => ({ artifact_id: id, source_revision: 1, creates_revision: true })),
    );
    expect(preview.retire).toEqual([{ family: "atomic-memory", artifact_id: r, revision: 1 }]);
    expect(preview.undo_merge_results).toEqual([r]);

    const done = restoration(sim, "restore", r, "undo_merge");
    expect(done.status).toBe(200);
    expect(done.body).toEqual({
      changed: true,
      restored: sorted([a, b]).map((id) => ({ family: "atomic-memory", artifact_id: id, revision: 2 })),
      retired: [{ family: "atomic-memory", artifact_id: r, revision: 2 }],
      undo_merge_results: [r],
    });
    expect([state(a).state, state(a).state_version, state(a).merged_into_id]).toEqual(["active", 2, null]);
    expect([state(r).state, state(r).state_version, state(r).artifact.revision]).toEqual(["retired", 1, 2]);
    // A retired result is restored no more; the inputs can be merged again.
    for (const operation of ["undo_merge", "restore"]) {
      const again = restoration(sim, "restore", r, operation);
      expect([again.status, again.code]).toEqual([409, "invalid_memory_state"]);
    }
    expect(merge(a, b)).toBeTypeOf("string");
  });

  it("restoring a merged input undoes every merge on its path, outermost first", () => {
    const { sim, remember, state, merge } = world();
    const [a, b, c] = ["Alpha one.", "Beta two.", "Gamma three."].map((text) => remember(text).artifact_id) as [
      string,
      string,
      string,
    ];
    const inner = merge(a, b);
    const outer = merge(inner, c);
    const preview = restoration(sim, "preview", a, "restore").body;
    expect(preview.endpoint).toMatchObject({ artifact_id: outer });
    expect(preview.undo_merge_results).toEqual([outer, inner]);
    expect(preview.retire.map((ref: Ref) => ref.artifact_id)).toEqual(sorted([inner, outer]));
    const done = restoration(sim, "restore", a, "restore").body;
    expect(done.restored.map((ref: Ref) => ref.artifact_id)).toEqual(sorted([a, b, c]));
    expect(done.retired.map((ref: Ref) => ref.artifact_id)).toEqual(sorted([inner, outer]));
    expect([a, b, c].map((id) => state(id).state)).toEqual(["active", "active", "active"]);
    expect([inner, outer].map((id) => state(id).state)).toEqual(["retired", "retired"]);
  });

  it("refuses to undo a record no merge made (409 invalid_memory_relation), changing nothing", () => {
    const { sim, remember, state, merge } = world();
    const a = remember("Alpha one.").artifact_id;
    const b = remember("Beta two.").artifact_id;
    const lone = remember("Gamma three.").artifact_id;
    merge(a, b);
    for (const id of [lone, a])
      for (const kind of ["preview", "restore"] as const) {
        const refused = restoration(sim, kind, id, "undo_merge");
        expect([id === lone, kind, refused.status, refused.code]).toEqual([
          id === lone,
          kind,
          409,
          "invalid_memory_relation",
        ]);
      }
    expect([state(lone).state, state(a).state]).toEqual(["active", "merged"]);
    // A plain restoration of an active record that was never merged writes nothing.
    expect(restoration(sim, "restore", lone, "restore").body).toEqual({
      changed: false,
      restored: [{ family: "atomic-memory", artifact_id: lone, revision: 1 }],
      retired: [],
      undo_merge_results: [],
    });
  });
});
