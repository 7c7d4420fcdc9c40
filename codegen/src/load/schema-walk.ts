import { pointerSegment } from "../errors.js";
import { resolvePointer } from "./ref-policy.js";

/** One Schema Object of the document and where it stands. */
export interface SchemaNode {
  readonly schema: Record<string, unknown>;
  /** JSON pointer of the schema object. */
  readonly at: string;
}

/** Keywords whose value is one sub-schema. */
const ONE = ["items", "not", "additionalProperties", "additionalItems", "contains", "propertyNames", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties"];
/** Keywords whose value is a list of sub-schemas. */
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
/** Keywords whose value maps names to sub-schemas. */
const MAP = ["properties", "patternProperties", "dependentSchemas", "definitions", "$defs"];
/** Members of OpenAPI objects that hold data, never Schema Objects. */
const DATA = new Set(["example", "examples", "default", "enum", "const"]);

/**
 * Every Schema Object of the document, each once: the members of
 * `components.schemas`, every `schema` member of the other OpenAPI objects
 * (parameters, headers, media types, at any depth), their sub-schemas (`properties`,
 * `items`, `allOf`, ...), and the target of every `$ref` met inside a schema, even
 * one outside those places. Data (`example`, `default`, `enum`, `x-*` extensions)
 * is not entered. Iterative.
 *
 * @param document - a document that passed the reference policy (`checkRefs`)
 */
export function walkSchemas(document: unknown): SchemaNode[] {
  const found: SchemaNode[] = [];
  const seen = new Set<string>();
  const schemas: [node: unknown, at: string][] = [];
  const structure: [node: unknown, at: string][] = [[document, ""]];
  for (let entry = structure.pop(); entry !== undefined; entry = structure.pop()) {
    const [node, at] = entry;
    if (node === null || typeof node !== "object") continue;
    for (const [key, value] of Array.isArray(node) ? node.map((item, index) => [String(index), item] as const) : Object.entries(node)) {
      const child = `${at}/${pointerSegment(key)}`;
      if (key.startsWith("x-") || DATA.has(key)) continue;
      if (key === "schema") schemas.push([value, child]);
      else if (at === "/components" && key === "schemas" && isObject(value)) {
        for (const [name, schema] of Object.entries(value)) schemas.push([schema, `${child}/${pointerSegment(name)}`]);
      } else structure.push([value, child]);
    }
  }
  for (let entry = schemas.pop(); entry !== undefined; entry = schemas.pop()) {
    const [node, at] = entry;
    if (!isObject(node) || seen.has(at)) continue;
    seen.add(at);
    found.push({ schema: node, at });
    if (typeof node.$ref === "string" && node.$ref.startsWith("#")) {
      const target = resolvePointer(document, node.$ref);
      if (target.found) schemas.push([target.value, refPointer(node.$ref)]);
    }
    for (const key of ONE) if (isObject(node[key])) schemas.push([node[key], `${at}/${key}`]);
    for (const key of LIST) {
      const list = node[key];
      if (Array.isArray(list)) list.forEach((item, index) => schemas.push([item, `${at}/${key}/${index}`]));
    }
    for (const key of MAP) {
      const map = node[key];
      if (isObject(map)) for (const [name, schema] of Object.entries(map)) schemas.push([schema, `${at}/${key}/${pointerSegment(name)}`]);
    }
  }
  return found;
}

/** The JSON pointer a local reference names (`#/a%20b/c` -> `/a b/c`, still RFC 6901 escaped). */
export function refPointer(ref: string): string {
  try {
    return decodeURIComponent(ref.slice(1));
  } catch {
    return ref.slice(1);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
