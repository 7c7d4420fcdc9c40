import type { Json, RefLookup } from "../domain/types.js";
import { SpecError } from "../errors.js";
import { step, trailPointer, type Trail } from "./trail.js";
import { deref, refOf, schemaRefName } from "./walk-operations.js";

/** Members whose value is a map of named objects, not a schema itself. */
const MAPS = new Set([
  "properties",
  "patternProperties",
  "schemas",
  "$defs",
  "definitions",
  "dependentSchemas",
  "paths",
  "headers",
  "content",
  "responses",
  "securitySchemes",
  "callbacks",
  "links",
  "requestBodies",
  "parameters",
  "pathItems",
  "webhooks",
  "encoding",
]);
/** Members holding instance data (or vendor data), never schemas. */
const DATA = new Set(["example", "examples", "enum", "const", "default"]);

/**
 * Brings the Schema Objects of a document into the one form the IR and the
 * emitters read (OpenAPI 3.0 style). The document is left as it is: what changes
 * is copied, with the path down to it, and the result shares every other part
 * with the input (so the document as written needs no copy of its own):
 *
 * - numeric `exclusiveMinimum` / `exclusiveMaximum` (the JSON Schema 2019+ form that
 *   OpenAPI 3.1 uses) become `minimum` / `maximum` with the boolean flag, keeping
 *   their numeric meaning ("greater than n"); in a 3.0 document each one is also
 *   reported as a warning, since 3.0 defines only the boolean form;
 * - in a 3.1 document, `type` arrays (and `type: "null"`) become `nullable: true`
 *   plus one type (several types become an `anyOf` of them), and `const` becomes a
 *   one-value `enum`. `examples` arrays stay as they are (they only annotate);
 * - `nullable: true` beside a `$ref` means "the referenced schema or null"
 *   (ADR 0001): it becomes `allOf: [{$ref}]` with `nullable: true`, the form every
 *   emitter reads that way;
 * - a `discriminator` of a `oneOf`/`anyOf` gets an explicit `mapping` for every
 *   `$ref` alternative it does not map: the values the variant's own discriminator
 *   property allows (`enum`), else the component name (OpenAPI's implicit value),
 *   so no emitter derives a value that contradicts the variant.
 *
 * Runs before the OpenAPI schema check, so that a 3.0 document using the numeric
 * bounds passes it.
 *
 * @returns the normalized document, and warnings, each naming the JSON pointer of the rewritten keyword
 */
export function normalizeSchemas(document: Json, lookup: RefLookup): Normalized {
  const warnings: SpecError[] = [];
  const is31 = typeof document.openapi === "string" && document.openapi.startsWith("3.1");
  // A changed node met again (a YAML alias) gets the copy it got the first time, so shared parts stay shared.
  const copies = [new Map<object, unknown>(), new Map<object, unknown>()];
  const walk = (node: object, trail: Trail | undefined, isMap: boolean): unknown => {
    const copy = (copies[isMap ? 1 : 0] as Map<object, unknown>).get(node);
    if (copy !== undefined) return copy;
    let result: object = node;
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index += 1) {
        const item: unknown = node[index];
        if (item === null || typeof item !== "object") continue;
        const changed = walk(item, step(trail, index), false);
        if (changed === item) continue;
        if (result === node) result = node.slice();
        (result as unknown[])[index] = changed;
      }
    } else {
      let object = node as Json;
      if (!isMap) {
        if (rewrites(object, is31)) {
          object = { ...object };
          rewrite(object, trail, is31, warnings);
        }
        const discriminator = object.discriminator;
        if (isObject(discriminator)) {
          const mapping = completeMapping(object, discriminator, lookup);
          if (mapping !== undefined) object = { ...object, discriminator: { ...discriminator, mapping } };
        }
      }
      for (const key of Object.keys(object)) {
        if (!isMap && (key.startsWith("x-") || DATA.has(key))) continue;
        const value = object[key];
        if (value === null || typeof value !== "object") continue;
        const changed = walk(value, step(trail, key), !isMap && MAPS.has(key));
        if (changed === value) continue;
        if (object === node) object = { ...object };
        // Defined, not assigned: a member named `__proto__` stays a member.
        Object.defineProperty(object, key, { value: changed, writable: true, enumerable: true, configurable: true });
      }
      result = object;
    }
    if (result !== node) (copies[isMap ? 1 : 0] as Map<object, unknown>).set(node, result);
    return result;
  };
  return { document: walk(document, undefined, false) as Json, warnings };
}

/** What {@link normalizeSchemas} returns. */
export interface Normalized {
  /** The document in the normal form: the input itself when nothing changed, else a copy sharing every part that did not. */
  readonly document: Json;
  /** One per rewritten keyword of a 3.0 document that 3.0 does not define, at its JSON pointer. */
  readonly warnings: SpecError[];
}

/** Whether {@link rewrite} changes `schema`. */
function rewrites(schema: Json, is31: boolean): boolean {
  return (
    typeof schema.exclusiveMinimum === "number" ||
    typeof schema.exclusiveMaximum === "number" ||
    (typeof schema.$ref === "string" && schema.nullable === true) ||
    (is31 && (Array.isArray(schema.type) || schema.type === "null" || "const" in schema))
  );
}

/** The numeric exclusive bounds, their inclusive keyword, and "the inclusive bound is already stricter". */
const EXCLUSIVE_BOUNDS = [
  ["exclusiveMinimum", "minimum", (a: number, b: number) => a > b],
  ["exclusiveMaximum", "maximum", (a: number, b: number) => a < b],
] as const;

function rewrite(schema: Json, trail: Trail | undefined, is31: boolean, warnings: SpecError[]): void {
  for (const [exclusive, bound, stricter] of EXCLUSIVE_BOUNDS) {
    const value = schema[exclusive];
    if (typeof value !== "number") continue;
    if (!is31) {
      warnings.push(
        new SpecError(
          "invalid_openapi",
          { pointer: trailPointer(step(trail, exclusive)) },
          `numeric ${exclusive} is the OpenAPI 3.1 form; read with its numeric meaning (${bound === "minimum" ? ">" : "<"} ${value})`,
        ),
      );
    }
    const inclusive = schema[bound];
    if (typeof inclusive === "number" && stricter(inclusive, value)) {
      delete schema[exclusive]; // the inclusive bound already excludes the value
    } else {
      schema[bound] = value;
      schema[exclusive] = true;
    }
  }
  rewriteNullableRef(schema);
  if (!is31) return;
  if (Array.isArray(schema.type) || schema.type === "null") {
    const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).map(String);
    const others = types.filter((t) => t !== "null");
    if (others.length < types.length) schema.nullable = true;
    delete schema.type;
    if (others.length === 1) schema.type = others[0];
    else if (others.length === 0) schema.enum = [null];
    else {
      const alternatives = others.map((type) => ({ type }));
      if (Array.isArray(schema.anyOf))
        schema.allOf = [...(Array.isArray(schema.allOf) ? schema.allOf : []), { anyOf: alternatives }];
      else schema.anyOf = alternatives;
    }
  }
  if ("const" in schema) {
    if (!Array.isArray(schema.enum)) schema.enum = [schema.const];
    delete schema.const;
  }
}

function rewriteNullableRef(schema: Json): void {
  if (typeof schema.$ref !== "string" || schema.nullable !== true) return;
  const target = schema.$ref;
  delete schema.$ref;
  schema.allOf = [{ $ref: target }, ...(Array.isArray(schema.allOf) ? schema.allOf : [])];
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The discriminator's `mapping` with every `$ref` alternative it leaves out added; undefined when it has no alternatives to map. */
function completeMapping(schema: Json, discriminator: Json, lookup: RefLookup): Record<string, string> | undefined {
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (typeof discriminator.propertyName !== "string" || !Array.isArray(alternatives)) return undefined;
  const mapping: Record<string, string> = {
    ...((isObject(discriminator.mapping) ? discriminator.mapping : {}) as Record<string, string>),
  };
  const mapped = new Set(Object.values(mapping));
  for (const alternative of alternatives) {
    const ref = refOf(alternative);
    const name = schemaRefName(alternative);
    if (ref === undefined || name === undefined || mapped.has(ref) || mapped.has(name)) continue;
    const allowed = allowedValues(alternative, discriminator.propertyName, lookup, 0);
    for (const value of allowed ?? [name]) if (!(value in mapping)) mapping[value] = ref;
  }
  return mapping;
}

/** The string values a variant's discriminator property allows (its `enum`, through `$ref` and `allOf`), or undefined when it does not say. */
function allowedValues(node: unknown, property: string, lookup: RefLookup, depth: number): string[] | undefined {
  const schema = deref(node, lookup);
  if (!isObject(schema) || depth > 16) return undefined;
  const own = deref((schema.properties as Json | undefined)?.[property], lookup);
  if (isObject(own)) {
    const values = Array.isArray(own.enum) ? own.enum : "const" in own ? [own.const] : undefined;
    if (values !== undefined) return values.filter((v): v is string => typeof v === "string");
  }
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) {
    const found = allowedValues(part, property, lookup, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The extension prefix the IR reads. */
export const CANONICAL_PREFIX = "x-powercontext-";

/**
 * Lets a spec use its own vendor prefix for our extensions (`x-acme-retry-class`
 * for `x-powercontext-retry-class`): renames every member starting with `prefix`
 * to the canonical prefix, in place. A no-op for the canonical prefix.
 */
export function renameExtensions(document: unknown, prefix: string): void {
  if (prefix === CANONICAL_PREFIX) return;
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(walk);
      return;
    }
    if (node === null || typeof node !== "object") return;
    const object = node as Json;
    for (const key of Object.keys(object)) {
      const value = object[key];
      if (key.startsWith(prefix)) {
        delete object[key];
        object[CANONICAL_PREFIX + key.slice(prefix.length)] = value;
      }
      if (!DATA.has(key)) walk(value);
    }
  };
  walk(document);
}
