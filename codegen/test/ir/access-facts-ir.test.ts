import { describe, expect, it } from "vitest";
import { SpecErrorList } from "../../src/errors.js";
import { buildIr } from "../../src/ir/build-ir.js";
import type { ApiIr } from "../../src/ir/model.js";
import { loadSpecText } from "../../src/load/load-spec.js";

// The access model's extensions (x-powercontext-access-policy and -resolvers on the
// document, -after and -owner on operations), as the IR carries them: validated with
// codegen/src/schema/access.schema.json (pointers of every fault), cross-references
// checked, the values kept as written.

type Json = Record<string, any>;

const ok = { description: "ok", content: { "application/json": { schema: { type: "object" } } } };

const policy = {
  deployment: "powercontext",
  self_action: "access.self",
  ids: { scope: 256, family: 128, artifact: 128, entry: 128, deployment: 128 },
  whitespace: [9, 32],
  actions: { server: ["access.self", "server.observe"], scope: ["scope.read"] },
  roles: {
    "scope.viewer": { on: "scope", actions: ["scope.read"], children: ["artifact.read"] },
    "server.observer": { on: "server", actions: ["server.observe"], children: [] },
    "artifact.owner": { on: "artifact", actions: ["artifact.read", "artifact.write"], children: [], system: true },
  },
  owner_role: "artifact.owner",
  families: {
    note: { selector: "forbidden", actions: ["artifact.read"], mutations: ["artifact.write"], grantable: [] },
  },
  share_action: "artifact.read",
  artifact_resource: "artifact",
  owned: ["artifact"],
  discovery: { note: "heads" },
  static_principal: {
    principal: { type: "service", id: "server-token", description: "static" },
    server_roles: ["server.observer"],
    scope_preset: ["scope.viewer"],
    preset_reason: "preset",
  },
  reasons: { self: "authenticated", binding: "role-binding", owner: "artifact-owner", none: "no-matching-binding" },
  report: { mode: "enforced", capabilities: { multi_principal: false } },
  refusals: {
    invalid: { status: 422, code: "invalid_access_request" },
    denied: { status: 403, code: "forbidden" },
    unavailable: { status: 503, code: "access_unavailable" },
  },
};

const resolvers = {
  note_read: [
    { require: { family: ["note"] } },
    { checks: [{ action: "artifact.read", artifact: { scope: "scope_id", family: "family", id: "artifact_id" } }] },
  ],
};

async function given(extra: Json = {}, operation: Json = {}): Promise<ApiIr> {
  const paths = {
    "/v1/notes/get": {
      post: {
        operationId: "get_note",
        "x-powercontext-access": { resolver: "note_read" },
        responses: { "200": ok },
        ...operation,
      },
    },
  };
  const document = {
    openapi: "3.0.3",
    info: { title: "t", version: "1" },
    paths,
    "x-powercontext-error-codes": {
      invalid_access_request: { status: 422, transient: false },
      forbidden: { status: 403, transient: false },
      access_unavailable: { status: 503, transient: true },
    },
    "x-powercontext-resources": {
      artifact: {
        within: { scope_id: null, family: null },
        id: "artifact_id",
        not_found: { status: 403, code: "forbidden" },
      },
    },
    "x-powercontext-access-policy": policy,
    "x-powercontext-access-resolvers": resolvers,
    ...extra,
  };
  return buildIr(await loadSpecText(JSON.stringify(document), "spec.json", { lint: "upstream" }), "upstream");
}

async function issues(build: Promise<unknown>): Promise<string[]> {
  const error = await build.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SpecErrorList);
  return (error as SpecErrorList).issues.map((issue) => issue.pointer);
}

describe("the access facts", () => {
  it("carries the policy, the resolvers and the operations' after-access checks and owner rules as written", async () => {
    const after = [
      { lookup: { resource: "artifact", id: "artifact_id", within: ["scope_id", { value: "note" }] }, owner: true },
    ];
    const ir = await given(
      {},
      { "x-powercontext-access-after": after, "x-powercontext-access-owner": { inherit: "artifact" } },
    );
    expect(ir.accessFacts).toEqual({
      policy,
      resolvers,
      after: { get_note: after },
      owners: { get_note: { inherit: "artifact" } },
    });
  });

  it("is null without the document extensions, and an operation's checks need the policy", async () => {
    const none = await given(
      { "x-powercontext-access-policy": undefined, "x-powercontext-access-resolvers": undefined },
      {
        "x-powercontext-access": undefined,
      },
    );
    expect(none.accessFacts).toBeNull();
    expect(
      await issues(
        given(
          { "x-powercontext-access-policy": undefined, "x-powercontext-access-resolvers": undefined },
          { "x-powercontext-access-after": [{ checks: [{ action: "scope.read", scope: "scope_id" }] }] },
        ),
      ),
    ).toEqual(["/paths/~1v1~1notes~1get/post"]);
  });

  it("refuses what the schema refuses, at the pointer of each fault", async () => {
    const badResolvers = {
      note_read: [
        { checks: [{ action: "artifact.read", scope: "scope_id", server: true }] },
        { when: { family: "note" }, checks: [] },
        { checks: [{ action: "scope.read", scope: "scope_id", extra: 1 }] },
      ],
    };
    const badPolicy = { ...policy, ids: { ...policy.ids, scope: 0 }, owner_role: 7 };
    const found = await issues(
      given({ "x-powercontext-access-resolvers": badResolvers, "x-powercontext-access-policy": badPolicy }),
    );
    expect(found).toEqual(
      expect.arrayContaining([
        "/x-powercontext-access-policy/ids/scope",
        "/x-powercontext-access-policy/owner_role",
        "/x-powercontext-access-resolvers/note_read/0/checks/0",
        "/x-powercontext-access-resolvers/note_read/1/when/family",
        "/x-powercontext-access-resolvers/note_read/2/checks/0/extra",
      ]),
    );
    const after = [{ lookup: { resource: "artifact", id: "artifact_id" } }, { stage: "later", checks: [] }];
    expect(await issues(given({}, { "x-powercontext-access-after": after }))).toEqual(
      expect.arrayContaining([
        "/paths/~1v1~1notes~1get/post/x-powercontext-access-after/0/lookup/within",
        "/paths/~1v1~1notes~1get/post/x-powercontext-access-after/1/stage",
      ]),
    );
  });

  it("refuses names no fact defines: roles, actions, resolvers, resources, refusal codes", async () => {
    const badPolicy = {
      ...policy,
      static_principal: { ...policy.static_principal, scope_preset: ["scope.nobody"], server_roles: ["scope.viewer"] },
      owned: ["artifact", "ghost"],
      discovery: { note: "heads", ghost: "none" },
      refusals: { ...policy.refusals, denied: { status: 401, code: "forbidden" } },
    };
    const found = await issues(
      given(
        {
          "x-powercontext-access-policy": badPolicy,
          "x-powercontext-access-resolvers": { note_read: [{ checks: [{ action: "note.fly", server: true }] }] },
        },
        {
          "x-powercontext-access": { resolver: "note_write" },
          "x-powercontext-access-after": [{ lookup: { resource: "ghost", id: "artifact_id", within: [] } }],
          "x-powercontext-access-owner": { inherit: "ghost" },
        },
      ),
    );
    const op = "/paths/~1v1~1notes~1get/post";
    expect(found.sort()).toEqual(
      [
        "/x-powercontext-access-policy/static_principal/scope_preset/0",
        "/x-powercontext-access-policy/static_principal/server_roles/0",
        "/x-powercontext-access-policy/owned/1",
        "/x-powercontext-access-policy/discovery/ghost",
        "/x-powercontext-access-policy/refusals/denied",
        "/x-powercontext-access-resolvers/note_read/0/checks/0/action",
        `${op}/x-powercontext-access/resolver`,
        `${op}/x-powercontext-access-after/0/lookup/resource`,
        `${op}/x-powercontext-access-owner/inherit`,
      ].sort(),
    );
  });
});
