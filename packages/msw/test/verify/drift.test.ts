// Contract drift as given/want tables: each change to a small contract, classified from
// the point of view of an app whose tests run against the mock.
import { describe, expect, it } from "vitest";
import { compareContracts, type JsonObject } from "../../src/verify/drift.js";

/** A contract with one operation, create_note, whose body and answer are the given schemas. */
function contract(body: JsonObject, answer: JsonObject, extra: JsonObject = {}): JsonObject {
  return {
    openapi: "3.0.3",
    info: { title: "t", version: "1" },
    paths: {
      "/v1/notes": {
        post: {
          operationId: "create_note",
          parameters: [{ name: "limit", in: "query", schema: { type: "integer", maximum: 50 } }],
          requestBody: { required: true, content: { "application/json": { schema: body } } },
          responses: { "201": { description: "ok", content: { "application/json": { schema: answer } } } },
          ...extra,
        },
      },
    },
  };
}

const BODY: JsonObject = {
  type: "object",
  additionalProperties: false,
  required: ["text"],
  properties: {
    text: { type: "string", maxLength: 100 },
    kind: { type: "string", enum: ["fact", "note"] },
    tags: { type: "array", items: { type: "string" } },
  },
};
const ANSWER: JsonObject = {
  type: "object",
  required: ["note_id", "state"],
  properties: { note_id: { type: "string" }, state: { type: "string", enum: ["active", "retired"] } },
};

function withBody(change: (body: JsonObject) => void): JsonObject {
  const body = structuredClone(BODY);
  change(body);
  return contract(body, ANSWER);
}
function withAnswer(change: (answer: JsonObject) => void): JsonObject {
  const answer = structuredClone(ANSWER);
  change(answer);
  return contract(BODY, answer);
}
const props = (schema: JsonObject) => schema.properties as Record<string, JsonObject>;

describe("compareContracts", () => {
  it("finds nothing between a contract and itself", () => {
    const report = compareContracts(contract(BODY, ANSWER), contract(BODY, ANSWER));
    expect(report).toMatchObject({ added: [], missing: [], changed: [], breaking: 0 });
  });

  it.each<[string, JsonObject, string, string, boolean]>([
    [
      "a member the server requires",
      withBody((b) => (b.required as string[]).push("kind")),
      "request/kind",
      "required by the server only",
      true,
    ],
    [
      "a new required member",
      withBody((b) => {
        props(b).owner = { type: "string" };
        (b.required as string[]).push("owner");
      }),
      "request/owner",
      "new member on the server",
      true,
    ],
    [
      "a new optional member",
      withBody((b) => {
        props(b).owner = { type: "string" };
      }),
      "request/owner",
      "new member on the server",
      false,
    ],
    [
      "a member the closed server model lacks",
      withBody((b) => {
        delete props(b).tags;
      }),
      "request/tags",
      "not a member on the server",
      true,
    ],
    [
      "an enum value the server no longer takes",
      withBody((b) => {
        props(b).kind!.enum = ["fact"];
      }),
      "request/kind",
      'enum lost "note"',
      true,
    ],
    [
      "an enum value the server also takes",
      withBody((b) => {
        props(b).kind!.enum = ["fact", "note", "rule"];
      }),
      "request/kind",
      'enum gained "rule"',
      false,
    ],
    [
      "a shorter maxLength",
      withBody((b) => {
        props(b).text!.maxLength = 10;
      }),
      "request/text",
      "maxLength 100 -> 10",
      true,
    ],
    [
      "a longer maxLength",
      withBody((b) => {
        props(b).text!.maxLength = 500;
      }),
      "request/text",
      "maxLength 100 -> 500",
      false,
    ],
    [
      "another item type",
      withBody((b) => {
        props(b).tags!.items = { type: "integer" };
      }),
      "request/tags[]",
      "the server does not take string",
      true,
    ],
    [
      "a new answer enum value",
      withAnswer((a) => {
        props(a).state!.enum = ["active", "retired", "merged"];
      }),
      "responses/201/state",
      'enum gained "merged"',
      true,
    ],
    [
      "an answer member gone",
      withAnswer((a) => {
        delete props(a).state;
        a.required = ["note_id"];
      }),
      "responses/201/state",
      "no longer answered by the server",
      true,
    ],
    [
      "an answer member made optional",
      withAnswer((a) => {
        a.required = ["note_id"];
      }),
      "responses/201/state",
      "optional in the server's answer",
      true,
    ],
    [
      "a new answer member",
      withAnswer((a) => {
        props(a).extra = { type: "string" };
      }),
      "responses/201/extra",
      "new member in the server's answer",
      false,
    ],
    [
      "a nullable answer member",
      withAnswer((a) => {
        props(a).note_id!.nullable = true;
      }),
      "responses/201/note_id",
      "the server may answer null",
      true,
    ],
  ])("%s", (_label, server, at, change, breaking) => {
    const report = compareContracts(contract(BODY, ANSWER), server);
    expect(report.changed).toHaveLength(1);
    expect(report.changed[0]?.changes).toContainEqual({ at, change, breaking });
    expect(report.breaking).toBe(breaking ? 1 : 0);
  });

  it("classifies parameters and statuses", () => {
    const server = contract(BODY, ANSWER, {
      parameters: [
        { name: "limit", in: "query", schema: { type: "integer", maximum: 20 } },
        { name: "If-Match", in: "header", required: true, schema: { type: "string" } },
      ],
      responses: { "200": { description: "ok" }, "409": { description: "conflict" } },
    });
    const changes = compareContracts(contract(BODY, ANSWER), server).changed[0]?.changes;
    expect(changes).toEqual(
      expect.arrayContaining([
        { at: "parameters/query/limit", change: "maximum 50 -> 20", breaking: true },
        { at: "parameters/header/If-Match", change: "new parameter on the server", breaking: true },
        { at: "responses/201", change: "not declared by the server", breaking: true },
        { at: "responses/200", change: "declared by the server only", breaking: true },
        { at: "responses/409", change: "declared by the server only", breaking: false },
      ]),
    );
  });

  it("lists operations only one side has, without failing them, and reads $refs and recursion", () => {
    const node: JsonObject = {
      type: "object",
      properties: {
        name: { type: "string" },
        children: { type: "array", items: { $ref: "#/components/schemas/Node" } },
      },
    };
    const ours: JsonObject = {
      ...contract({ $ref: "#/components/schemas/Node" }, ANSWER),
      components: { schemas: { Node: node } },
    };
    const theirs = structuredClone(ours) as JsonObject & { paths: JsonObject };
    (theirs.paths as Record<string, JsonObject>)["/v1/health"] = {
      get: { operationId: "get_health", responses: { "200": { description: "ok" } } },
    };
    const deeper = structuredClone(node);
    props(deeper).name!.maxLength = 3;
    (theirs as unknown as { components: { schemas: JsonObject } }).components.schemas.Node = deeper;
    const report = compareContracts(ours, theirs);
    expect(report.added).toEqual([{ operationId: "get_health", method: "GET", path: "/v1/health" }]);
    expect(compareContracts(theirs, ours).missing).toEqual([
      { operationId: "get_health", method: "GET", path: "/v1/health" },
    ]);
    expect(report.changed[0]?.changes).toContainEqual({
      at: "request/name",
      change: "maxLength none -> 3",
      breaking: true,
    });
    // A recursive schema's change is reported once, where it is first met.
    expect(report.changed[0]?.changes).toHaveLength(1);
  });

  it("reports a moved route as breaking, and the versions", () => {
    const server = contract(BODY, ANSWER) as { paths: Record<string, JsonObject>; info: JsonObject };
    server.paths = { "/v2/notes": server.paths["/v1/notes"] as JsonObject };
    server.info = { title: "t", version: "1.5.0" };
    const report = compareContracts(contract(BODY, ANSWER), server as unknown as JsonObject);
    expect(report.versions).toEqual({ contract: "1", server: "1.5.0" });
    expect(report.changed[0]?.changes[0]).toEqual({
      at: "route",
      change: "POST /v2/notes on the server",
      breaking: true,
    });
  });
});

describe("a member the contract lets take null as the server's request model does (null-as-absent)", () => {
  const ours = (body: JsonObject) => {
    const document = contract(body, ANSWER);
    (document as any).components = {
      schemas: { Filter: { type: "object", properties: { match: { type: "string" } } } },
    };
    return document;
  };
  const rules = [{ rule: "null-as-absent", members: ["tags", "filter"], stage: "runtime" }];
  const server = ours({
    ...BODY,
    properties: { ...(BODY.properties as JsonObject), filter: { $ref: "#/components/schemas/Filter" } },
  });

  it("is no drift, whether a list takes null or a reference wrapped in allOf", () => {
    const body = structuredClone(BODY) as any;
    body.properties.tags.nullable = true;
    body.properties.filter = { allOf: [{ $ref: "#/components/schemas/Filter" }], nullable: true };
    const contract = ours({ ...body, "x-powercontext-rules": rules });
    expect(compareContracts(contract, server).changed).toEqual([]);
    // A server that states the null too (another mock of the same contract).
    expect(compareContracts(contract, contract).changed).toEqual([]);
  });

  it("is drift without the rule that says so", () => {
    const body = structuredClone(BODY) as any;
    body.properties.tags.nullable = true;
    body.properties.filter = { $ref: "#/components/schemas/Filter" };
    const changed = compareContracts(ours(body), server).changed;
    expect(changed.flatMap((op) => op.changes.map((c) => [c.at, c.change]))).toEqual([
      ["request/tags", "the server does not take null"],
    ]);
  });
});
