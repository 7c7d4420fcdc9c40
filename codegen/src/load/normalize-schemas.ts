import { SpecError, pointer } from "../errors.js";
import type { Json } from "./walk-operations.js";

/** Members whose value is a map of named objects, not a schema itself. */
const MAPS = new Set([
  "properties", "patternProperties", "schemas", "$defs", "definitions", "dependentSchemas", "paths", "headers", "content",
  "responses", "securitySchemes", "callbacks", "links", "requestBodies", "parameters", "pathItems", "webhooks", "encoding",
]);
/** Members holding instance data (or vendor data), never schemas. */
const DATA = new Set(["example", "examples", "enum", "const", "default"]);

/**
 * Brings the Schema Objects of a document into the one form the IR and the
 * emitters read (OpenAPI 3.0 style), in place:
 *
 * - numeric `exclusiveMinimum` / `exclusiveMaximum` (the JSON Schema 2019+ form that
 *   OpenAPI 3.1 uses) become `minimum` / `maximum` with the boolean flag, keeping
 *   their numeric meaning ("greater than n"); in a 3.0 document each one is also
 *   reported as a warning, since 3.0 defines only the boolean form;
 * - in a 3.1 document, `type` arrays (and `type: "null"`) become `nullable: true`
 *   plus one type (several types become an `anyOf` of them), and `const` becomes a
 *   one-value `enum`. `examples` arrays stay as they are (they only annotate).
 *
 * Runs before the OpenAPI schema check, so that a 3.0 document using the numeric
 * bounds passes it.
 *
 * @returns warnings, each naming the JSON pointer of the rewritten keyword
 */
export function normalizeSchemas(document: Json): SpecError[] {
  const warnings: SpecError[] = [];
  const is31 = typeof document.openapi === "string" && document.openapi.startsWith("3.1");
  const walk = (node: unknown, path: (string | number)[], isMap: boolean): void => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, [...path, index], false));
      return;
    }
    if (node === null || typeof node !== "object") return;
    const object = node as Json;
    if (!isMap) rewrite(object, path, is31, warnings);
    for (const [key, value] of Object.entries(object)) {
      if (!isMap && (key.startsWith("x-") || DATA.has(key))) continue;
      walk(value, [...path, key], !isMap && MAPS.has(key));
    }
  };
  walk(document, [], false);
  return warnings;
}

function rewrite(schema: Json, path: (string | number)[], is31: boolean, warnings: SpecError[]): void {
  for (const [exclusive, bound, stricter] of [
    ["exclusiveMinimum", "minimum", (a: number, b: number) => a > b],
    ["exclusiveMaximum", "maximum", (a: number, b: number) => a < b],
  ] as const) {
    const value = schema[exclusive];
    if (typeof value !== "number") continue;
    if (!is31) {
      warnings.push(new SpecError("invalid_openapi", { pointer: pointer(...path, exclusive) }, `numeric ${exclusive} is the OpenAPI 3.1 form; read with its numeric meaning (${bound === "minimum" ? ">" : "<"} ${value})`));
    }
    const inclusive = schema[bound];
    if (typeof inclusive === "number" && stricter(inclusive, value)) {
      delete schema[exclusive]; // the inclusive bound already excludes the value
    } else {
      schema[bound] = value;
      schema[exclusive] = true;
    }
  }
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
      if (Array.isArray(schema.anyOf)) schema.allOf = [...(Array.isArray(schema.allOf) ? schema.allOf : []), { anyOf: alternatives }];
      else schema.anyOf = alternatives;
    }
  }
  if ("const" in schema) {
    if (!Array.isArray(schema.enum)) schema.enum = [schema.const];
    delete schema.const;
  }
}
