import { describe, expect, it } from "vitest";
import { camelCase, pascalCase } from "../../src/ir/naming.js";
import { commentLine, docComment, docLine, mswPath, propertyKey, tsString } from "../../src/emit/ts/syntax.js";
import { toJsonSchema } from "../../src/ir/json-schema.js";

describe("naming", () => {
  it.each([
    ["flush_memory", "flushMemory", "FlushMemory"],
    ["get_topic_memory_processing_status", "getTopicMemoryProcessingStatus", "GetTopicMemoryProcessingStatus"],
    ["get-thing.v2", "getThingV2", "GetThingV2"],
    ["listHTTPThings", "listHTTPThings", "ListHTTPThings"],
    ["2fa_enable", "_2faEnable", "_2faEnable"],
  ])("%s -> %s / %s", (given, camel, pascal) => {
    expect(camelCase(given)).toBe(camel);
    expect(pascalCase(given)).toBe(pascal);
  });

  it("quotes keys that are not identifiers", () => {
    expect([propertyKey("scope_id"), propertyKey("a-b"), propertyKey("中文")]).toEqual(["scope_id", '"a-b"', '"中文"']);
  });

  it("keeps comment terminators inside doc comments", () => {
    expect(docComment(["ends */ here", "", "中文"])).toBe("/**\n * ends *\\/ here\n *\n * 中文\n */\n");
  });

  it("escapes in comments what ends a line or reorders text, and keeps line breaks only as comment lines", () => {
    expect(docComment(["a\u2028b\u2029c\u202ed", "e\r\nf\rg"])).toBe(
      "/**\n * a\\u2028b\\u2029c\\u202ed\n * e\n * f\n * g\n */\n",
    );
    expect(docLine("a */ b\nc\u2028")).toBe("/** a *\\/ b\\nc\\u2028 */\n");
    expect(commentLine("x\u0000\u001b\u0085")).toBe("x\\u0000\\u001b\\u0085");
  });

  it("writes string literals that no line terminator or quote can end", () => {
    for (const value of ['"', "\\", "\n", "\u2028", "\u2029", "\ud800", "</script>", "${x}"]) {
      const literal = tsString(value);
      expect(literal).not.toMatch(/[\n\r\u2028\u2029]/);
      expect(JSON.parse(literal)).toBe(value);
    }
  });

  it("converts path templates for msw", () => {
    expect(mswPath("/v1/operations/{operation_id}/cancel")).toBe("/v1/operations/:operation_id/cancel");
  });
});

describe("OpenAPI 3.0 schema -> JSON Schema", () => {
  const refTo = (name: string) => `#/definitions/${name}`;
  const lookup = () => undefined;
  it.each<[string, unknown, "request" | "response", unknown]>([
    ["nullable scalar", { type: "string", nullable: true }, "response", { type: ["string", "null"] }],
    [
      "nullable enum",
      { type: "string", enum: ["a"], nullable: true },
      "response",
      { type: ["string", "null"], enum: ["a", null] },
    ],
    [
      "nullable beside $ref",
      { nullable: true, allOf: [{ $ref: "#/components/schemas/A" }] },
      "response",
      { anyOf: [{ allOf: [{ $ref: "#/definitions/A" }] }, { type: "null" }] },
    ],
    [
      "int64 bounded to safe integers",
      { type: "integer", format: "int64" },
      "response",
      { type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 },
    ],
    [
      "huge maximum clamped",
      { type: "integer", minimum: 0, maximum: 18446744073709551615 },
      "response",
      { type: "integer", minimum: 0, maximum: 9007199254740991 },
    ],
    [
      "boolean exclusive bounds",
      { type: "number", minimum: 0, exclusiveMinimum: true },
      "response",
      { type: "number", exclusiveMinimum: 0 },
    ],
    [
      "readOnly neither required nor allowed in requests",
      {
        type: "object",
        required: ["id", "n"],
        properties: { id: { type: "string", readOnly: true }, n: { type: "string" } },
      },
      "request",
      { type: "object", required: ["n"], properties: { id: false, n: { type: "string" } } },
    ],
    [
      "writeOnly not required in responses",
      { type: "object", required: ["pw"], properties: { pw: { type: "string", writeOnly: true } } },
      "response",
      { type: "object", properties: { pw: { type: "string" } } },
    ],
    [
      "annotations dropped",
      { type: "string", example: "x", description: "d", "x-foo": 1, default: "a" },
      "response",
      { type: "string" },
    ],
  ])("%s", (_, given, mode, want) => {
    expect(toJsonSchema(given, mode, refTo, lookup)).toEqual(want);
  });

  it("turns a discriminator into if/then per mapped value", () => {
    const got = toJsonSchema(
      {
        oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }],
        discriminator: { propertyName: "kind", mapping: { cat: "#/components/schemas/Cat" } },
      },
      "response",
      refTo,
      lookup,
    );
    expect(got).toEqual({
      type: "object",
      required: ["kind"],
      properties: { kind: { enum: ["cat", "Dog"] } },
      allOf: [
        { if: { properties: { kind: { const: "cat" } } }, then: { $ref: "#/definitions/Cat" } },
        { if: { properties: { kind: { const: "Dog" } } }, then: { $ref: "#/definitions/Dog" } },
      ],
    });
  });
});
