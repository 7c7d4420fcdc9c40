import { describe, expect, it } from "vitest";
import { emitMswContract } from "../../src/targets/msw/msw-contract.js";
import { SpecErrorList } from "../../src/errors.js";
import { buildIr } from "../../src/ir/build-ir.js";
import type { ApiIr } from "../../src/ir/model.js";
import { loadSpecText } from "../../src/load/load-spec.js";

type Json = Record<string, any>;

/** Given paths and document extras, the IR built under `upstream`. */
async function given(paths: Json, extra: Json = {}): Promise<ApiIr> {
  const document = { openapi: "3.0.3", info: { title: "t", version: "1" }, paths, ...extra };
  const spec = await loadSpecText(JSON.stringify(document), "spec.json", { lint: "upstream" });
  return buildIr(spec, "upstream");
}

async function refusal(paths: Json, extra: Json): Promise<string[]> {
  const error = await given(paths, extra).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SpecErrorList);
  return (error as SpecErrorList).issues.map((issue) => `${issue.pointer}: ${issue.detail}`);
}

const ok = { description: "ok", content: { "application/json": { schema: { type: "object" } } } };
const registry = {
  "x-powercontext-resources": {
    scope: { id: "scope_id", prefix: "scp", version: "version", not_found: { status: 404, code: "scope_not_found" } },
    note: {
      within: { scope_id: "scope", kind: null },
      id: "note_id",
      prefix: "note",
      version: { member: "revision", start: 1 },
      history: true,
      etag: "revision:{revision}",
      sequence: "position",
      digests: { digest: "text" },
      created: "created_at",
      order: "position",
      not_found: { status: 404, code: "note_not_found" },
    },
  },
};

function notes(
  resource: Json | undefined,
  body: Json = {
    type: "object",
    properties: { limit: { type: "integer", default: 50 }, state: { type: "string", default: "active" } },
  },
): Json {
  return {
    "/v1/notes": {
      post: {
        operationId: "list_notes",
        "x-powercontext-pagination": { cursor_parameter: "cursor", next_cursor_field: "next", items_field: "notes" },
        ...(resource === undefined ? {} : { "x-powercontext-resource": resource }),
        requestBody: { content: { "application/json": { schema: body } } },
        responses: { "200": ok },
      },
    },
  };
}

describe("build-ir: resources", () => {
  it("carries the registry sorted by name, with defaults for what a row leaves out", async () => {
    const ir = await given(notes(undefined), registry);
    expect(ir.resources.map((r) => r.name)).toEqual(["note", "scope"]);
    const [note, scope] = ir.resources;
    expect(scope).toMatchObject({
      id: "scope_id",
      prefix: "scp",
      within: [],
      version: { member: "version", start: 1 },
      history: false,
      etag: null,
      order: null,
    });
    expect(note).toMatchObject({
      within: [
        { member: "scope_id", resource: "scope" },
        { member: "kind", resource: null },
      ],
      version: { member: "revision", start: 1 },
      history: true,
      etag: "revision:{revision}",
      sequence: "position",
      digests: [{ member: "digest", of: ["text"], object: false, bare: false }],
      created: "created_at",
      notFound: { status: 404, code: "note_not_found", details: null },
    });
    expect(ir.operations[0]!.resource).toBeNull();
  });

  it("reads an operation's use: the cursor and items from its pagination, the limit default and filter defaults from its request", async () => {
    const ir = await given(
      notes({
        name: "note",
        action: "list",
        filters: { state: "state" },
        bad_cursor: { status: 400, code: "invalid_cursor", details: { field: "cursor" } },
      }),
      registry,
    );
    expect(ir.operations[0]!.resource).toMatchObject({
      name: "note",
      action: "list",
      items: "notes",
      page: { cursor: "cursor", nextCursor: "next" },
      limit: { request: "limit", default: 50 },
      filters: [{ member: "state", request: "state", default: "active", match: "equal", until: null, when: {} }],
      badCursor: { status: 400, code: "invalid_cursor", details: { field: "cursor" } },
    });
    expect(ir.operations[0]!.resource!.controls).toEqual(expect.arrayContaining(["cursor", "limit", "state"]));
  });

  it("writes the uses and the registry into the msw contract table", async () => {
    const ir = await given(notes({ name: "note", action: "list" }), registry);
    const { contract } = emitMswContract(ir);
    expect(contract).toContain(`resource: { name: "note", action: "list"`);
    expect(contract).toMatch(/export const contractResources[\s\S]*note: \{ name: "note", id: "note_id"/);
  });

  it("refuses by the schema an unknown action, a malformed refusal and a reserved member name, naming each pointer", async () => {
    const issues = await refusal(
      notes({
        name: "note",
        action: "delete",
        not_found: { status: 200, code: "x" },
        from: { __proto__x: "a", constructor: "b" },
      }),
      registry,
    );
    const at = "/paths/~1v1~1notes/post/x-powercontext-resource";
    expect(issues).toEqual([
      `${at}/action: expected one of create, read, list, change, put, remove, revision, revisions, not "delete"`,
      `${at}/from/constructor: expected a member name (dotted for a nested member), none of its parts a member every JavaScript object has`,
      `${at}/not_found/status: must be >= 400`,
    ]);
  });

  it("refuses a resource the registry does not have, and a required resource it does not have", async () => {
    const issues = await refusal(notes({ name: "nope", action: "read", requires: { note_id: "notes" } }), registry);
    const at = "/paths/~1v1~1notes/post/x-powercontext-resource";
    expect(issues).toEqual([
      `${at}/name: "nope" is not a resource of x-powercontext-resources`,
      `${at}/requires/note_id: "notes" is not a resource of x-powercontext-resources`,
    ]);
  });

  it("carries a list's joins, and refuses one of a resource the registry does not have or on another action", async () => {
    const joins = { related: { resource: "note", on: "scope_id" } };
    const ir = await given(
      notes({ name: "note", action: "list", joins, filters: { "related[].kind": "state" } }),
      registry,
    );
    const use = ir.operations.find((op) => op.operationId === "list_notes")?.resource;
    expect(use?.joins).toEqual([{ name: "related", resource: "note", on: "scope_id" }]);
    expect(use?.filters.map((f) => f.member)).toEqual(["related[].kind"]);
    const at = "/paths/~1v1~1notes/post/x-powercontext-resource";
    expect(
      await refusal(
        notes({ name: "note", action: "list", joins: { related: { resource: "nope", on: "x" } } }),
        registry,
      ),
    ).toEqual([`${at}/joins/related/resource: "nope" is not a resource of x-powercontext-resources`]);
    expect(await refusal(notes({ name: "note", action: "read", joins }), registry)).toEqual([
      `${at}/joins/related: only a list reads joins`,
    ]);
  });

  it("carries a creation's conditional set, and refuses one on another action or reading no request member", async () => {
    const setWhen = [{ when: { state: [null, "draft"] }, set: { title: "untitled" } }];
    const ir = await given(notes({ name: "note", action: "create", set_when: setWhen }), registry);
    expect(ir.operations.find((op) => op.operationId === "list_notes")?.resource?.setWhen).toEqual(setWhen);
    const at = "/paths/~1v1~1notes/post/x-powercontext-resource";
    expect(
      await refusal(
        notes({ name: "note", action: "read", set_when: [{ when: { colour: 1 }, set: { title: "t" } }] }),
        registry,
      ),
    ).toEqual([
      `${at}/set_when/0: only a creation sets members by condition`,
      `${at}/set_when/0/when/colour: expected a member of the request, not "colour"`,
    ]);
  });

  it("refuses a registry row without id or not_found by the schema, and a within naming no resource", async () => {
    expect(
      await refusal(notes(undefined), { "x-powercontext-resources": { note: { within: { scope_id: "scope" } } } }),
    ).toEqual([
      "/x-powercontext-resources/note/id: id is required",
      "/x-powercontext-resources/note/not_found: not_found is required",
    ]);
    const row = { id: "note_id", not_found: { status: 404, code: "gone" } };
    expect(
      await refusal(notes(undefined), {
        "x-powercontext-resources": { note: { ...row, within: { scope_id: "scopes" } } },
      }),
    ).toEqual([
      '/x-powercontext-resources/note/within/scope_id: "scopes" is not a resource of x-powercontext-resources',
    ]);
  });

  it("refuses history without a version, an anchor with a within, and two anchors", async () => {
    const row = { id: "note_id", not_found: { status: 404, code: "gone" } };
    expect(
      await refusal(notes(undefined), {
        "x-powercontext-resources": {
          note: { ...row, history: true },
          scope: { ...row, anchor: true, within: { kind: null } },
        },
      }),
    ).toEqual([
      "/x-powercontext-resources/note/version: version is required",
      "/x-powercontext-resources/scope: expected an anchor without within: an anchor is a top-level resource",
    ]);
    expect(
      await refusal(notes(undefined), {
        "x-powercontext-resources": { note: { ...row, anchor: true }, scope: { ...row, anchor: true } },
      }),
    ).toEqual(["/x-powercontext-resources: at most one resource is the anchor"]);
  });

  it("refuses version checks on a resource without a version, and If-Match on one without an ETag", async () => {
    const issues = await refusal(
      notes({
        name: "scope",
        action: "change",
        expect: { request: "expected", conflict: { status: 409, code: "c" } },
        if_match: { stale: { status: 412, code: "s" } },
      }),
      {
        "x-powercontext-resources": { scope: { id: "scope_id", not_found: { status: 404, code: "scope_not_found" } } },
      },
    );
    expect(issues).toEqual([
      '/paths/~1v1~1notes/post/x-powercontext-resource/expect: resource "scope" has no version to compare with',
      '/paths/~1v1~1notes/post/x-powercontext-resource/if_match: resource "scope" has no etag to compare with',
    ]);
  });

  it("carries a terminal state (member, values, refusal, keep) and refuses a malformed one with its pointer", async () => {
    const terminal = { member: "state", values: ["done", "dropped"], refusal: { status: 409, code: "note_final" } };
    const ir = await given(notes({ name: "note", action: "change", terminal }), registry);
    expect(ir.operations[0]!.resource!.terminal).toEqual({
      member: "state",
      values: ["done", "dropped"],
      refusal: { status: 409, code: "note_final", details: null },
      details: [],
      keep: null,
    });
    const kept = await given(
      notes({
        name: "note",
        action: "change",
        terminal: { ...terminal, keep: { request: "state", values: ["dropped"] } },
      }),
      registry,
    );
    expect(kept.operations[0]!.resource!.terminal!.keep).toEqual({ request: "state", values: ["dropped"], states: [] });
    const detailed = await given(
      notes({ name: "note", action: "change", terminal: { ...terminal, details: { state: "current" } } }),
      registry,
    );
    expect(detailed.operations[0]!.resource!.terminal!.details).toEqual([{ name: "state", value: "current" }]);
    expect(
      (await given(notes({ name: "note", action: "change" }), registry)).operations[0]!.resource!.terminal,
    ).toBeNull();
    const issues = await refusal(
      notes({
        name: "note",
        action: "change",
        terminal: { member: "state", values: [], refusal: { status: 409, code: "note_final" } },
      }),
      registry,
    );
    expect(issues).toEqual([
      "/paths/~1v1~1notes/post/x-powercontext-resource/terminal/values: expected at least 1 item",
    ]);
    const emptyKeep = await refusal(
      notes({ name: "note", action: "change", terminal: { ...terminal, keep: { request: "state", values: [] } } }),
      registry,
    );
    expect(emptyKeep).toEqual([
      "/paths/~1v1~1notes/post/x-powercontext-resource/terminal/keep/values: expected at least 1 item",
    ]);
  });

  it("carries omitted members with their header, the cursor kind and the stamps of a write, and refuses malformed ones", async () => {
    const ir = await given(
      notes({
        name: "note",
        action: "change",
        omit: { members: ["audit"], unless_header: { "X-Contract": "2" } },
        stamp: { changed_at: "now", changed_by: "caller" },
      }),
      registry,
    );
    expect(ir.operations[0]!.resource).toMatchObject({
      omit: { members: ["audit"], unlessHeader: { name: "X-Contract", value: "2" } },
      cursor: "opaque",
      stamp: [
        { member: "changed_at", value: "now" },
        { member: "changed_by", value: "caller" },
      ],
    });
    const plain = { "x-powercontext-resources": { note: { id: "note_id", not_found: { status: 404, code: "gone" } } } };
    const listed = await given(notes({ name: "note", action: "list", cursor: "last_id" }), plain);
    expect(listed.operations[0]!.resource).toMatchObject({ cursor: "last_id", omit: null, stamp: [] });
    const issues = await refusal(
      notes({ name: "note", action: "list", omit: { members: [] }, stamp: { at: "later" } }),
      registry,
    );
    expect(issues).toEqual([
      "/paths/~1v1~1notes/post/x-powercontext-resource/omit/members: expected at least 1 item",
      '/paths/~1v1~1notes/post/x-powercontext-resource/stamp/at: expected one of now, caller, not "later"',
    ]);
    expect(await refusal(notes({ name: "note", action: "list", cursor: "last_id" }), registry)).toEqual([
      '/paths/~1v1~1notes/post/x-powercontext-resource/cursor: a last_id cursor needs a list ordered by id; resource "note" is ordered by position',
    ]);
  });
  it("carries a filter over any item of a list, a substring filter that applies under a condition and one whose values the record spells otherwise, and refuses malformed ones with their pointer", async () => {
    const ir = await given(
      notes({
        name: "note",
        action: "list",
        filters: {
          "tags[].kind": "state",
          "meta.title": { request: "state", match: "contains", when: { mode: "title" } },
          "meta.open": { request: "state", values: { active: true, closed: false } },
        },
      }),
      registry,
    );
    expect(ir.operations[0]!.resource!.filters).toEqual([
      { member: "tags[].kind", request: "state", default: "active", match: "equal", until: null, values: {}, when: {} },
      {
        member: "meta.title",
        request: "state",
        default: "active",
        match: "contains",
        until: null,
        values: {},
        when: { mode: "title" },
      },
      {
        member: "meta.open",
        request: "state",
        default: "active",
        match: "equal",
        until: null,
        values: { active: true, closed: false },
        when: {},
      },
    ]);
    const issues = await refusal(
      notes({
        name: "note",
        action: "list",
        filters: {
          "tags[]x": "state",
          title: { request: "state", match: "prefix" },
          summary: { request: "state", when: 3 },
          "meta.open": { request: "state", values: { active: [true] } },
        },
      }),
      registry,
    );
    const at = "/paths/~1v1~1notes/post/x-powercontext-resource/filters";
    expect(issues).toEqual([
      `${at}/tags[]x: expected a record member (dotted, \`name[]\` for any item of a list), none of its parts a member every JavaScript object has`,
      `${at}/title/match: expected one of equal, contains, folded, range, not "prefix"`,
      `${at}/summary/when: expected a map of member names to JSON scalars or lists of them`,
      `${at}/meta.open/values/active: expected a JSON scalar (string, number, boolean or null)`,
    ]);
  });

  it("carries a range filter between two request members, and refuses until without range and range without until", async () => {
    const ranged = await given(
      notes({
        name: "note",
        action: "list",
        filters: { state: { request: "state", until: "limit", match: "range" } },
      }),
      registry,
    );
    expect(ranged.operations[0]!.resource!.filters[0]).toMatchObject({
      request: "state",
      until: "limit",
      match: "range",
    });
    const issues = await refusal(
      notes({
        name: "note",
        action: "list",
        filters: { state: { request: "state", until: "limit" }, title: { request: "state", match: "range" } },
      }),
      registry,
    );
    const at = "/paths/~1v1~1notes/post/x-powercontext-resource/filters";
    expect(issues.map((issue) => issue.split(":")[0])).toEqual([`${at}/state`, `${at}/title`]);
  });
});
