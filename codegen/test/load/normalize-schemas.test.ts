import { describe, expect, it } from "vitest";
import type { Json } from "../../src/domain/types.js";
import { loadSpecText } from "../../src/load/load-spec.js";
import { normalizeSchemas } from "../../src/load/normalize-schemas.js";
import { readYaml } from "../../src/load/read-yaml.js";
import { resolveRefs } from "../../src/load/resolve-refs.js";

const SPEC = `openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Plain:
      type: object
      properties:
        name: {type: string}
    Pet:
      oneOf:
        - $ref: "#/components/schemas/Cat"
      discriminator: {propertyName: kind}
    Cat:
      type: object
      required: [kind]
      properties:
        kind: {type: string, enum: [cat]}
    Holder:
      type: object
      properties:
        owner: &nullableRef {$ref: "#/components/schemas/Plain", nullable: true}
        previous: *nullableRef
        count: {type: integer, exclusiveMinimum: 0}
`;

async function normalized(text: string) {
  const document = readYaml(text) as Json;
  const before = JSON.stringify(document);
  const result = normalizeSchemas(document, await resolveRefs(document));
  return { document, before, result };
}

describe("normalizeSchemas", () => {
  it("leaves its input as it is and returns the rewrites in a copy", async () => {
    const { document, before, result } = await normalized(SPEC);
    expect(JSON.stringify(document)).toBe(before);
    const schemas = (result.document.components as Json).schemas as Record<string, Json>;
    const holder = schemas.Holder?.properties as Record<string, Json>;
    expect(holder.owner).toEqual({ allOf: [{ $ref: "#/components/schemas/Plain" }], nullable: true });
    expect(holder.count).toEqual({ type: "integer", minimum: 0, exclusiveMinimum: true });
    expect(schemas.Pet?.discriminator).toEqual({
      propertyName: "kind",
      mapping: { cat: "#/components/schemas/Cat" },
    });
    expect(result.warnings.map((w) => w.pointer)).toEqual([
      "/components/schemas/Holder/properties/count/exclusiveMinimum",
    ]);
  });

  it("shares every part that did not change with its input, and copies only the path to what did", async () => {
    const { document, result } = await normalized(SPEC);
    const before = (document.components as Json).schemas as Record<string, Json>;
    const after = (result.document.components as Json).schemas as Record<string, Json>;
    expect(result.document).not.toBe(document);
    expect(result.document.paths).toBe(document.paths);
    expect(result.document.info).toBe(document.info);
    expect(after.Plain).toBe(before.Plain);
    expect(after.Cat).toBe(before.Cat);
    expect(after.Holder).not.toBe(before.Holder);
  });

  it("returns the input itself when nothing needs rewriting", async () => {
    const { document, result } = await normalized(
      "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents: {schemas: {A: {type: string}}}\n",
    );
    expect(result.document).toBe(document);
    expect(result.warnings).toEqual([]);
  });

  it("gives a changed node met twice (a YAML alias) one copy, shared where the input shared it", async () => {
    const { result } = await normalized(SPEC);
    const holder = (((result.document.components as Json).schemas as Json).Holder as Json).properties as Json;
    expect(holder.owner).toBe(holder.previous);
  });

  it("keeps a member named __proto__ an own member on a copied path", async () => {
    const document = JSON.parse(
      '{"openapi":"3.0.3","components":{"schemas":{"__proto__":{"$ref":"#/components/schemas/B","nullable":true},"B":{"type":"string"}}}}',
    ) as Json;
    const result = normalizeSchemas(document, await resolveRefs(document));
    const schemas = (result.document.components as Json).schemas as Json;
    expect(Object.getPrototypeOf(schemas)).toBe(Object.prototype);
    expect(Object.keys(schemas)).toEqual(["__proto__", "B"]);
    expect(Object.getOwnPropertyDescriptor(schemas, "__proto__")?.value).toEqual({
      allOf: [{ $ref: "#/components/schemas/B" }],
      nullable: true,
    });
  });
});

describe("loadSpecText", () => {
  it("keeps the document as written beside the normalized one, and its lookup finds normalized targets", async () => {
    const spec = await loadSpecText(SPEC, "spec.yaml", { lint: "upstream" });
    expect(spec.written).toStrictEqual(readYaml(SPEC));
    const holder = spec.lookup("#/components/schemas/Holder") as Json;
    expect((holder.properties as Json).owner).toEqual({
      allOf: [{ $ref: "#/components/schemas/Plain" }],
      nullable: true,
    });
    expect(holder).toBe(((spec.document.components as Json).schemas as Json).Holder);
  });
});
