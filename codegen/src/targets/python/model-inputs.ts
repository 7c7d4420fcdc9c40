import type { ApiIr } from "../../ir/model.js";
import type { Json } from "../../domain/types.js";
import { documentOrder } from "./contract-facts.js";
import { parameterList, parametersModelName } from "./extensions-py.js";
import { pythonRuleMethods } from "./model-rules-py.js";

/**
 * What the model generator (codegen/python/generate_models.py) reads besides its
 * options: the document for `models.py`, the validators of the model rules, and the
 * document for `parameters.py`.
 */

/** The validators of every schema with model rules, by schema (= class) name. */
export function ruleMethods(ir: ApiIr): Record<string, string> {
  const methods: Record<string, string> = {};
  for (const schema of ir.schemas) {
    const source = pythonRuleMethods(schema);
    if (source !== null) methods[schema.name] = source;
  }
  return methods;
}

/**
 * The document datamodel-code-generator reads for `models.py`: `written`, except that a
 * schema whose `exclusive` rule says what its `oneOf` says (alternatives that only
 * require one of the rule's members each) loses that `oneOf`. The rule's validator then
 * enforces it on one model, where the tool would write a union of one class per alternative.
 */
export function modelsDocument(ir: ApiIr, written: Json): Json {
  const schemas = ((written.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  const replaced: Record<string, Json> = {};
  for (const schema of ir.schemas) {
    const exclusive = schema.rules.find((rule) => rule.kind === "exclusive");
    const node = schemas[schema.name];
    if (exclusive === undefined || node === undefined || !Array.isArray(node.oneOf)) continue;
    const alternatives = (node.oneOf as unknown[]).map((alt) =>
      alt !== null && typeof alt === "object" ? Object.entries(alt as Json) : [],
    );
    const onlyRequired = alternatives.every(
      (entries) =>
        entries.length === 1 &&
        entries[0]?.[0] === "required" &&
        Array.isArray(entries[0][1]) &&
        entries[0][1].length === 1,
    );
    const named = alternatives.map((entries) => String((entries[0]?.[1] as unknown[] | undefined)?.[0])).sort();
    if (!onlyRequired || JSON.stringify(named) !== JSON.stringify([...exclusive.members].sort())) continue;
    const { oneOf: _dropped, ...rest } = node;
    replaced[schema.name] = rest;
  }
  if (Object.keys(replaced).length === 0) return written;
  const components = written.components as Json;
  return { ...written, components: { ...components, schemas: { ...schemas, ...replaced } } };
}

const SCHEMA_REF = "#/components/schemas/";

/** One JSON pointer segment, unescaped (RFC 6901). */
function unescapeSegment(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** The node at a JSON pointer of `written` (`/a/b`), or undefined. */
function pointerValue(written: Json, pointer: string): unknown {
  return pointer
    .split("/")
    .slice(1)
    .map(unescapeSegment)
    .reduce<unknown>((n, key) => (n !== null && typeof n === "object" ? (n as Json)[key] : undefined), written);
}

/** Follows `$ref`s inside `written` (local references only; the loader allows no other). */
function resolve(written: Json, node: unknown): Json {
  let current = node;
  for (
    let hops = 0;
    hops < 32 && current !== null && typeof current === "object" && typeof (current as Json).$ref === "string";
    hops += 1
  ) {
    current = pointerValue(written, ((current as Json).$ref as string).slice(1));
  }
  return (current ?? {}) as Json;
}

/** Names of the component schemas `node` refers to, directly or through them. */
function referencedSchemas(written: Json, roots: unknown[]): Set<string> {
  const found = new Set<string>();
  const pending = [...roots];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) pending.push(...node);
    else if (node !== null && typeof node === "object") {
      for (const [key, value] of Object.entries(node as Json)) {
        if (key === "$ref" && typeof value === "string" && value.startsWith(SCHEMA_REF)) {
          const name = unescapeSegment(value.slice(SCHEMA_REF.length));
          if (!found.has(name)) {
            found.add(name);
            pending.push(pointerValue(written, value.slice(1)));
          }
        } else if (key !== "enum" && key !== "default" && key !== "example") {
          pending.push(value);
        }
      }
    }
  }
  return found;
}

/**
 * The document datamodel-code-generator reads for `parameters.py`: one object schema
 * per operation with path, query or header parameters (`<TypeName>Parameters`, each
 * parameter a member by its wire name, with its schema as written and `required` as
 * declared), plus the component schemas those refer to. Null when no operation has any.
 */
export function parametersDocument(ir: ApiIr, written: Json): Json | null {
  const synthesized: Record<string, Json> = {};
  for (const op of documentOrder(ir)) {
    const name = parametersModelName(op);
    if (name === null) continue;
    const properties: Json = {};
    for (const parameter of parameterList(op)) {
      const declared = resolve(written, pointerValue(written, parameter.pointer));
      properties[parameter.name] = declared.schema ?? parameter.schema;
    }
    const required = parameterList(op)
      .filter((p) => p.required)
      .map((p) => p.name);
    synthesized[name] = {
      type: "object",
      additionalProperties: false,
      properties,
      ...(required.length > 0 ? { required } : {}),
    };
  }
  if (Object.keys(synthesized).length === 0) return null;
  const all = ((written.components as Json | undefined)?.schemas ?? {}) as Json;
  const used = referencedSchemas(written, Object.values(synthesized));
  const schemas: Json = {};
  for (const [name, schema] of Object.entries(all)) if (used.has(name)) schemas[name] = schema;
  return {
    openapi: written.openapi,
    info: written.info,
    paths: {},
    components: { schemas: { ...schemas, ...synthesized } },
  };
}
