import { responseSchemas, type JsonSchema } from "../../generated/response-schemas.js";
import { SeededRandom } from "../random.js";
import { sampleSchema, type Definitions } from "../responder/sample.js";
import type { SimOperation } from "../contract/operation-table.js";
import type { HandlerResult } from "../types.js";
import { emptyRecord, type JsonRecord } from "../members.js";

/**
 * Shapes a stored record into a response body the way the release's models
 * serialise it: every member the schema declares, in the schema's order,
 * with the record's value where it has one; where it has none, the schema's
 * `default`, else `null` for a nullable member (the release sends nulls, not
 * gaps), else a sampled value for a required member; an operation whose answer
 * leaves out what was not set (`x-powercontext-exclude-unset`) gets only the
 * required ones. Members the schema does
 * not declare are dropped, as the release's models send only their fields; an
 * object schema that declares no member at all is free-form and kept whole.
 * Values under `oneOf`/`anyOf` are shaped by the one alternative that is not
 * `null`, else, for an object, by the one alternative it fits (its required
 * members present, no member a closed alternative does not declare), else
 * kept as they are.
 */

type Schema = { readonly [keyword: string]: unknown };
const OMIT = Symbol("omit");
const MAX_DEPTH = 48;

/** A handler's result with its JSON success body shaped by the operation's response schema for its status. */
export function shaped(op: SimOperation, result: HandlerResult, seed: number): HandlerResult {
  const target = op.successBodies[result.status as keyof typeof op.successBodies] as
    | { readonly schema: string }
    | undefined;
  if (
    target === undefined ||
    result.body === null ||
    typeof result.body !== "object" ||
    result.body instanceof Uint8Array
  )
    return result;
  return { ...result, body: project(result.body, target.schema, seed, responseSchemas, op.excludeUnset) };
}

/** Shapes `value` by the response schema stored under `key` (a validator key of `response-schemas.ts`). */
export function project(
  value: unknown,
  key: string,
  seed: number,
  definitions: Definitions = responseSchemas,
  excludeUnset = false,
): unknown {
  return new Projector(definitions, seed, excludeUnset).conform(value, { $ref: `#/definitions/${key}` }, 0);
}

class Projector {
  /**
   * @param excludeUnset the answer leaves out every optional member the record does not
   *   have (`x-powercontext-exclude-unset`), where others send its default or null
   */
  constructor(
    private readonly definitions: Definitions,
    private readonly seed: number,
    private readonly excludeUnset = false,
  ) {}

  conform(value: unknown, node: JsonSchema | undefined, depth: number): unknown {
    const schema = this.resolve(node, depth);
    if (schema === null || depth > MAX_DEPTH) return value;
    if (value === undefined) {
      const filled = this.fill(schema, true);
      return filled === OMIT ? null : filled;
    }
    const alternatives = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
    if (Array.isArray(alternatives)) {
      const usable = alternatives
        .map((a) => this.resolve(a, depth + 1))
        .filter((a): a is Schema => a !== null && !isNullOnly(a));
      if (value === null) return value;
      if (usable.length === 1) return this.conform(value, usable[0] as JsonSchema, depth + 1);
      // An object value is shaped by the one alternative it fits (its required members present, no member it does not declare).
      const fitting = usable.filter((a) => fits(a, value));
      return fitting.length === 1 ? this.conform(value, fitting[0] as JsonSchema, depth + 1) : value;
    }
    if (Array.isArray(value)) {
      return schema.items !== undefined && !Array.isArray(schema.items)
        ? value.map((item) => this.conform(item, schema.items as JsonSchema, depth + 1))
        : value;
    }
    if (typeof value !== "object" || value === null) return value;
    const record = value as JsonRecord;
    const branch = this.branch(schema, record, depth);
    if (!("properties" in branch)) return value;
    const properties = (branch.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((branch.required ?? []) as string[]);
    const out = emptyRecord();
    for (const [name, propertySchema] of Object.entries(properties)) {
      if (Object.hasOwn(record, name) && record[name] !== undefined) {
        out[name] = this.conform(record[name], propertySchema, depth + 1);
        continue;
      }
      const resolved = this.resolve(propertySchema, depth + 1);
      const filled = resolved === null ? OMIT : this.fill(resolved, required.has(name), propertySchema);
      if (filled !== OMIT) out[name] = filled;
    }
    // The release's models send the members they declare; a schema without declared members is a free-form object.
    if (Object.keys(properties).length === 0 && branch.additionalProperties !== false) {
      for (const [name, item] of Object.entries(record)) if (item !== undefined) out[name] = item;
    }
    return out;
  }

  /**
   * The schema with the members of every conditional part (`if`/`then`, the
   * draft-07 form of a discriminated union) whose `if` the record meets.
   */
  private branch(schema: Schema, record: JsonRecord, depth: number): Schema {
    const conditionals = (schema.conditionals ?? []) as Schema[];
    let merged: Record<string, unknown> = schema;
    for (const conditional of conditionals) {
      const condition = (conditional.if ?? {}) as Schema;
      const consts = Object.entries((condition.properties ?? {}) as Record<string, Schema>);
      if (!consts.every(([name, rule]) => !("const" in rule) || record[name] === rule.const)) continue;
      const then = this.resolve(conditional.then as JsonSchema, depth + 1);
      if (then === null) continue;
      merged = {
        ...merged,
        properties: { ...((merged.properties ?? {}) as object), ...((then.properties ?? {}) as object) },
        required: [...new Set([...((merged.required ?? []) as string[]), ...((then.required ?? []) as string[])])],
      };
    }
    return merged;
  }

  /** The value of a member the record does not have. */
  private fill(schema: Schema, required: boolean, node: JsonSchema = schema): unknown {
    if (this.excludeUnset && !required) return OMIT;
    if ("default" in schema) return structuredClone(schema.default);
    if ("const" in schema) return schema.const;
    if (isNullable(schema, (a) => this.resolve(a, 1))) return null;
    if (!required) return OMIT;
    return sampleSchema(node, { random: new SeededRandom(this.seed), variant: 0, nulls: true }, this.definitions);
  }

  /** Follows `$ref`s and merges `allOf` parts (a single `allOf` wrapper is the common case). */
  private resolve(node: JsonSchema | undefined, depth: number): Schema | null {
    if (node === undefined || node === true) return {};
    if (node === false || depth > MAX_DEPTH) return null;
    let schema = node as Schema;
    for (let hops = 0; typeof schema.$ref === "string" && hops < 32; hops += 1) {
      schema = (this.definitions[(schema.$ref as string).replace("#/definitions/", "")] ?? {}) as Schema;
    }
    if (!Array.isArray(schema.allOf)) return schema;
    let merged: Record<string, unknown> = { ...schema, allOf: undefined };
    const conditionals: Schema[] = [];
    for (const part of schema.allOf as JsonSchema[]) {
      const flat = this.resolve(part, depth + 1);
      if (flat === null) continue;
      // A conditional part applies only to the values its `if` matches: kept for conform().
      if ("if" in flat) {
        conditionals.push(flat);
        continue;
      }
      const properties = { ...((flat.properties ?? {}) as object), ...((merged.properties ?? {}) as object) };
      const required = [...new Set([...((flat.required ?? []) as string[]), ...((merged.required ?? []) as string[])])];
      merged = { ...flat, ...merged, type: merged.type ?? flat.type };
      if ("properties" in flat || "properties" in merged) merged = { ...merged, properties, required };
    }
    return conditionals.length === 0
      ? merged
      : { ...merged, conditionals: [...((merged.conditionals ?? []) as Schema[]), ...conditionals] };
  }
}

/**
 * True when the object `value` fits the object schema `schema`: every required
 * member present, and, when the schema closes its members, none it does not
 * declare. Only schemas with declared members are fitted.
 */
function fits(schema: Schema, value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value) || !("properties" in schema)) return false;
  const record = value as JsonRecord;
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = (schema.required ?? []) as string[];
  if (!required.every((name) => Object.hasOwn(record, name) && record[name] !== undefined)) return false;
  return schema.additionalProperties !== false || Object.keys(record).every((name) => Object.hasOwn(properties, name));
}

function isNullOnly(schema: Schema): boolean {
  return schema.type === "null" || (Array.isArray(schema.enum) && schema.enum.length === 1 && schema.enum[0] === null);
}

function isNullable(schema: Schema, resolve: (node: JsonSchema) => Schema | null): boolean {
  if (schema.nullable === true) return true;
  if (schema.type === "null" || (Array.isArray(schema.type) && schema.type.includes("null"))) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  const alternatives = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  return (
    Array.isArray(alternatives) &&
    alternatives.some((a) => {
      const resolved = resolve(a);
      return resolved !== null && isNullOnly(resolved);
    })
  );
}
