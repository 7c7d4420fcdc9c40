import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator } from "../../src/simulator/simulator.js";
import { isReset, type SimOutcome, type SimRequest } from "../../src/simulator/types.js";

// Answers derived from stored state and contract facts, never sampled: the selection a
// request names, the counts of what was written, the members the contract pins.

const admin = { token: "pc-admin" };
type Body = Record<string, any>;

function body(outcome: SimOutcome, status = 200): Body {
  if (isReset(outcome)) throw new Error("unexpected reset");
  expect(outcome.status, JSON.stringify(outcome.body)).toBe(status);
  return outcome.body as Body;
}

function setup() {
  const clock = new ManualClock(Date.UTC(2026, 2, 10, 12));
  const sim = createPowerContextSimulator({ seed: 5, clock });
  const call = (id: string, request: SimRequest = {}, status = 200) =>
    body(sim.handle(id, { ...admin, ...request }), status);
  const root = String(call("get_default_scope").scope_id);
  const child = (title: string, parent: string) =>
    String(
      call("create_scope", { body: { title, summary: "s", parent_scope_id: parent, idempotency_key: title } }, 201)
        .scope_id,
    );
  return { sim, call, root, child };
}

describe("answers derived from state", () => {
  it("resolves a selection as the release does: listed Scopes by id, a subtree breadth first", () => {
    const { call, root, child } = setup();
    const a = child("a", root);
    const b = child("b", root);
    const deep = child("deep", a);
    const ids = (selection: Body) =>
      call("resolve_scope_selection", { body: { selection } }).items.map((s: Body) => s.scope_id);
    expect(ids({ mode: "exact", scope_ids: [deep, root] })).toEqual([deep, root].sort());
    const [first, second] = [a, b].sort();
    expect(ids({ mode: "subtree", root_scope_id: root })).toEqual([root, first, second, deep]);
    expect(ids({ mode: "all" })).toEqual([root, a, b, deep].sort());
  });

  it("embeds each Scope of a Handoff report in its public shape, without what only the store keeps", () => {
    const { call, root, child } = setup();
    child("a", root);
    const report = call("get_handoff_report", { body: { selection: { mode: "all" }, format: "json" } }).report;
    for (const entry of report.scopes) {
      expect(entry.scope).not.toHaveProperty("idempotency_key");
      expect(entry.scope).toHaveProperty("context_references");
    }
  });

  it("counts the selection's inventory per Scope and fills one usage row per day of the period", () => {
    const { call, root } = setup();
    call("remember_memory", { body: { scope_id: root, kind: "k", text: "alpha" } });
    call("remember_memory", { body: { scope_id: root, kind: "j", text: "beta" } });
    const stats = call("get_stats", { body: { selection: { mode: "exact", scope_ids: [root] }, period: "7d" } });
    expect(stats.scope_ids).toEqual([root]);
    expect(stats.inventory.artifacts).toEqual({ total: 2, by_family: [{ family: "atomic-memory", total: 2 }] });
    expect(stats.inventory.memory.entries.by_kind.map((k: Body) => k.kind)).toEqual(["j", "k"]);
    expect(stats.by_scope.map((s: Body) => s.scope_id)).toEqual([root]);
    expect(stats.usage.period).toEqual({
      preset: "7d",
      start_date: "2026-03-04",
      end_date: "2026-03-10",
      timezone: "UTC",
    });
    expect(stats.usage.daily).toHaveLength(7);
    expect(JSON.stringify(stats)).not.toContain("sample");
    const standard = call("get_stats", { body: { selection: { mode: "all" } } });
    expect(standard.usage.period.preset).toBe("30d");
    expect(standard.by_scope[0].recall.estimator).toEqual(standard.recall.estimator);
  });
});

describe("answers from contract facts (x-powercontext-answer)", () => {
  it("answers the release's identity, the same server id on every call", () => {
    const { call } = setup();
    const info = call("get_server_info");
    expect(JSON.stringify(info)).not.toContain("sample");
    expect(Object.keys(info.feature_contracts).length).toBeGreaterThan(0);
    expect(info.server_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(call("get_server_info").server_id).toBe(info.server_id);
  });

  it("leaves out the Dream operations of the capabilities unless the client declares Dream contract 2", () => {
    const { call } = setup();
    expect(call("get_capabilities")).not.toHaveProperty("artifact_dreaming_operations");
    const declared = call("get_capabilities", { headers: { "X-PowerContext-Dream-Contract": "2" } });
    expect(declared).toHaveProperty("artifact_dreaming_operations");
  });
});

describe("prepared context from state", () => {
  it("is ready with content only when the Scope holds something the request selects", () => {
    const { call, root } = setup();
    const prepare = (query: string) => call("prepare_context", { body: { scope_id: root, query } });
    expect(prepare("alpha")).toEqual({
      schema: expect.any(String),
      status: "empty",
      content: null,
      content_bytes: 0,
    });
    call("remember_memory", { body: { scope_id: root, kind: "k", text: "alpha beta" } });
    const ready = prepare("alpha");
    expect(ready.status).toBe("ready");
    expect(ready.content_bytes).toBe(new TextEncoder().encode(ready.content).length);
    expect(prepare("nothing-like-it").status).toBe("empty");
    const hint = call("prepare_handoff_hint", { body: { scope_id: root, selection: "latest" } });
    expect(hint).toMatchObject({ status: "empty", content: null, content_bytes: 0 });
  });
});

describe("list filters the release applies", () => {
  const bind = (call: ReturnType<typeof setup>["call"], scope: string, id: string, role: string) =>
    call(
      "create_access_binding",
      {
        body: {
          subject: { type: "user", id },
          resource: { type: "scope", scope_id: scope },
          role,
          idempotency_key: id,
        },
      },
      201,
    );

  it("narrows access bindings by subject and role", () => {
    const { call, root } = setup();
    bind(call, root, "ann", "scope.viewer");
    bind(call, root, "bob", "scope.reviewer");
    const list = (extra: Body) =>
      call("list_access_bindings", { body: { management_resource: { type: "scope", scope_id: root }, ...extra } })
        .items;
    const ids = (items: Body[]) => items.map((b) => b.subject.id).sort();
    expect(ids(list({}))).toEqual(expect.arrayContaining(["ann", "bob"]));
    expect(ids(list({ role: "scope.reviewer" }))).toEqual(["bob"]);
    expect(ids(list({ subject: { type: "user", id: "ann" } }))).toEqual(["ann"]);
    expect(list({ subject: { type: "group", id: "ann" } })).toEqual([]);
  });

  it("keeps the audit events inside the time range", () => {
    const { call, root } = setup();
    bind(call, root, "ann", "scope.viewer");
    const audit = (time_range: Body) =>
      call("list_access_audit", { body: { resource: { type: "scope", scope_id: root }, time_range } }).items;
    expect(audit({ start: "2020-01-01T00:00:00Z", end: "2030-01-01T00:00:00Z" }).length).toBeGreaterThan(0);
    expect(audit({ start: "2029-01-01T00:00:00Z", end: "2030-01-01T00:00:00Z" })).toEqual([]);
    expect(audit({ start: "2020-01-01T00:00:00Z", end: "2021-01-01T00:00:00Z" })).toEqual([]);
  });

  it("lists the memory entries a tag filter selects, tags compared case-insensitively", () => {
    const { sim, call, root } = setup();
    call("remember_memory", { body: { scope_id: root, kind: "k", text: "alpha" } });
    call("remember_memory", { body: { scope_id: root, kind: "k", text: "beta" } });
    const [first] = call("list_memory_entries", { body: { scope_id: root } }).entries;
    const target = { scope_id: root, family: first.artifact.family, artifact_id: first.artifact.artifact_id };
    const read = sim.handle("get_artifact_tags", { ...admin, params: target });
    if (isReset(read)) throw new Error("unexpected reset");
    const etag = String(read.headers.ETag);
    call("replace_artifact_tags", { params: target, body: { tags: ["Blue"] }, headers: { "If-Match": etag } });
    const tagged = (tags: string[], match: string) =>
      call("list_memory_entries", { body: { scope_id: root, tag_filter: { tags, match } } }).entries;
    expect(tagged(["blue"], "any").map((e: Body) => e.artifact.artifact_id)).toEqual([target.artifact_id]);
    expect(tagged(["blue", "red"], "all")).toEqual([]);
  });
});

describe("restoring a named revision of Atomic Memory", () => {
  it("writes a new revision from the named one, citing it, even when the record is active", () => {
    const { call, root } = setup();
    call("remember_memory", { body: { scope_id: root, kind: "k", text: "alpha" } });
    const [entry] = call("list_memory_entries", { body: { scope_id: root } }).entries;
    const target = { artifact_id: entry.artifact.artifact_id, revision: 1 };
    const preview = call("preview_atomic_memory_restoration", { body: { scope_id: root, target } });
    expect(preview.restore).toEqual([{ artifact_id: target.artifact_id, source_revision: 1, creates_revision: true }]);
    const restored = call("restore_atomic_memory", { body: { scope_id: root, target, operation: "restore" } });
    expect(restored.restored).toEqual([{ family: "atomic-memory", artifact_id: target.artifact_id, revision: 2 }]);
    const artifact = call("get_artifact", {
      params: { scope_id: root, family: "atomic-memory", artifact_id: target.artifact_id },
    });
    expect(artifact.artifacts).toEqual([{ family: "atomic-memory", artifact_id: target.artifact_id, revision: 1 }]);
  });

  it("writes nothing for an active record without a revision named, and still names it restored", () => {
    const { call, root } = setup();
    call("remember_memory", { body: { scope_id: root, kind: "k", text: "alpha" } });
    const [entry] = call("list_memory_entries", { body: { scope_id: root } }).entries;
    const target = { artifact_id: entry.artifact.artifact_id };
    const restored = call("restore_atomic_memory", { body: { scope_id: root, target, operation: "restore" } });
    expect(restored).toEqual({
      changed: false,
      restored: [{ family: "atomic-memory", artifact_id: target.artifact_id, revision: 1 }],
      retired: [],
      undo_merge_results: [],
    });
  });
});

/** A simulator without a model on a manual clock, its default Scope and its extraction observation. */
function withoutModel() {
  const clock = new ManualClock(Date.UTC(2026, 2, 10, 12));
  const sim = createPowerContextSimulator({ seed: 5, clock, inference: "off" });
  const call = (id: string, request: SimRequest = {}, status = 200) =>
    body(sim.handle(id, { ...admin, ...request }), status);
  const root = String(call("get_default_scope").scope_id);
  const observation = () => call("get_capabilities").extraction.observation;
  return { clock, call, root, observation };
}

describe("extraction diagnostics", () => {
  it("report the failure of a flush refused for want of a model, with its time", () => {
    const { clock, call, root, observation } = withoutModel();
    expect(observation()).toMatchObject({ status: "unverified", last_failure: null, last_success_at: null });
    call("flush_memory", { body: { scope_id: root } });
    expect(observation().last_failure).toBeNull();
    call("capture_content_source", { body: { scope_id: root, source_id: "s1", content: "hello" } }, 202);
    clock.advance(1000);
    call("flush_memory", { body: { scope_id: root } }, 503);
    expect(observation()).toMatchObject({
      status: "observed",
      last_failure: { code: "model_unavailable", stage: "inference", occurred_at: "2026-03-10T12:00:01.000Z" },
    });
  });
});

describe("extraction successes", () => {
  it("date the last flush that moved its cursor, even one that extracted nothing", () => {
    const { clock, call, root, observation } = withoutModel();
    call("flush_memory", { body: { scope_id: root } });
    expect(observation().last_success_at).toBeNull();
    call("remember_memory", { body: { scope_id: root, kind: "k", text: "alpha" } });
    clock.advance(2000);
    const flushed = call("flush_memory", { body: { scope_id: root } });
    expect(flushed.current_cursor).toBeGreaterThan(flushed.previous_cursor);
    expect(observation()).toMatchObject({ status: "observed", last_success_at: "2026-03-10T12:00:02.000Z" });
  });
});

describe("reports as the release answers them", () => {
  it("answers a downloaded JSON report as the bare report, named as an attachment", () => {
    const { sim } = setup();
    const outcome = sim.handle("get_handoff_report", {
      ...admin,
      body: { selection: { mode: "all" }, format: "json", download: true },
    });
    if (isReset(outcome)) throw new Error("unexpected reset");
    expect(outcome.status).toBe(200);
    expect(outcome.headers["Content-Disposition"]).toBe('attachment; filename="handoff-report.json"');
    const report = JSON.parse(String(outcome.body));
    expect(report).toHaveProperty("scope_ids");
    expect(report).not.toHaveProperty("format");
  });
});
