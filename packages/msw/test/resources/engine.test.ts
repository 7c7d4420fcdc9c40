import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator, type PowerContextSimulator } from "../../src/simulator/simulator.js";
import { contractProblems } from "../support/contract.js";
import { call, type Reply } from "../support/flat-call.js";

/**
 * The generic resource engine, through the simulator: records written by one
 * operation are what the others read, versions and ETags refuse stale
 * writers with the release's codes, unknown ids and Scopes are 404, and
 * every success body is valid for its status.
 */
function fresh(seed = 3): PowerContextSimulator {
  return createPowerContextSimulator({ seed, clock: new ManualClock() });
}

function valid(operationId: Parameters<typeof call>[1], reply: Reply): Reply {
  expect(contractProblems(operationId, reply.status, { ...reply.headers }, reply.body), operationId).toEqual([]);
  return reply;
}

const newScope = { title: "Team", summary: "Team notes", idempotency_key: "team-1" };

describe("resource engine: scopes", () => {
  it("reads back what create_scope and update_scope stored, and refuses a stale expected_version", () => {
    const sim = fresh();
    const created = valid("create_scope", call(sim, "create_scope", newScope));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      title: "Team",
      summary: "Team notes",
      parent_scope_id: null,
      context_references: [],
      external_references: [],
      version: 1,
    });
    const scopeId = created.body.scope_id as string;
    expect(call(sim, "get_scope", { scope_id: scopeId }).body).toEqual(created.body);

    const updated = valid(
      "update_scope",
      call(sim, "update_scope", {
        scope_id: scopeId,
        expected_version: 1,
        title: "Team (renamed)",
        summary: "Team notes",
      }),
    );
    expect(updated.body).toMatchObject({ scope_id: scopeId, title: "Team (renamed)", version: 2 });
    expect(call(sim, "get_scope", { scope_id: scopeId }).body.title).toBe("Team (renamed)");

    const stale = call(sim, "update_scope", {
      scope_id: scopeId,
      expected_version: 1,
      title: "Lost",
      summary: "Team notes",
    });
    expect([stale.status, stale.code, stale.body.error.details]).toEqual([
      409,
      "scope_version_conflict",
      { expected_version: 1, current_version: 2 },
    ]);
    expect(call(sim, "get_scope", { scope_id: scopeId }).body.title).toBe("Team (renamed)");
  });

  it("replays create_scope for the same key and request, and refuses the key for another request", () => {
    const sim = fresh();
    const first = call(sim, "create_scope", newScope);
    expect(call(sim, "create_scope", newScope).body).toEqual(first.body);
    const other = call(sim, "create_scope", { ...newScope, title: "Other" });
    expect([other.status, other.code]).toEqual([409, "scope_idempotency_conflict"]);
    expect(call(sim, "list_scopes", { limit: 100 }).body.items).toHaveLength(2);
  });

  it("answers 404 scope_not_found for an unknown Scope, also where the contract declares no 404", () => {
    const sim = fresh();
    for (const [operationId, request] of [
      ["get_scope", { scope_id: "scp_unknown" }],
      ["update_scope", { scope_id: "scp_unknown", expected_version: 1, title: "t", summary: "s" }],
      ["list_sources", { scope_id: "scp_unknown" }],
      [
        "create_artifact",
        { scope_id: "scp_unknown", family: "topic-memory", content: { title: "t", summary: "s", detail: "d" } },
      ],
      ["create_scope", { ...newScope, parent_scope_id: "scp_unknown" }],
    ] as const) {
      const reply = valid(operationId, call(sim, operationId, request));
      expect([reply.status, reply.code], operationId).toEqual([404, "scope_not_found"]);
    }
  });

  it("lists what is stored, page by page, and the list ends", () => {
    const sim = fresh();
    for (let i = 0; i < 4; i += 1)
      call(sim, "create_scope", { ...newScope, title: `Team ${i}`, idempotency_key: `team-${i}` });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = valid("list_scopes", call(sim, "list_scopes", { limit: 2, ...(cursor === null ? {} : { cursor }) }));
      seen.push(...page.body.items.map((s: { scope_id: string }) => s.scope_id));
      cursor = page.body.next_cursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(5);
    expect(seen).toEqual([...seen].sort());
    // A page that is exactly full ends the list when nothing follows.
    expect(call(sim, "list_scopes", { limit: 5 }).body.next_cursor).toBeNull();
  });

  it("refuses a cursor it did not hand out, or one handed out for another request, with 400 invalid_cursor", () => {
    const sim = fresh();
    for (let i = 0; i < 3; i += 1) call(sim, "create_scope", { ...newScope, idempotency_key: `k-${i}` });
    const next = call(sim, "list_scopes", { limit: 1 }).body.next_cursor as string;
    expect(call(sim, "list_scopes", { limit: 1, cursor: next }).status).toBe(200);
    for (const request of [
      { limit: 1, cursor: "garbage" },
      { limit: 2, cursor: next },
    ]) {
      const reply = call(sim, "list_scopes", request);
      expect([reply.status, reply.code, reply.body.error.details]).toEqual([
        400,
        "invalid_cursor",
        { field: "cursor", reason: "is invalid" },
      ]);
    }
  });
});

describe("resource engine: artifacts", () => {
  const scope = (sim: PowerContextSimulator) => sim.controls.defaultScopeId();
  const topic = {
    family: "topic-memory",
    content: { title: "Release", summary: "How releases are cut", detail: "On Tuesdays" },
  };

  it("creates an Artifact, reads it with its ETag, replaces it under If-Match and keeps every revision", () => {
    const sim = fresh();
    const created = valid("create_artifact", call(sim, "create_artifact", { scope_id: scope(sim), ...topic }));
    expect(created.status).toBe(201);
    expect(created.headers.ETag).toBe('"revision:1"');
    expect(created.headers.Location).toBe(
      `/v1/scopes/${scope(sim)}/artifacts/topic-memory/${created.body.artifact_id}`,
    );
    const address = { scope_id: scope(sim), family: "topic-memory", artifact_id: created.body.artifact_id };

    const read = valid("get_artifact", call(sim, "get_artifact", address));
    expect(read.body).toMatchObject({
      ...address,
      revision: 1,
      content: topic.content,
      created_by: null,
      restored_from_revision: null,
      reason: null,
    });
    expect(read.body.content_digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(call(sim, "get_artifact", { ...address, "If-None-Match": read.headers.ETag }).status).toBe(304);
    // If-None-Match compares weakly and any tag of a list, as the release does; * is no match there
    for (const condition of [`W/${read.headers.ETag}`, `"other", ${read.headers.ETag}`])
      expect(call(sim, "get_artifact", { ...address, "If-None-Match": condition }).status, condition).toBe(304);
    for (const condition of ['"other", W/"revision:9"', "*"])
      expect(call(sim, "get_artifact", { ...address, "If-None-Match": condition }).status, condition).toBe(200);

    const replaced = valid(
      "replace_artifact",
      call(sim, "replace_artifact", {
        ...address,
        "If-Match": read.headers.ETag,
        content: { ...topic.content, detail: "On Wednesdays" },
      }),
    );
    expect(replaced.body).toMatchObject({
      revision: 2,
      content: { detail: "On Wednesdays" },
      artifacts: [{ family: "topic-memory", artifact_id: address.artifact_id, revision: 1 }],
    });
    expect(replaced.headers.ETag).toBe('"revision:2"');

    const stale = call(sim, "replace_artifact", { ...address, "If-Match": read.headers.ETag, content: topic.content });
    expect([stale.status, stale.code, stale.body.error.details]).toEqual([
      412,
      "revision_conflict",
      { provided_etag: '"revision:1"', current_etag: '"revision:2"' },
    ]);

    expect(call(sim, "get_artifact_revision", { ...address, revision: 1 }).body.content.detail).toBe("On Tuesdays");
    expect(call(sim, "get_artifact_revision", { ...address, revision: 3 }).code).toBe("artifact_not_found");
    const revisions = valid("list_artifact_revisions", call(sim, "list_artifact_revisions", address));
    expect(revisions.body.items.map((r: { revision: number }) => r.revision)).toEqual([2, 1]);
    expect(revisions.body.next_cursor).toBeNull();
  });

  it("answers 404 for an unknown Artifact or one of another family, and refuses replacing an unknown one as the release does", () => {
    const sim = fresh();
    const created = call(sim, "create_artifact", { scope_id: scope(sim), ...topic });
    const elsewhere = call(sim, "get_artifact", {
      scope_id: scope(sim),
      family: "atomic-memory",
      artifact_id: created.body.artifact_id,
    });
    expect([elsewhere.status, elsewhere.code]).toEqual([404, "artifact_not_found"]);
    const unknown = call(sim, "replace_artifact", {
      scope_id: scope(sim),
      family: "topic-memory",
      artifact_id: "art_unknown",
      "If-Match": '"revision:1"',
      content: topic.content,
    });
    // Topic Memory is authorized on its Scope: the handler then finds no Artifact. A family
    // authorized on the Artifact itself refuses an unknown one in the access layer.
    expect([unknown.status, unknown.code]).toEqual([404, "artifact_not_found"]);
    const experience = call(sim, "replace_artifact", {
      scope_id: scope(sim),
      family: "experience",
      artifact_id: "art_unknown",
      "If-Match": '"revision:1"',
      content: { situation: "s", action: "a", outcome: "o", lesson: "l" },
    });
    expect([experience.status, experience.code]).toEqual([403, "forbidden"]);
  });

  it("journals each Artifact write as a Source the Source list shows", () => {
    const sim = fresh();
    const created = call(sim, "create_artifact", { scope_id: scope(sim), ...topic });
    const sources = valid("list_sources", call(sim, "list_sources", { scope_id: scope(sim) })).body.items;
    expect(sources).toHaveLength(1);
    expect(sources[0]).toMatchObject({
      source_id: created.body.sources[0].source_id,
      position: 1,
      content: { detail: "On Tuesdays", summary: "How releases are cut", title: "Release" },
    });
  });

  it("binds a handle to an exact revision once: the same binding replays, another one is a conflict", () => {
    const sim = fresh();
    const created = call(sim, "create_artifact", { scope_id: scope(sim), ...topic });
    const handle = { scope_id: scope(sim), family: "topic-memory", key: "release" };
    expect(call(sim, "resolve_artifact_handle", handle).code).toBe("artifact_handle_not_found");
    expect(
      call(sim, "bind_artifact_handle", { ...handle, artifact_id: created.body.artifact_id, revision: 2 }).code,
    ).toBe("artifact_not_found");
    const bound = valid(
      "bind_artifact_handle",
      call(sim, "bind_artifact_handle", { ...handle, artifact_id: created.body.artifact_id, revision: 1 }),
    );
    expect(bound.body).toEqual({
      family: "topic-memory",
      key: "release",
      artifact: { family: "topic-memory", artifact_id: created.body.artifact_id, revision: 1 },
    });
    expect(
      call(sim, "bind_artifact_handle", { ...handle, artifact_id: created.body.artifact_id, revision: 1 }).body,
    ).toEqual(bound.body);
    const other = call(sim, "create_artifact", { scope_id: scope(sim), ...topic }).body.artifact_id;
    const conflict = call(sim, "bind_artifact_handle", { ...handle, artifact_id: other, revision: 1 });
    expect([conflict.status, conflict.code, conflict.body.error.details]).toEqual([
      409,
      "idempotency_conflict",
      { kind: "artifact_handle" },
    ]);
    expect(call(sim, "resolve_artifact_handle", handle).body).toEqual(bound.body);
  });
});

describe("resource engine: Sources and Atomic Memory", () => {
  it("shows captured Sources in list_sources and get_source, and refuses other content under a used id", () => {
    const sim = fresh();
    const scopeId = sim.controls.defaultScopeId();
    call(sim, "capture_content_source", {
      scope_id: scopeId,
      source_id: "note-1",
      content: "Releases are cut on Tuesdays.",
    });
    const made = valid("create_source", call(sim, "create_source", { scope_id: scopeId, content: { text: "second" } }));
    expect(made.body).toMatchObject({ source_type: "content", position: 2, content: { text: "second" } });
    const got = valid(
      "get_source",
      call(sim, "get_source", { scope_id: scopeId, source_type: "content", source_id: "note-1" }),
    );
    expect(got.body).toMatchObject({
      receipt_identity: null,
      source_id: "note-1",
      position: 1,
      content: "Releases are cut on Tuesdays.",
    });
    expect(call(sim, "get_source", { scope_id: scopeId, source_type: "content", source_id: "nope" }).code).toBe(
      "source_not_found",
    );
    const conflict = call(sim, "capture_content_source", {
      scope_id: scopeId,
      source_id: "note-1",
      content: "Something else.",
    });
    expect([conflict.status, conflict.code]).toEqual([409, "source_conflict"]);
    expect(
      call(sim, "list_sources", { scope_id: scopeId }).body.items.map((s: { source_id: string }) => s.source_id),
    ).toEqual(["note-1", made.body.source_id]);
  });

  it("reads a forgotten memory as forgotten everywhere, and refuses a stale state_version", () => {
    const sim = fresh();
    const scopeId = sim.controls.defaultScopeId();
    const record = call(sim, "remember_memory", {
      scope_id: scopeId,
      kind: "fact",
      text: "Releases are cut on Tuesdays.",
    }).body.records[0];
    const target = { artifact: record.artifact, state_version: record.state_version };
    const forgotten = valid(
      "change_atomic_memory_lifecycle",
      call(sim, "change_atomic_memory_lifecycle", { scope_id: scopeId, target, state: "forgotten" }),
    );
    expect(forgotten.body).toMatchObject({ changed: true, records: [{ state: "forgotten", state_version: 1 }] });
    const stale = call(sim, "change_atomic_memory_lifecycle", { scope_id: scopeId, target, state: "forgotten" });
    expect([stale.status, stale.code]).toEqual([409, "atomic_memory_changed"]);

    const state = valid(
      "get_atomic_memory_state",
      call(sim, "get_atomic_memory_state", { scope_id: scopeId, artifact_id: record.artifact.artifact_id }),
    );
    expect(state.body).toEqual({
      artifact: record.artifact,
      state: "forgotten",
      state_version: 1,
      merged_into_id: null,
    });
    expect(state.headers.ETag).toBe('"revision:1:state:1"');
    expect(call(sim, "list_atomic_memories", { scope_id: scopeId }).body.items).toEqual([]);
    expect(call(sim, "list_atomic_memories", { scope_id: scopeId, states: ["forgotten"] }).body.items).toHaveLength(1);
    expect(call(sim, "list_memory_entries", { scope_id: scopeId }).body.entries).toEqual([]);
    expect(call(sim, "search_memory", { scope_id: scopeId, query: "Tuesdays" }).body.hits).toEqual([]);
  });
});

describe("resource engine: determinism", () => {
  it("gives the same ids and bodies for the same seed and the same requests, one at a time", () => {
    const run = (seed: number) => {
      const sim = fresh(seed);
      const scopeId = sim.controls.defaultScopeId();
      const bodies = [
        call(sim, "create_scope", newScope),
        call(sim, "capture_content_source", { scope_id: scopeId, source_id: "n", content: "text" }),
        call(sim, "create_source", { scope_id: scopeId, content: "more" }),
        call(sim, "create_artifact", {
          scope_id: scopeId,
          family: "atomic-memory",
          content: { kind: "fact", text: "t" },
        }),
        call(sim, "remember_memory", { scope_id: scopeId, kind: "fact", text: "u" }),
        call(sim, "list_sources", { scope_id: scopeId, limit: 2 }),
      ].map((r) => r.body);
      return JSON.stringify(bodies);
    };
    const first = run(11);
    expect(run(11)).toBe(first);
    expect(run(12)).not.toBe(first);
  });
});
