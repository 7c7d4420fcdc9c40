import { resolvePointer } from "./ref-policy.js";
import { step, trailPointer, type Trail } from "./trail.js";

/** One Schema Object of the document and where it was first met. */
export interface SchemaNode {
  readonly schema: Record<string, unknown>;
  readonly trail: Trail;
}

/** Keywords whose value is one sub-schema. */
const ONE = [
  "items",
  "not",
  "additionalProperties",
  "additionalItems",
  "contains",
  "propertyNames",
  "if",
  "then",
  "else",
  "unevaluatedItems",
  "unevaluatedProperties",
];
/** Keywords whose value is a list of sub-schemas. */
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
/** Keywords whose value maps names to sub-schemas. */
const MAP = ["properties", "patternProperties", "dependentSchemas", "definitions", "$defs"];
/** Members of OpenAPI objects that hold data, never Schema Objects. */
const DATA = new Set(["example", "examples", "default", "enum", "const"]);

/**
 * Every Schema Object of the document, each once (by identity): the members of
 * `components.schemas`, every `schema` member of the other OpenAPI objects
 * (parameters, headers, media types, at any depth), their sub-schemas (`properties`,
 * `items`, `allOf`, ...), and the target of every `$ref` met inside a schema, even
 * one outside those places. Data (`example`, `default`, `enum`, `x-*` extensions)
 * is not entered. Iterative.
 *
 * @param document - a document that passed the reference policy (`checkRefs`)
 * @param resolve - the target of a local reference, or undefined
 */
export function walkSchemas(
  document: unknown,
  resolve: (ref: string) => unknown = (ref) => resolvePointer(document, ref).value,
): SchemaNode[] {
  const found: SchemaNode[] = [];
  const seen = new Set<object>();
  const schemas: { node: unknown; trail: Trail }[] = [];
  const structure: { node: unknown; trail: Trail | undefined }[] = [{ node: document, trail: undefined }];
  for (let entry = structure.pop(); entry !== undefined; entry = structure.pop()) {
    const { node, trail } = entry;
    if (node === null || typeof node !== "object") continue;
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const value = record[key];
      if (value === null || typeof value !== "object" || key.startsWith("x-") || DATA.has(key)) continue;
      const child = step(trail, key);
      if (key === "schema") schemas.push({ node: value, trail: child });
      else if (trail !== undefined && trail.parent === undefined && trail.key === "components" && key === "schemas") {
        for (const [name, schema] of Object.entries(value)) schemas.push({ node: schema, trail: step(child, name) });
      } else structure.push({ node: value, trail: child });
    }
  }
  for (let entry = schemas.pop(); entry !== undefined; entry = schemas.pop()) {
    const { node, trail } = entry;
    if (!isObject(node) || seen.has(node)) continue;
    seen.add(node);
    found.push({ schema: node, trail });
    if (typeof node.$ref === "string" && node.$ref.startsWith("#")) {
      const target = resolve(node.$ref);
      if (isObject(target) && !seen.has(target)) schemas.push({ node: target, trail: refTrail(node.$ref) });
    }
    for (const key of ONE) if (isObject(node[key])) schemas.push({ node: node[key], trail: step(trail, key) });
    for (const key of LIST) {
      const list = node[key];
      if (!Array.isArray(list)) continue;
      const at = step(trail, key);
      for (let index = 0; index < list.length; index += 1) schemas.push({ node: list[index], trail: step(at, index) });
    }
    for (const key of MAP) {
      const map = node[key];
      if (isObject(map)) {
        const at = step(trail, key);
        for (const name of Object.keys(map)) schemas.push({ node: map[name], trail: step(at, name) });
      }
    }
  }
  return found;
}

/** The pointer of a schema met at `trail`, e.g. `/components/schemas/Thing`. */
export function schemaPointer(node: SchemaNode): string {
  return trailPointer(node.trail);
}

/** The trail of the target of a local reference (`#/a~1b/c` -> keys `a/b`, `c`). */
function refTrail(ref: string): Trail {
  let fragment = ref.slice(1);
  try {
    fragment = decodeURIComponent(fragment);
  } catch {
    // checkRefs has refused such a reference already
  }
  let trail: Trail | undefined;
  for (const raw of fragment.split("/").slice(1)) trail = step(trail, raw.replace(/~1/g, "/").replace(/~0/g, "~"));
  return trail ?? step(undefined, "");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
