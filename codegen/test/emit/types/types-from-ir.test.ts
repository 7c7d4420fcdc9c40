import { describe, expect, it } from "vitest";
import { generateFromText } from "../../../src/pipeline.js";
import { OUTPUT_PATHS } from "../../helpers/paths.js";
import { typecheck } from "../../helpers/typecheck.js";

// The types emitter's own decisions (docs/adr/0019-types-from-the-ir.md), each
// asserted by the TypeScript compiler: every line must compile, every
// `@ts-expect-error` line must fail.
const json = (schema: unknown) => ({ "application/json": { schema } });
const spec = {
  openapi: "3.1.0",
  info: { title: "t", version: "1" },
  paths: {
    "/things/{thing_id}": {
      parameters: [{ name: "thing_id", in: "path", required: true, schema: { type: "string" } }],
      get: {
        operationId: "get_thing",
        responses: {
          "200": {
            description: "ok",
            headers: {
              ETag: { required: true, schema: { type: "string" } },
              Location: { schema: { type: "string", format: "uri-reference" } },
              "Retry-After": { schema: { type: "integer" } },
            },
            content: json({ $ref: "#/components/schemas/Thing" }),
          },
          "304": { description: "not modified", headers: { ETag: { required: true, schema: { type: "string" } } } },
        },
      },
      put: {
        operationId: "put_thing",
        requestBody: { required: true, content: json({ $ref: "#/components/schemas/Thing" }) },
        responses: { "200": { description: "ok", content: json({ $ref: "#/components/schemas/Thing" }) } },
      },
    },
    "/pets": {
      get: {
        operationId: "get_pet",
        responses: { "200": { description: "ok", content: json({ $ref: "#/components/schemas/Pet" }) } },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: "object",
        required: ["id", "name", "meta", "kind"],
        properties: {
          id: { type: "string", readOnly: true },
          secret: { type: "string", writeOnly: true },
          name: { type: ["string", "null"] },
          kind: { const: "thing" },
          meta: { type: "object", description: "Free-form." },
          point: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: { type: "string" } },
          blob: { type: "string", contentMediaType: "image/png", contentEncoding: "base64" },
          nested: { $ref: "#/components/schemas/Thing/$defs/Inner" },
        },
        $defs: { Inner: { type: "object", required: ["x"], properties: { x: { type: "integer" } } } },
      },
      Pet: {
        oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }],
        discriminator: {
          propertyName: "kind",
          mapping: { cat: "#/components/schemas/Cat", dog: "#/components/schemas/Dog" },
        },
      },
      Cat: {
        type: "object",
        required: ["kind"],
        properties: { kind: { type: "string", enum: ["cat", "kitten"] }, meows: { type: "boolean" } },
      },
      Dog: {
        type: "object",
        required: ["kind", "barks"],
        properties: { kind: { type: "string" }, barks: { type: "integer" } },
      },
    },
  },
};

const ASSERTIONS = `
import type { Pet, Thing, ThingWritable, operations } from "@powercontext/types";
import type { RequestOf, ResponseOf } from "./generated/operations.js";

// A free-form object is an open record, as its validator accepts.
export const meta: Thing["meta"] = { a: 1, b: [true], c: { d: null } };

// readOnly members stay out of requests, writeOnly members out of responses.
export const read: Thing = { id: "1", name: null, kind: "thing", meta: {}, point: [1, 2, "a", "b"], blob: "iVBOR", nested: { x: 1 } };
// @ts-expect-error a response never carries the writeOnly secret
export const readSecret: Thing = { id: "1", name: null, kind: "thing", meta: {}, secret: "s" };
export const put: RequestOf<"put_thing"> = { thing_id: "t", name: "n", kind: "thing", meta: {}, secret: "s" };
// @ts-expect-error a request never carries the readOnly id
export const putId: RequestOf<"put_thing"> = { thing_id: "t", id: "1", name: "n", kind: "thing", meta: {} };
export const written: ThingWritable = { name: null, kind: "thing", meta: {} };

// OpenAPI 3.1: type arrays, const, prefixItems with items as the rest, $defs, contentMediaType strings.
export const noName: Thing["name"] = null;
// @ts-expect-error const is a literal
export const otherKind: Thing["kind"] = "other";
// @ts-expect-error the prefix items are numbers
export const badPoint: Thing["point"] = ["1", 2];
export const nestedX: NonNullable<Thing["nested"]>["x"] = 1;
export const png: NonNullable<Thing["blob"]> = "iVBORw0KGgo=";

// Discriminated unions: each mapped type with its literal tag, matching the enums.
export function describePet(pet: Pet): string {
  if (pet.kind === "cat") return pet.meows === true ? "meows" : "quiet";
  pet.kind satisfies "dog";
  return String(pet.barks);
}
// @ts-expect-error kitten is in Cat's enum but not a tag of the mapping
export const kitten: Pet = { kind: "kitten" };
// @ts-expect-error a dog's tag is dog
export const wrongTag: Pet = { kind: "cat", barks: 1 };

// Response headers are typed per status where declared.
type Headers200 = operations["get_thing"]["responses"]["200"]["headers"];
export const etag: Headers200["ETag"] = "W/1";
export const location: NonNullable<Headers200["Location"]> = "/things/1";
export const retryAfter: NonNullable<Headers200["Retry-After"]> = 5;
// @ts-expect-error Retry-After is an integer here
export const retryText: NonNullable<Headers200["Retry-After"]> = "5";
// @ts-expect-error ETag is required on 200
export const noEtag: Headers200 = {};
export const notModified: operations["get_thing"]["responses"]["304"]["headers"]["ETag"] = "W/1";

export const result: ResponseOf<"get_thing"> = { status: 304, body: undefined, headers: new Headers() };
`;

describe("types from the IR", async () => {
  const generated = await generateFromText(JSON.stringify(spec), "spec.json", { lint: "upstream" });
  const types = generated.files.get(OUTPUT_PATHS.types)!;

  it("writes one named type per schema, with its TSDoc, and a request type where readOnly members differ", () => {
    expect(types).toMatch(/export type Thing = \{/);
    expect(types).toMatch(/export type ThingWritable = \{/);
    expect(types).toMatch(/export type Pet = /);
    expect(types).toContain("     * Free-form.\n");
    expect(types).not.toContain("Record<string, never>");
  });

  it("means what the schemas mean, by the compiler", { timeout: 120_000 }, () => {
    expect(typecheck(generated.files, { "packages/sdk/src/assertions.ts": ASSERTIONS }).errors).toEqual([]);
  });
});
