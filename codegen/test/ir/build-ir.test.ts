import { describe, expect, it } from "vitest";
import { buildIr } from "../../src/ir/build-ir.js";
import type { ApiIr } from "../../src/ir/model.js";
import { loadSpecText } from "../../src/load/load-spec.js";

type Json = Record<string, any>;

/** Given a spec (paths and components), want the IR built under `upstream`. */
async function given(paths: Json, extra: Json = {}, openapi = "3.0.3"): Promise<ApiIr> {
  const document = { openapi, info: { title: "t", version: "1" }, paths, ...extra };
  const spec = await loadSpecText(JSON.stringify(document), "spec.json", { lint: "upstream" });
  return buildIr(spec, "upstream");
}

const ok = (schema: Json = { type: "object" }) => ({ description: "ok", content: { "application/json": { schema } } });

describe("build-ir: parameters", () => {
  it("groups parameters by location with style and explode, defaults filled per location", async () => {
    const ir = await given({
      "/v1/things/{id}": {
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        get: {
          operationId: "get_thing",
          parameters: [
            { name: "tag", in: "query", schema: { type: "array", items: { type: "string" } }, explode: false },
            { name: "limit", in: "query", schema: { type: "integer" } },
            { name: "If-None-Match", in: "header", schema: { type: "string" } },
            { name: "session", in: "cookie", required: true, schema: { type: "string" } },
          ],
          responses: { "200": ok() },
        },
      },
    });
    const [op] = ir.operations;
    const brief = (p: { name: string; required: boolean; style: string; explode: boolean }) => [
      p.name,
      p.required,
      p.style,
      p.explode,
    ];
    expect(op!.parameters.path.map(brief)).toEqual([["id", true, "simple", false]]);
    expect(op!.parameters.query.map(brief)).toEqual([
      ["tag", false, "form", false],
      ["limit", false, "form", true],
    ]);
    expect(op!.parameters.header.map(brief)).toEqual([["If-None-Match", false, "simple", false]]);
    expect(op!.parameters.cookie.map(brief)).toEqual([["session", true, "form", true]]);
    expect(op!.parameters.header[0]!.pointer).toBe("/paths/~1v1~1things~1{id}/get/parameters/2");
    expect(op!.requestRequired).toBe(true);
  });

  it("an operation parameter overrides the path item's, header names compared case-insensitively", async () => {
    const ir = await given({
      "/v1/x": {
        parameters: [{ name: "if-match", in: "header", schema: { type: "string" } }],
        put: {
          operationId: "put_x",
          parameters: [{ name: "If-Match", in: "header", required: true, schema: { type: "string" } }],
          responses: { "204": { description: "done" } },
        },
      },
    });
    expect(ir.operations[0]!.parameters.header.map((p) => [p.name, p.required])).toEqual([["If-Match", true]]);
  });
});

describe("build-ir: responses", () => {
  it("keys responses by status with media kind, media type, schema and headers", async () => {
    const ir = await given({
      "/v1/report": {
        get: {
          operationId: "get_report",
          responses: {
            "200": {
              description: "report",
              headers: { ETag: { schema: { type: "string" } } },
              content: {
                "text/markdown": { schema: { type: "string" } },
                "application/json": { schema: { type: "object" } },
              },
            },
            "304": { description: "unchanged", headers: { ETag: { required: true, schema: { type: "string" } } } },
            "404": ok(),
          },
        },
      },
      "/v1/blob": {
        get: {
          operationId: "get_blob",
          responses: {
            "200": {
              description: "bytes",
              content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
            },
          },
        },
      },
      "/v1/text": {
        get: {
          operationId: "get_text",
          responses: {
            "200": { description: "text", content: { "text/plain; charset=utf-8": { schema: { type: "string" } } } },
          },
        },
      },
    });
    const [blob, report, text] = ir.operations;
    expect(report!.success).toMatchObject({
      status: 200,
      kind: "json",
      mediaType: "application/json",
      schema: { type: "object" },
    });
    expect(report!.success.media.map((m) => [m.mediaType, m.kind])).toEqual([
      ["text/markdown", "text"],
      ["application/json", "json"],
    ]);
    expect(report!.success.headers).toEqual([{ name: "ETag", required: false, schema: { type: "string" } }]);
    expect(report!.notModified).toMatchObject({ status: 304, kind: "none", mediaType: null, schema: null });
    expect(report!.successStatuses).toEqual([200]);
    expect(report!.errorStatuses).toEqual([404]);
    expect(blob!.success).toMatchObject({ kind: "binary", mediaType: "application/octet-stream", schema: null });
    expect(text!.success).toMatchObject({ kind: "text", mediaType: "text/plain; charset=utf-8" });
  });

  it("every declared 2xx is a success status; the primary is the lowest one besides the accepted status", async () => {
    const ir = await given({
      "/v1/runs": {
        post: {
          operationId: "create_run",
          responses: { "202": ok({ type: "object" }), "200": ok({ type: "string" }), "205": { description: "reset" } },
        },
      },
    });
    const [op] = ir.operations;
    expect(op!.successStatuses).toEqual([200, 202, 205]);
    expect(op!.successResponses.map((r) => [r.status, r.kind])).toEqual([
      [200, "json"],
      [202, "json"],
      [205, "none"],
    ]);
    expect(op!.success.status).toBe(200);
    expect(op!.notModified).toBeNull();
  });
});

describe("build-ir: tags and security", () => {
  it("keeps tags; an operation's security overrides the document's, an empty list means none", async () => {
    const ir = await given(
      {
        "/a": { get: { operationId: "a", tags: ["health"], security: [], responses: { "200": ok() } } },
        "/b": { get: { operationId: "b", responses: { "200": ok() } } },
        "/c": { get: { operationId: "c", security: [{ TargetAuth: [] }], responses: { "200": ok() } } },
      },
      {
        security: [{ BearerAuth: [] }, {}],
        components: {
          securitySchemes: {
            BearerAuth: { type: "http", scheme: "bearer" },
            TargetAuth: { type: "http", scheme: "bearer" },
          },
        },
      },
    );
    const [a, b, c] = ir.operations;
    expect(a!.tags).toEqual(["health"]);
    expect(a!.security).toEqual([]);
    expect(b!.security).toEqual([{ BearerAuth: [] }, {}]);
    expect(c!.security).toEqual([{ TargetAuth: [] }]);
    expect(ir.securitySchemes).toEqual(["BearerAuth", "TargetAuth"]);
  });
});

describe("loader: numeric bounds and OpenAPI 3.1", () => {
  it("a 3.0 document with numeric exclusive bounds loads with a warning and the numeric meaning", async () => {
    const document = {
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      paths: { "/a": { get: { operationId: "a", responses: { "200": ok({ $ref: "#/components/schemas/Budget" }) } } } },
      components: {
        schemas: {
          Budget: {
            type: "object",
            properties: { seconds: { type: "number", exclusiveMinimum: 1, maximum: 10, exclusiveMaximum: 20 } },
          },
        },
      },
    };
    const spec = await loadSpecText(JSON.stringify(document), "spec.json", { lint: "upstream" });
    expect(spec.warnings.map((w) => w.pointer)).toEqual([
      "/components/schemas/Budget/properties/seconds/exclusiveMinimum",
      "/components/schemas/Budget/properties/seconds/exclusiveMaximum",
    ]);
    const seconds = (spec.document as Json).components.schemas.Budget.properties.seconds;
    expect(seconds).toEqual({ type: "number", minimum: 1, exclusiveMinimum: true, maximum: 10 });
  });

  it("a 3.1 document loads: type arrays with null, const, examples, numeric bounds", async () => {
    const ir = await given(
      { "/a": { get: { operationId: "a", responses: { "200": ok({ $ref: "#/components/schemas/Item" }) } } } },
      {
        components: {
          schemas: {
            Item: {
              type: "object",
              properties: {
                name: { type: ["string", "null"], examples: ["x"] },
                kind: { const: "item" },
                size: { type: "integer", exclusiveMinimum: 0 },
                either: { type: ["string", "integer"] },
              },
            },
          },
        },
      },
      "3.1.0",
    );
    const item = ir.schemas.find((s) => s.name === "Item")!.schema as Json;
    expect(item.properties.name).toEqual({ type: "string", nullable: true, examples: ["x"] });
    expect(item.properties.kind).toEqual({ enum: ["item"] });
    expect(item.properties.size).toEqual({ type: "integer", minimum: 0, exclusiveMinimum: true });
    expect(item.properties.either).toEqual({ anyOf: [{ type: "string" }, { type: "integer" }] });
    expect(ir.openapiVersion).toBe("3.1.0");
  });

  it("a 3.1 document that breaks the 3.1 schema is refused with its pointer", async () => {
    const document = { openapi: "3.1.0", info: { title: 5, version: "1" }, paths: {} };
    await expect(loadSpecText(JSON.stringify(document), "spec.json", { lint: "upstream" })).rejects.toMatchObject({
      pointer: "/info/title",
    });
  });
});

describe("build-ir: x-powercontext-not-served", () => {
  const notFound = { description: "missing", content: { "application/json": { schema: { type: "object" } } } };
  const listing = (notServed: unknown, responses: Json = { "200": ok(), "404": notFound }) => ({
    "/v1/operations": { get: { operationId: "list_operations", "x-powercontext-not-served": notServed, responses } },
  });

  it("carries the status and the sentence into the IR; an operation without it has null", async () => {
    const ir = await given({
      ...listing({ status: 404, message: "this server has no Operation API" }),
      "/v1/x": { get: { operationId: "get_x", responses: { "200": ok() } } },
    });
    expect(ir.operations.find((op) => op.operationId === "list_operations")!.notServed).toEqual({
      status: 404,
      message: "this server has no Operation API",
    });
    expect(ir.operations.find((op) => op.operationId === "get_x")!.notServed).toBeNull();
  });

  it.each([
    ["a status other than 404", { status: 410, message: "gone" }, undefined],
    ["an empty sentence", { status: 404, message: " " }, undefined],
    ["a bare string", "no Operation API", undefined],
    ["an undeclared 404", { status: 404, message: "no Operation API" }, { "200": ok() }],
    ["an unknown member", { status: 404, message: "no Operation API", statsu: 410 }, undefined],
  ])("refuses %s, naming the pointer", async (_, value, responses) => {
    const failure = await given(listing(value, responses)).catch((e: unknown) => e);
    expect(String((failure as Error).message)).toContain("/paths/~1v1~1operations/get/x-powercontext-not-served");
  });
});
