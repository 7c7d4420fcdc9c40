import { describe, expect, it } from "vitest";
import { SpecErrorList } from "../../src/errors.js";
import { buildIr } from "../../src/ir/build-ir.js";
import type { ApiIr } from "../../src/ir/model.js";
import { loadSpecText } from "../../src/load/load-spec.js";

// The extensions the mock's simulator and server read: x-powercontext-router (document)
// and x-powercontext-refusals (operation), as the IR carries them and refuses them.

type Json = Record<string, any>;

const ok = { description: "ok", content: { "application/json": { schema: { type: "object" } } } };
const registry = {
  "x-powercontext-error-codes": {
    legacy_memory_operation_unsupported: { status: 422, transient: false },
    inference_unavailable: { status: 503, transient: false },
  },
};

async function given(operation: Json, extra: Json = {}): Promise<ApiIr> {
  const paths = {
    "/v1/memory/flush": {
      post: {
        operationId: "flush_memory",
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: { type: "object", properties: { scope_id: { type: "string" }, citation: { type: "object" } } },
            },
          },
        },
        responses: { "200": ok, "422": ok, "503": ok },
        ...operation,
      },
    },
    "/v1/scopes": { get: { operationId: "list_scopes", responses: { "200": ok } } },
  };
  const document = { openapi: "3.0.3", info: { title: "t", version: "1" }, paths, ...registry, ...extra };
  return buildIr(await loadSpecText(JSON.stringify(document), "spec.json", { lint: "upstream" }), "upstream");
}

async function issues(build: Promise<unknown>): Promise<string[]> {
  const error = await build.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SpecErrorList);
  return (error as SpecErrorList).issues.map((issue) => `${issue.code} ${issue.pointer}`);
}

describe("x-powercontext-refusals", () => {
  it("carries each rule with its conditions and defaults", async () => {
    const ir = await given({
      "x-powercontext-refusals": [
        {
          status: 503,
          code: "inference_unavailable",
          message: "No model.",
          when: { inference: "off", pending: "sources" },
          scope: "scope_id",
        },
        {
          status: 422,
          code: "legacy_memory_operation_unsupported",
          message: "Legacy.",
          details: { operation: "citation read" },
          when: { present: "citation" },
        },
        {
          status: 422,
          code: "legacy_memory_operation_unsupported",
          message: "Legacy.",
          when: { equals: { scope_id: "memory" }, includes: { citation: 1 } },
        },
      ],
    });
    expect(ir.operations.find((op) => op.operationId === "flush_memory")!.refusals).toEqual([
      {
        status: 503,
        code: "inference_unavailable",
        message: "No model.",
        details: null,
        when: {
          inference: "off",
          present: null,
          empty: null,
          pending: "sources",
          equals: {},
          includes: {},
          outside: {},
          above: {},
          wordsAbove: {},
          untrimmed: [],
          unknown: null,
          record: null,
          withoutHeader: {},
        },
        scope: "scope_id",
        records: null,
      },
      {
        status: 422,
        code: "legacy_memory_operation_unsupported",
        message: "Legacy.",
        details: { operation: "citation read" },
        when: {
          inference: null,
          present: "citation",
          empty: null,
          pending: null,
          equals: {},
          includes: {},
          outside: {},
          above: {},
          wordsAbove: {},
          untrimmed: [],
          unknown: null,
          record: null,
          withoutHeader: {},
        },
        scope: null,
        records: null,
      },
      {
        status: 422,
        code: "legacy_memory_operation_unsupported",
        message: "Legacy.",
        details: null,
        when: {
          inference: null,
          present: null,
          empty: null,
          pending: null,
          equals: { scope_id: "memory" },
          includes: { citation: 1 },
          outside: {},
          above: {},
          wordsAbove: {},
          untrimmed: [],
          unknown: null,
          record: null,
          withoutHeader: {},
        },
        scope: null,
        records: null,
      },
    ]);
    expect(ir.operations.find((op) => op.operationId === "list_scopes")!.refusals).toEqual([]);
  });

  it("carries outside: dotted paths from a request member (list and key steps) with the values that do not refuse; refuses a path from no member", async () => {
    const rule = { status: 422, code: "legacy_memory_operation_unsupported", message: "m" };
    const ir = await given({
      "x-powercontext-refusals": [{ ...rule, when: { outside: { "citation.family": ["memory", "skill"] } } }],
    });
    expect(ir.operations.find((op) => op.operationId === "flush_memory")!.refusals[0]!.when.outside).toEqual({
      "citation.family": ["memory", "skill"],
    });
    const listed = await given({
      "x-powercontext-refusals": [{ ...rule, when: { outside: { "citation[].family": ["memory"] } } }],
    });
    expect(listed.operations.find((op) => op.operationId === "flush_memory")!.refusals[0]!.when.outside).toEqual({
      "citation[].family": ["memory"],
    });
    const at = "/paths/~1v1~1memory~1flush/post/x-powercontext-refusals";
    // An empty list refuses any value (a key an object does not declare, through a key step).
    const keys = await given({ "x-powercontext-refusals": [{ ...rule, when: { outside: { "citation{}": [] } } }] });
    expect(keys.operations.find((op) => op.operationId === "flush_memory")!.refusals[0]!.when.outside).toEqual({
      "citation{}": [],
    });
    // A path from no member is the IR's to refuse.
    expect(
      await issues(given({ "x-powercontext-refusals": [{ ...rule, when: { outside: { "colour.family": ["x"] } } }] })),
    ).toEqual([`invalid_extension ${at}/0/when/outside/colour.family`]);
  });

  it("carries above (a number over a bound), equals through a dotted path and empty over several members; refuses them from no member", async () => {
    const rule = { status: 422, code: "legacy_memory_operation_unsupported", message: "m" };
    const ir = await given({
      "x-powercontext-refusals": [
        {
          ...rule,
          when: { above: { scope_id: 20 }, equals: { "citation.family": "memory" }, empty: ["scope_id", "citation"] },
        },
      ],
    });
    expect(ir.operations.find((op) => op.operationId === "flush_memory")!.refusals[0]!.when).toMatchObject({
      above: { scope_id: 20 },
      equals: { "citation.family": "memory" },
      empty: ["scope_id", "citation"],
    });
    const at = "/paths/~1v1~1memory~1flush/post/x-powercontext-refusals";
    expect(
      await issues(
        given({
          "x-powercontext-refusals": [
            {
              ...rule,
              when: { above: { colour: 1 }, equals: { "colour.family": "x" }, empty: ["scope_id", "colour"] },
            },
          ],
        }),
      ),
    ).toEqual([
      `invalid_extension ${at}/0/when/empty`,
      `invalid_extension ${at}/0/when/above/colour`,
      `invalid_extension ${at}/0/when/equals/colour.family`,
    ]);
  });

  it("carries words_above (more distinct words than a bound in a request member); refuses one from no member", async () => {
    const rule = { status: 422, code: "legacy_memory_operation_unsupported", message: "m" };
    const ir = await given({ "x-powercontext-refusals": [{ ...rule, when: { words_above: { scope_id: 64 } } }] });
    expect(ir.operations.find((op) => op.operationId === "flush_memory")!.refusals[0]!.when).toMatchObject({
      wordsAbove: { scope_id: 64 },
    });
    const at = "/paths/~1v1~1memory~1flush/post/x-powercontext-refusals";
    expect(
      await issues(given({ "x-powercontext-refusals": [{ ...rule, when: { words_above: { colour: 64 } } }] })),
    ).toEqual([`invalid_extension ${at}/0/when/words_above/colour`]);
  });

  it("carries untrimmed (a request member's text with whitespace around it); refuses one naming no member", async () => {
    const rule = { status: 422, code: "legacy_memory_operation_unsupported", message: "m" };
    const ir = await given({ "x-powercontext-refusals": [{ ...rule, when: { untrimmed: ["scope_id"] } }] });
    expect(ir.operations.find((op) => op.operationId === "flush_memory")!.refusals[0]!.when).toMatchObject({
      untrimmed: ["scope_id"],
    });
    const at = "/paths/~1v1~1memory~1flush/post/x-powercontext-refusals";
    expect(
      await issues(given({ "x-powercontext-refusals": [{ ...rule, when: { untrimmed: ["scope_id", "colour"] } }] })),
    ).toEqual([`invalid_extension ${at}/0/when/untrimmed/1`]);
  });

  it("carries empty (a member absent, null or empty) and unknown (a record the request names, in its collection); refuses an unknown resource, a key count other than the resource's, a path from no member", async () => {
    const rule = { status: 422, code: "legacy_memory_operation_unsupported", message: "m" };
    const resources = {
      "x-powercontext-resources": {
        scope: { id: "scope_id", not_found: { status: 422, code: "legacy_memory_operation_unsupported" } },
        artifact: {
          within: { scope_id: "scope", family: null },
          id: "artifact_id",
          not_found: { status: 422, code: "legacy_memory_operation_unsupported" },
        },
      },
    };
    const unknown = { resource: "artifact", id: "citation.artifact_id", within: ["scope_id", { value: "skill" }] };
    const ir = await given(
      { "x-powercontext-refusals": [{ ...rule, when: { empty: "citation", unknown } }] },
      resources,
    );
    const when = ir.operations.find((op) => op.operationId === "flush_memory")!.refusals[0]!.when;
    expect([when.empty, when.unknown]).toEqual(["citation", { ...unknown, holding: {} }]);
    const at = "/paths/~1v1~1memory~1flush/post/x-powercontext-refusals";
    expect(
      await issues(
        given(
          {
            "x-powercontext-refusals": [
              { ...rule, when: { empty: "colour" } },
              { ...rule, when: { unknown: { ...unknown, resource: "candidate" } } },
              { ...rule, when: { unknown: { ...unknown, within: ["scope_id"] } } },
              { ...rule, when: { unknown: { ...unknown, id: "colour.id", within: ["colour", { value: "x" }] } } },
              { ...rule, when: { record: { ...unknown, resource: "candidate", equals: { a: 1 } } } },
            ],
          },
          resources,
        ),
      ),
    ).toEqual([
      `invalid_extension ${at}/0/when/empty`,
      `invalid_extension ${at}/1/when/unknown/resource`,
      `invalid_extension ${at}/2/when/unknown/within`,
      `invalid_extension ${at}/3/when/unknown/id`,
      `invalid_extension ${at}/3/when/unknown/within/0`,
      `invalid_extension ${at}/4/when/record/resource`,
    ]);
    const stored = await given(
      { "x-powercontext-refusals": [{ ...rule, when: { record: { ...unknown, equals: { "a.b": true } } } }] },
      resources,
    );
    expect(stored.operations.find((op) => op.operationId === "flush_memory")!.refusals[0]!.when.record).toEqual({
      ...unknown,
      equals: { "a.b": true },
    });
  });

  it("refuses by the schema an unknown member, a malformed condition, a missing message, pending without its Scope", async () => {
    const at = "/paths/~1v1~1memory~1flush/post/x-powercontext-refusals";
    expect(
      await issues(
        given({
          "x-powercontext-refusals": [
            { status: 503, code: "inference_unavailable", message: "m", when: { pending: "sources" } },
            { status: 503, code: "inference_unavailable", message: "m", when: { inference: "sometimes" }, extra: 1 },
            { status: 503, code: "inference_unavailable" },
            { status: 503, code: "inference_unavailable", message: "m", when: { includes: { scope_id: { a: 1 } } } },
          ],
        }),
      ),
    ).toEqual([
      `invalid_extension ${at}/0/when/pending`,
      `invalid_extension ${at}/1/extra`,
      `invalid_extension ${at}/1/when/inference`,
      `invalid_extension ${at}/2/message`,
      `invalid_extension ${at}/3/when/includes/scope_id`,
    ]);
  });

  it("refuses a code the registry lacks or has with another status, and members the request does not have", async () => {
    const at = "/paths/~1v1~1memory~1flush/post/x-powercontext-refusals";
    expect(
      await issues(
        given({
          "x-powercontext-refusals": [
            { status: 503, code: "no_such_code", message: "m" },
            { status: 503, code: "legacy_memory_operation_unsupported", message: "m" },
            { status: 503, code: "inference_unavailable", message: "m", when: { present: "colour" } },
            { status: 503, code: "inference_unavailable", message: "m", when: { equals: { colour: "red" } } },
          ],
        }),
      ),
    ).toEqual([
      `invalid_extension ${at}/0/code`,
      `invalid_extension ${at}/1/code`,
      `invalid_extension ${at}/2/when/present`,
      `invalid_extension ${at}/3/when/equals/colour`,
    ]);
  });
});

describe("x-powercontext-router", () => {
  it("carries the registration order and the raw-path prefixes; null without it", async () => {
    const ir = await given(
      {},
      { "x-powercontext-router": { order: ["list_scopes", "flush_memory"], "raw-path-prefixes": ["/v1/scopes/"] } },
    );
    expect(ir.router).toEqual({
      order: ["list_scopes", "flush_memory"],
      rawPathPrefixes: ["/v1/scopes/"],
      publicPaths: [],
      publicPrefixes: [],
      frameworkBodies: null,
    });
    expect((await given({})).router).toBeNull();
  });

  it("carries the public paths and prefixes and the framework's bodies; refuses a prefix without its slash and a body that is no object", async () => {
    const router = {
      order: ["list_scopes"],
      "raw-path-prefixes": [],
      "public-paths": ["/", "/health/live"],
      "public-prefixes": ["/dashboard/static/"],
      "framework-bodies": { "404": { detail: "Not Found" }, "405": { detail: "Method Not Allowed" } },
    };
    const ir = await given({}, { "x-powercontext-router": router });
    expect(ir.router).toMatchObject({
      publicPaths: ["/", "/health/live"],
      publicPrefixes: ["/dashboard/static/"],
      frameworkBodies: { notFound: { detail: "Not Found" }, methodNotAllowed: { detail: "Method Not Allowed" } },
    });
    const bad = { ...router, "public-prefixes": ["/dashboard"], "framework-bodies": { "404": "Not Found", "405": {} } };
    expect(await issues(given({}, { "x-powercontext-router": bad }))).toEqual([
      expect.stringContaining("/x-powercontext-router/public-prefixes/0"),
      expect.stringContaining("/x-powercontext-router/framework-bodies/404"),
    ]);
  });

  it("refuses an operation listed twice, a prefix that is not a path, an unknown member; and an operation it does not have", async () => {
    expect(
      await issues(
        given(
          {},
          {
            "x-powercontext-router": {
              order: ["list_scopes", "flush_memory", "list_scopes"],
              "raw-path-prefixes": ["v1"],
              extra: true,
            },
          },
        ),
      ),
    ).toEqual([
      "invalid_extension /x-powercontext-router/extra",
      "invalid_extension /x-powercontext-router/order/2",
      "invalid_extension /x-powercontext-router/raw-path-prefixes/0",
    ]);
    expect(await issues(given({}, { "x-powercontext-router": { order: ["list_scopes", "nothing"] } }))).toEqual([
      "invalid_extension /x-powercontext-router/order/1",
    ]);
  });
});

describe("x-powercontext-media-from", () => {
  const twoMedia = {
    description: "ok",
    content: { "application/json": { schema: { type: "object" } }, "text/markdown": { schema: { type: "string" } } },
  };

  it("carries the member and the media type each value chooses", async () => {
    const ir = await given({
      responses: { "200": twoMedia },
      "x-powercontext-media-from": { member: "citation", values: { markdown: "text/markdown" } },
    });
    expect(ir.operations.find((op) => op.operationId === "flush_memory")!.mediaFrom).toEqual({
      member: "citation",
      values: { markdown: "text/markdown" },
    });
    expect(ir.operations.find((op) => op.operationId === "list_scopes")!.mediaFrom).toBeNull();
  });

  it("refuses a member the request lacks and a media type the success response does not declare", async () => {
    const at = "/paths/~1v1~1memory~1flush/post/x-powercontext-media-from";
    expect(
      await issues(
        given({
          responses: { "200": twoMedia },
          "x-powercontext-media-from": { member: "format", values: { "a/b": "text/html" } },
        }),
      ),
    ).toEqual([`invalid_extension ${at}/member`, `invalid_extension ${at}/values/a~1b`]);
  });
});

describe("x-powercontext-exclude-unset", () => {
  it("carries true where an operation declares it, false elsewhere, and refuses anything but a boolean", async () => {
    const ir = await given({ "x-powercontext-exclude-unset": true });
    expect(ir.operations.find((op) => op.operationId === "flush_memory")!.excludeUnset).toBe(true);
    expect(ir.operations.find((op) => op.operationId === "list_scopes")!.excludeUnset).toBe(false);
    expect(await issues(given({ "x-powercontext-exclude-unset": "yes" }))).toEqual([
      "invalid_extension /paths/~1v1~1memory~1flush/post/x-powercontext-exclude-unset",
    ]);
  });
});

describe("x-powercontext-query-model", () => {
  const at = "/paths/~1v1~1memory~1flush/post/x-powercontext-query-model";
  const query = {
    parameters: [
      { name: "status", in: "query", schema: { type: "string", enum: ["queued"] } },
      { name: "tag", in: "query", schema: { type: "array", items: { type: "string", minLength: 1 } } },
    ],
  };

  it("carries the query parameters and the lists whose items the request model checks; empty without", async () => {
    const ir = await given({ ...query, "x-powercontext-query-model": ["status", "tag[]"] });
    expect(ir.operations.find((op) => op.operationId === "flush_memory")!.queryModel).toEqual([
      { name: "status", items: false },
      { name: "tag", items: true },
    ]);
    expect(ir.operations.find((op) => op.operationId === "list_scopes")!.queryModel).toEqual([]);
  });

  it("refuses a name that is no query parameter, items of one that is no list, and a malformed list", async () => {
    expect(await issues(given({ ...query, "x-powercontext-query-model": ["scope_id", "status[]", "tag"] }))).toEqual([
      `invalid_extension ${at}/0`,
      `invalid_extension ${at}/1`,
    ]);
    expect(await issues(given({ ...query, "x-powercontext-query-model": [] }))).toEqual([`invalid_extension ${at}`]);
  });
});

describe("x-powercontext-answer", () => {
  const at = "/paths/~1v1~1memory~1flush/post/x-powercontext-answer";
  const facts = {
    "x-powercontext-release": { distribution: "p", version: "2.3.4", "contract-version": "2.3.1" },
    "x-powercontext-feature-contracts": { "scope.selection": { major: 1, minor: 2 }, unused: { major: 3, minor: 0 } },
  };

  it("reads each member's value from the contract, as its source says", async () => {
    const ir = await given(
      {
        "x-powercontext-feature-contracts": ["scope.selection"],
        "x-powercontext-answer": {
          kind: { value: { a: 1 } },
          "nested.version": { document: "/x-powercontext-release/version" },
          api: { document: "/x-powercontext-release/contract-version", as: "major-minor" },
          features: { document: "/x-powercontext-feature-contracts", as: "feature-contracts" },
          server_id: { instance: "uuid" },
          gone: { omit: { unless_header: { "X-New": "2" } } },
        },
      },
      facts,
    );
    expect(ir.operations.find((op) => op.operationId === "flush_memory")!.answer).toEqual([
      { member: "kind", value: { a: 1 }, instance: null, omit: null },
      { member: "nested.version", value: "2.3.4", instance: null, omit: null },
      { member: "api", value: { major: 2, minor: 3 }, instance: null, omit: null },
      {
        member: "features",
        value: {
          "scope.selection": { version: { major: 1, minor: 2 }, operations: ["flush_memory"] },
          unused: { version: { major: 3, minor: 0 }, operations: [] },
        },
        instance: null,
        omit: null,
      },
      { member: "server_id", value: null, instance: "uuid", omit: null },
      { member: "gone", value: null, instance: null, omit: { unlessHeader: { name: "X-New", value: "2" } } },
    ]);
    expect(ir.operations.find((op) => op.operationId === "list_scopes")!.answer).toEqual([]);
  });

  it("refuses a pointer that names nothing, a version that is not one, and an unknown source", async () => {
    expect(
      await issues(
        given(
          {
            "x-powercontext-answer": {
              a: { document: "/x-powercontext-release/nothing" },
              b: { document: "/x-powercontext-release/distribution", as: "major-minor" },
            },
          },
          facts,
        ),
      ),
    ).toEqual([`invalid_extension ${at}/a/document`, `invalid_extension ${at}/b/as`]);
    expect(await issues(given({ "x-powercontext-answer": { a: { from: "x" } } }))).toContain(
      `invalid_extension ${at}/a/from`,
    );
  });
});
