import { SpecError, SpecErrorList } from "../errors.js";
import type { Json, RefLookup } from "../domain/types.js";
import type { ParameterIr, QueryModelIr } from "./model.js";

/** Our operation extension: the query parameters the operation's own request model checks (docs/extensions.md). */
export const QUERY_MODEL_EXTENSION = "x-powercontext-query-model";

/**
 * Reads `x-powercontext-query-model` of one operation, whose shape the loader
 * checked: each entry names a query parameter of the operation, and `name[]` one
 * whose schema is an array. Empty without the extension.
 *
 * @param at - JSON pointer of the operation
 * @param query - the operation's query parameters
 * @throws {SpecErrorList} `invalid_extension` naming the pointer of every entry that names no such parameter
 */
export function readQueryModel(op: Json, at: string, query: readonly ParameterIr[], lookup: RefLookup): QueryModelIr[] {
  const raw = op[QUERY_MODEL_EXTENSION];
  if (!Array.isArray(raw)) return [];
  const issues: SpecError[] = [];
  const entries = raw.map((entry, index) => {
    const text = String(entry);
    const items = text.endsWith("[]");
    const name = items ? text.slice(0, -2) : text;
    const parameter = query.find((p) => p.name === name);
    const problem =
      parameter === undefined
        ? `expected a query parameter of the operation, not ${JSON.stringify(name)}`
        : items && schemaType(parameter.schema, lookup) !== "array"
          ? `${JSON.stringify(name)} is no list: \`[]\` names the items of an array parameter`
          : null;
    if (problem !== null)
      issues.push(new SpecError("invalid_extension", { pointer: `${at}/${QUERY_MODEL_EXTENSION}/${index}` }, problem));
    return { name, items };
  });
  if (issues.length > 0) throw new SpecErrorList(issues);
  return entries;
}

/** The `type` of a parameter's schema, through one `$ref`. */
function schemaType(schema: Json, lookup: RefLookup): unknown {
  const resolved = typeof schema.$ref === "string" ? (lookup(schema.$ref) as Json | undefined) : schema;
  return resolved?.type;
}
