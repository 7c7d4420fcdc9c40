import { createRequire } from "node:module";

/**
 * The one schema of the `x-powercontext-*` extensions
 * (`codegen/schema/extensions.schema.json`): the loader checks extensions against
 * it, the IR reads them through it (`read-fact.ts`), and the facts' TypeScript types
 * and the reference in docs/extensions.md are generated from it
 * (docs/adr/0025-one-schema-for-the-contract-facts.md).
 */

/** A JSON Schema object of the extension schema, annotations (`x-*`) included. */
export type FactSchema = { readonly [keyword: string]: unknown };

/** Where an extension stands in an OpenAPI document: each is a definition of the schema listing the extensions it may carry. */
export const FACT_PLACES = ["document", "operation", "response", "schema"] as const;

/** One of {@link FACT_PLACES}. */
export type FactPlace = (typeof FACT_PLACES)[number];

const require = createRequire(import.meta.url);

/** The schema as read from the package (`schema/` beside `src/` and `dist/`). */
export const EXTENSIONS_SCHEMA = require("../../schema/extensions.schema.json") as FactSchema & {
  readonly $defs: { readonly [name: string]: FactSchema };
};

/** The path of the schema file inside the repository, as generated files name it. */
export const EXTENSIONS_SCHEMA_PATH = "codegen/schema/extensions.schema.json";

/**
 * A definition of the schema by name (`resource-use`).
 * @throws {Error} when the schema has no such definition (a generator defect)
 */
export function factDefinition(name: string): FactSchema {
  const definition = EXTENSIONS_SCHEMA.$defs[name];
  if (definition === undefined) throw new Error(`extensions.schema.json has no definition ${name}`);
  return definition;
}

/** The definition a local `$ref` (`#/$defs/<name>`) points at, or undefined for another value. */
export function referenced(schema: FactSchema): { readonly name: string; readonly definition: FactSchema } | undefined {
  const ref = schema.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/$defs/")) return undefined;
  const name = ref.slice("#/$defs/".length);
  return { name, definition: factDefinition(name) };
}

/** The extensions a place may carry, by name, each with its schema. */
export function placeExtensions(place: FactPlace): [string, FactSchema][] {
  return Object.entries((factDefinition(place).properties ?? {}) as Record<string, FactSchema>);
}

/**
 * True when a subschema says what a value is (a type, members, a constant, a choice or a
 * reference), false when it only constrains one (`{ required: [...] }`, `if`/`then`):
 * the readers and the type emitter follow the first kind of `allOf`, `oneOf` and `anyOf`
 * parts and leave the second to the loader's check.
 */
export function isShape(schema: FactSchema): boolean {
  return ["$ref", "type", "properties", "const", "enum", "items", "oneOf", "allOf", "additionalProperties"].some(
    (keyword) => schema[keyword] !== undefined,
  );
}

/**
 * The parts of `allOf` (or `oneOf`, `anyOf`) that are shapes ({@link isShape}); none when it
 * has no such keyword. Under a schema that has a type or members of its own, a part without
 * a type, constant or reference of its own only narrows those members: not a shape.
 */
export function shapeParts(schema: FactSchema, keyword: "allOf" | "oneOf" | "anyOf"): FactSchema[] {
  const parts = schema[keyword];
  if (!Array.isArray(parts)) return [];
  const typed = schema.type !== undefined || schema.properties !== undefined;
  const ownShape = (part: FactSchema) => ["$ref", "type", "const", "enum"].some((k) => part[k] !== undefined);
  return (parts as FactSchema[]).filter((part) => isShape(part) && (!typed || ownShape(part)));
}
