import { responseSchemas, type JsonSchema } from "../../generated/response-schemas.js";
import type { SeededRandom } from "../random.js";

/**
 * Builds a JSON value that satisfies a draft-07 schema of the generated
 * `response-schemas.ts`: the smallest honest instance (required members only,
 * the least number of items, the first enum value, bounds respected) with
 * seeded ids and hashes, so the same seed gives the same value. `example` and
 * `default` are used when the schema carries them. `variant` picks other
 * branches of `oneOf`/`anyOf` and other enum members, for callers that retry
 * until the operation's validator accepts the value. With `nulls`, an object
 * carries every member it declares, as the release's models serialise them:
 * an optional member gets its `default`, else `null` when nullable, else
 * stays out.
 */

type Schema = { readonly [keyword: string]: unknown };

/** Epoch of every sampled date-time: 2026-01-01T00:00:00Z. */
const EPOCH_MS = Date.UTC(2026, 0, 1);

/** Options of {@link sampleValue}. */
export interface SampleOptions {
  readonly random: SeededRandom;
  /** Branch choice for `oneOf`/`anyOf` and enums; 0 takes the first. */
  readonly variant: number;
  /** Objects carry their optional members too: the default, else null when nullable (default false). */
  readonly nulls?: boolean;
}

/** Draft-07 schemas by key, the targets of `#/definitions/<key>`. */
export type Definitions = { readonly [key: string]: JsonSchema | undefined };

/** A value for the schema stored under `key` in `definitions` (default: the generated `responseSchemas`). */
export function sampleValue(key: string, options: SampleOptions, definitions: Definitions = responseSchemas): unknown {
  return new Sampler(options, definitions).value({ $ref: `#/definitions/${key}` }, 0);
}

/** A value for the schema `node` itself (its `$ref`s point into `definitions`). */
export function sampleSchema(
  node: JsonSchema,
  options: SampleOptions,
  definitions: Definitions = responseSchemas,
): unknown {
  return new Sampler(options, definitions).value(node, 0);
}

class Sampler {
  constructor(
    private readonly options: SampleOptions,
    private readonly definitions: Definitions,
  ) {}

  value(node: JsonSchema | undefined, depth: number): unknown {
    const schema = this.flatten(node, depth);
    if (schema === null) return null;
    if ("example" in schema) return schema.example;
    if ("default" in schema) return schema.default;
    if ("const" in schema) return schema.const;
    if (Array.isArray(schema.enum))
      return this.pick(
        schema.enum.filter((v) => v !== null).length > 0 ? schema.enum.filter((v) => v !== null) : schema.enum,
      );
    const alternatives = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
    if (Array.isArray(alternatives) && alternatives.length > 0) {
      const usable = alternatives.filter((a) => !isNullOnly(this.flatten(a, depth + 1)));
      const list = usable.length > 0 ? usable : alternatives;
      const chosen = this.flatten(list[this.options.variant % list.length], depth + 1) ?? {};
      // The alternative adds to the schema's own keywords (e.g. `oneOf: [{required: [a]}, {required: [b]}]` beside `properties`).
      return this.value(merge({ ...schema, oneOf: undefined, anyOf: undefined }, chosen) as JsonSchema, depth + 1);
    }
    switch (typeOf(schema)) {
      case "object":
        return this.object(schema, depth);
      case "array":
        return this.array(schema, depth);
      case "string":
        return this.string(schema, 0);
      case "integer":
        return integer(schema);
      case "number":
        return integer(schema);
      case "boolean":
        return false;
      case "null":
        return null;
      default:
        return "properties" in schema || "required" in schema ? this.object(schema, depth) : null;
    }
  }

  /** Resolves `$ref` and merges `allOf` into one schema; conditional (`if`/`then`) members are kept for {@link object}. */
  private flatten(node: JsonSchema | undefined, depth: number): Schema | null {
    if (node === undefined || node === true) return {};
    if (node === false || depth > 48) return null;
    let schema = node as Schema;
    for (let hops = 0; typeof schema.$ref === "string" && hops < 32; hops += 1) {
      schema = (this.definitions[(schema.$ref as string).replace("#/definitions/", "")] ?? {}) as Schema;
    }
    if (!Array.isArray(schema.allOf)) return schema;
    let merged: Schema = { ...schema, allOf: undefined };
    const conditionals: Schema[] = [];
    for (const part of schema.allOf as JsonSchema[]) {
      const flat = this.flatten(part, depth + 1);
      if (flat === null) continue;
      if ("if" in flat) conditionals.push(flat);
      else merged = merge(merged, flat);
    }
    return { ...merged, conditionals: [...((merged.conditionals as Schema[] | undefined) ?? []), ...conditionals] };
  }

  private object(schema: Schema, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    for (const name of (schema.required ?? []) as string[]) out[name] = this.value(properties[name] ?? {}, depth + 1);
    for (const conditional of (schema.conditionals ?? []) as Schema[]) {
      if (!matchesIf(conditional.if as Schema, out)) continue;
      const then = this.flatten(conditional.then as JsonSchema, depth + 1);
      if (then === null) continue;
      const thenProps = (then.properties ?? {}) as Record<string, JsonSchema>;
      for (const name of (then.required ?? []) as string[]) {
        if (!(name in out) || (thenProps[name] !== undefined && !isLoose(thenProps[name])))
          out[name] = this.value(thenProps[name] ?? properties[name] ?? {}, depth + 1);
      }
    }
    if (this.options.nulls === true) {
      for (const [name, node] of Object.entries(properties)) {
        if (name in out) continue;
        const member = this.flatten(node, depth + 1);
        if (member === null) continue;
        if ("default" in member) out[name] = structuredClone(member.default);
        else if (this.nullable(member, depth + 1)) out[name] = null;
      }
    }
    const min = typeof schema.minProperties === "number" ? schema.minProperties : 0;
    for (let i = Object.keys(out).length; i < min; i += 1)
      out[`key_${i}`] = this.value(schema.additionalProperties as JsonSchema, depth + 1) ?? "value";
    return out;
  }

  private array(schema: Schema, depth: number): unknown[] {
    const count = typeof schema.minItems === "number" ? schema.minItems : 0;
    const items: unknown[] = [];
    for (let i = 0; i < count; i += 1) {
      const item = this.value(schema.items as JsonSchema, depth + 1);
      items.push(
        schema.uniqueItems === true ? distinct(item, i, this.flatten(schema.items as JsonSchema, depth + 1)) : item,
      );
    }
    return items;
  }

  string(schema: Schema, index: number): string {
    const min = typeof schema.minLength === "number" ? schema.minLength : 0;
    const max = typeof schema.maxLength === "number" ? schema.maxLength : Number.POSITIVE_INFINITY;
    const format = schema.format;
    if (format === "date-time") return new Date(EPOCH_MS + index * 1000).toISOString();
    if (format === "date") return new Date(EPOCH_MS + index * 86_400_000).toISOString().slice(0, 10);
    if (format === "uri" || format === "uri-reference")
      return format === "uri" ? `http://127.0.0.1/sample/${index}` : `/sample/${index}`;
    if (format === "uuid") return uuid(this.hex(32));
    const pattern = typeof schema.pattern === "string" ? new RegExp(schema.pattern, "u") : null;
    const hex = this.hex(64);
    const suffix = index === 0 ? "" : `${index}`;
    const candidates = [
      `sample${suffix}`,
      `${hex}`,
      `sha256:${hex}`,
      `sample-${index + 1}`,
      `c2FtcGxl${"A".repeat(index * 4)}`,
      `s${suffix}`,
      `0${suffix}`,
    ];
    for (const candidate of candidates) {
      const sized = fitLength(candidate, min, max);
      if (sized !== null && (pattern === null || pattern.test(sized))) return sized;
    }
    return fitLength("s", min, max) ?? "s";
  }

  /** True when the schema admits `null` (a type list, an enum, or a `oneOf`/`anyOf` alternative that is only `null`). */
  private nullable(schema: Schema, depth: number): boolean {
    if (schema.nullable === true || schema.type === "null") return true;
    if (Array.isArray(schema.type) && schema.type.includes("null")) return true;
    if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
    const alternatives = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
    return Array.isArray(alternatives) && alternatives.some((a) => isNullOnly(this.flatten(a, depth + 1)));
  }

  private hex(length: number): string {
    let out = "";
    while (out.length < length) out += this.options.random.int(0x10000).toString(16).padStart(4, "0");
    return out.slice(0, length);
  }

  private pick<T>(values: readonly T[]): T {
    return values[this.options.variant % values.length] as T;
  }
}

function typeOf(schema: Schema): string | undefined {
  const type = schema.type;
  if (Array.isArray(type)) return (type.find((t) => t !== "null") ?? "null") as string;
  return type as string | undefined;
}

function isNullOnly(schema: Schema | null): boolean {
  return (
    schema === null ||
    typeOf(schema) === "null" ||
    (Array.isArray(schema.enum) && schema.enum.length === 1 && schema.enum[0] === null)
  );
}

function isLoose(schema: JsonSchema): boolean {
  return schema === true || (typeof schema === "object" && Object.keys(schema).length === 0);
}

function merge(a: Schema, b: Schema): Schema {
  const out: Record<string, unknown> = { ...a, ...b };
  out.properties = { ...((a.properties ?? {}) as object), ...((b.properties ?? {}) as object) };
  out.required = [...new Set([...((a.required ?? []) as string[]), ...((b.required ?? []) as string[])])];
  if (a.type !== undefined && b.type === undefined) out.type = a.type;
  return out;
}

function matchesIf(condition: Schema | undefined, value: Record<string, unknown>): boolean {
  const properties = (condition?.properties ?? {}) as Record<string, Schema>;
  return Object.entries(properties).every(([name, rule]) => !("const" in rule) || value[name] === rule.const);
}

function integer(schema: Schema): number {
  let low = typeof schema.minimum === "number" ? schema.minimum : 0;
  if (typeof schema.exclusiveMinimum === "number") low = Math.max(low, Math.floor(schema.exclusiveMinimum) + 1);
  let high = typeof schema.maximum === "number" ? schema.maximum : Number.MAX_SAFE_INTEGER;
  if (typeof schema.exclusiveMaximum === "number") high = Math.min(high, Math.ceil(schema.exclusiveMaximum) - 1);
  return Math.ceil(Math.min(Math.max(low, 0), high));
}

function fitLength(text: string, min: number, max: number): string | null {
  let out = text;
  while (out.length < min) out += out.endsWith(" ") ? "a" : "a";
  return out.length > max
    ? text.length <= max && text.length >= min
      ? text
      : out.slice(0, max).length >= min
        ? out.slice(0, max)
        : null
    : out;
}

function uuid(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The `index`-th member of a unique array: a different enum value, string or number. */
function distinct(item: unknown, index: number, schema: Schema | null): unknown {
  if (schema && Array.isArray(schema.enum)) return schema.enum[index % schema.enum.length];
  if (typeof item === "string")
    return index === 0 ? item : `${item.slice(0, Math.max(1, item.length - String(index).length))}${index}`;
  if (typeof item === "number") return item + index;
  return item;
}
