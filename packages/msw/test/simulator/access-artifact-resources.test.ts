import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator, type PowerContextSimulator } from "../../src/simulator/simulator.js";
import { call } from "../support/flat-call.js";
import { resourceWire } from "../../src/simulator/access/resource-keys.js";

/**
 * `list_access_resources` for Artifacts as a 1.4.1 server answers the static bearer,
 * measured against the release: the Artifacts it owns (when the owner role takes the
 * action) and those of each family's current heads with an owner in the Scopes its
 * Scope and server bindings cover, ordered by resource key; an owned Artifact the action
 * is not valid on, or a family no listing walks, is 422; a binding on a Scope the server
 * does not hold makes the listing 503 `access_unavailable`.
 */

function fresh(): { sim: PowerContextSimulator; scope: string } {
  const sim = createPowerContextSimulator({ seed: 7, clock: new ManualClock(), scopes: ["s1"] });
  const scope = call(sim, "create_scope", { title: "t", summary: "s", idempotency_key: "k1" }).body.scope_id as string;
  return { sim, scope };
}

const create = (sim: PowerContextSimulator, scope: string, family: string, content: unknown, extra = {}) =>
  call(sim, "create_artifact", { scope_id: scope, family, content, ...extra }).body.artifact_id as string;
const atomic = (sim: PowerContextSimulator, scope: string, text: string) =>
  create(sim, scope, "atomic-memory", { kind: "fact", text });

const list = (sim: PowerContextSimulator, action: string, extra: Record<string, unknown> = {}) =>
  call(sim, "list_access_resources", { action, resource_type: "artifact", ...extra });

/** The `family/artifact_id` of each item, in the order listed. */
const named = (reply: { body: any }) =>
  (reply.body.items as { identity: { family: string; artifact_id: string } }[]).map(
    (i) => `${i.identity.family}/${i.identity.artifact_id}`,
  );

/** The release's resource order: by the canonical JSON of each item (its artifact id first). */
const byKey = (ids: string[]) =>
  [...ids].sort((a, b) => {
    const id = (s: string) => s.slice(s.indexOf("/") + 1);
    return id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : a < b ? -1 : 1;
  });

describe("list_access_resources for Artifacts", () => {
  it("lists what the caller owns and what its Scope bindings cover, of every family or the one named, by key", () => {
    const { sim, scope } = fresh();
    const am = `atomic-memory/${atomic(sim, scope, "the sky is blue")}`;
    const lesson = { situation: "s", action: "a", outcome: "o", lesson: "l" };
    const ex = `experience/${create(sim, scope, "experience", lesson)}`;
    const prompt = { schema_version: "powercontext.prompt.v1", mode: "auto", instructions: "", demonstrations: [] };
    const pr = `prompt/${create(sim, scope, "prompt", prompt, { prompt_key: "handoff.generate" })}`;
    const read = list(sim, "artifact.read");
    expect(read.status).toBe(200);
    expect(named(read)).toEqual(byKey([am, ex, pr]));
    expect(read.body.total).toBe(3);
    expect(read.body.items[0]).toEqual({
      type: "artifact",
      scope_id: scope,
      identity: expect.objectContaining({ family: expect.any(String) }),
      selector: null,
    });
    expect(named(list(sim, "artifact.read", { family: "atomic-memory" }))).toEqual([am]);
    // prompt.use is no owner action: only the Scope preset's children reach, and no listing walks Prompts.
    expect(named(list(sim, "prompt.use"))).toEqual(byKey([am, ex]));
    // artifact.write only the owner holds; the server's admin role reaches every Scope for artifact.share.
    expect(named(list(sim, "artifact.write", { family: "prompt" }))).toEqual([pr]);
    expect(named(list(sim, "artifact.share"))).toEqual(byKey([am, ex, pr]));
  });

  it("pages by key with a cursor bound to the caller and the family", () => {
    const { sim, scope } = fresh();
    const ids = byKey(["a", "b", "c"].map((t) => `atomic-memory/${atomic(sim, scope, `fact ${t}`)}`));
    const first = list(sim, "artifact.read", { limit: 2 });
    expect(named(first)).toEqual(ids.slice(0, 2));
    expect(first.body.total).toBe(3);
    const second = list(sim, "artifact.read", { limit: 2, cursor: first.body.next_cursor });
    expect(named(second)).toEqual(ids.slice(2));
    expect(second.body.next_cursor).toBeNull();
    const other = list(sim, "artifact.read", { limit: 2, cursor: first.body.next_cursor, family: "atomic-memory" });
    expect([other.status, other.code]).toEqual([422, "invalid_access_request"]);
    // Bound to the caller too: another caller was never handed it.
    const body = { action: "artifact.read", resource_type: "artifact", limit: 2, cursor: first.body.next_cursor };
    const { cursor: _, ...start } = body;
    expect(call(sim, "list_access_resources", start, "pc-reader").status).toBe(200);
    const reader = call(sim, "list_access_resources", body, "pc-reader");
    expect([reader.status, reader.code]).toEqual([422, "invalid_access_request"]);
  });

  it("leaves a merged head out where only a Scope binding covers it, not where the caller owns it", () => {
    const { sim, scope } = fresh();
    const [a, b] = [atomic(sim, scope, "alpha"), atomic(sim, scope, "beta")];
    const input = (id: string) => ({
      artifact: { family: "atomic-memory", artifact_id: id, revision: 1 },
      state_version: 0,
    });
    const merged = call(sim, "merge_atomic_memories", {
      scope_id: scope,
      inputs: [input(a), input(b)],
      content: { kind: "fact", text: "alpha and beta" },
    });
    expect(merged.status).toBe(200);
    const result = (merged.body.records as { artifact: { artifact_id: string }; merged_into_id: string | null }[]).find(
      (r) => r.merged_into_id === null,
    )?.artifact.artifact_id as string;
    expect(named(list(sim, "handoff.acknowledge"))).toEqual([`atomic-memory/${result}`]);
    expect(named(list(sim, "artifact.write"))).toEqual(byKey([a, b, result].map((id) => `atomic-memory/${id}`)));
  });

  it("refuses an owned Artifact the action is not valid on, and a family no listing walks under a binding", () => {
    const { sim, scope } = fresh();
    expect(list(sim, "handoff.evidence.inspect").body).toEqual({ items: [], total: 0, next_cursor: null });
    atomic(sim, scope, "owned");
    // The owner role takes handoff.evidence.inspect, which only Handoffs take.
    const inspect = list(sim, "handoff.evidence.inspect");
    expect([inspect.status, inspect.code]).toEqual([422, "invalid_access_request"]);
    const prompts = list(sim, "artifact.share", { family: "prompt" });
    expect([prompts.status, prompts.code]).toEqual([422, "invalid_access_request"]);
    expect(list(sim, "artifact.read", { family: "memory" }).body.items).toEqual([]);
  });

  it("cannot search a Scope the server does not hold that a binding names: 503 access_unavailable", () => {
    const { sim, scope } = fresh();
    atomic(sim, scope, "kept");
    const bound = call(sim, "create_access_binding", {
      subject: { type: "service", id: "server-token" },
      resource: { type: "scope", scope_id: "ghost-scope" },
      role: "scope.viewer",
      idempotency_key: "b1",
    });
    expect(bound.status).toBe(201);
    for (const family of [undefined, "atomic-memory", "handoff"]) {
      const reply = list(sim, "artifact.read", family === undefined ? {} : { family });
      expect([reply.status, reply.code]).toEqual([503, "access_unavailable"]);
    }
    // The memory family finds nothing anywhere, so no Scope is searched; owner-only actions have no parent.
    expect(list(sim, "artifact.read", { family: "memory" }).status).toBe(200);
    expect(list(sim, "artifact.write").status).toBe(200);
    const scopes = call(sim, "list_access_resources", { action: "scope.read", resource_type: "scope" });
    expect(scopes.body.items).toContainEqual({ type: "scope", scope_id: "ghost-scope" });
  });

  it("writes a memory entry's selector as the contract's MemoryEntryAccessSelector, for listings and the audit alike", () => {
    const entry = { kind: "artifact", scopeId: "s1", family: "memory", artifactId: "art_1", entryId: "e1" } as const;
    expect(resourceWire(entry)).toEqual({
      type: "artifact",
      scope_id: "s1",
      identity: { family: "memory", artifact_id: "art_1" },
      selector: { type: "memory_entry", entry_id: "e1" },
    });
  });
});
