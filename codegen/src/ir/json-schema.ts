import type { Json, RefLookup } from "../domain/types.js";
import { refOf, schemaRefName } from "../load/walk-operations.js";

/**
 * Which side of the wire a schema describes. In `request` schemas `readOnly`
 * properties are never required and never allowed (the request types leave them
 * out too, so types, validator and wire agree: the member never leaves); in
 * `response` schemas `writeOnly` properties are never required (OpenAPI 3.0.3
 * §4.7.24.1, Schema Object readOnly/writeOnly).
 */
export type SchemaMode = "request" | "response";

/** Largest integer JSON.parse returns exactly (2^53 - 1). */
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const INT32 = { min: -2147483648, max: 2147483647 };

/** Keywords that only annotate (or are OpenAPI-only) and are dropped before compiling. */
const DROPPED = new Set([
  "nullable",
  "discriminator",
  "readOnly",
  "writeOnly",
  "example",
  "examples",
  "externalDocs",
  "xml",
  "deprecated",
  "description",
  "title",
  "default",
]);

/**
 * Converts an OpenAPI 3.0 Schema Object into a JSON Schema (draft-07) that ajv
 * compiles with the same meaning:
 *
 * - `nullable: true` adds `null` to `type` (and to `enum`), or wraps a typeless
 *   schema (`$ref`, `allOf`, ...) in `anyOf: [..., {type: "null"}]`;
 * - boolean `exclusiveMinimum`/`exclusiveMaximum` become the numeric draft-07 form;
 * - every `integer` is bounded to ±(2^53 - 1): beyond that JSON.parse has already
 *   lost precision, so such a value is rejected instead of silently rounded;
 *   `format: int32` bounds to the 32-bit range;
 * - `oneOf`/`anyOf` with a `discriminator` becomes "the property is one of the
 *   mapped values, and the value's schema applies" (`if`/`then` per value), which is
 *   what OpenAPI means even when the alternatives overlap;
 * - readOnly/writeOnly adjust `required` as described in {@link SchemaMode}, and a
 *   readOnly member of a request schema is `false`: a request holding one is refused;
 * - annotations and OpenAPI-only keywords (`example`, `xml`, `x-*`, ...) are dropped.
 *
 * @param refTo - maps a component schema name to the `$ref` used in the output
 * @param sameOnBothSides - when given, conversions that read alike on both sides of
 *   the wire (no reference to a component schema, no readOnly or writeOnly member
 *   below them) are kept here by their source node and handed out again, to either
 *   side: the result then shares those parts with earlier results (nothing mutates
 *   them), and the work is done once per node instead of once per side.
 */
export function toJsonSchema(
  schema: unknown,
  mode: SchemaMode,
  refTo: (name: string) => string,
  lookup: RefLookup,
  sameOnBothSides?: Map<object, Json>,
): Json | boolean {
  return new Converter(mode, refTo, lookup, sameOnBothSides).convert(schema, 0);
}

class Converter {
  /** Whether the node being converted reads differently on the other side of the wire (or was cut at the depth limit). */
  private sided = false;

  constructor(
    private readonly mode: SchemaMode,
    private readonly refTo: (name: string) => string,
    private readonly lookup: RefLookup,
    private readonly sameOnBothSides: Map<object, Json> | undefined,
  ) {}

  convert(node: unknown, depth: number): Json | boolean {
    if (typeof node === "boolean") return node;
    if (node === null || typeof node !== "object" || depth > 64) {
      if (depth > 64) this.sided = true;
      return {};
    }
    const known = this.sameOnBothSides?.get(node);
    if (known !== undefined) return known;
    const outer = this.sided;
    this.sided = false;
    const out = this.convertNode(node as Json, depth);
    if (!this.sided && typeof out === "object") this.sameOnBothSides?.set(node, out);
    this.sided ||= outer;
    return out;
  }

  private convertNode(schema: Json, depth: number): Json | boolean {
    const ref = refOf(schema);
    if (ref !== undefined) {
      const name = schemaRefName(schema);
      if (name === undefined) return this.convert(this.lookup(ref), depth + 1);
      // References to anything but a whole component schema are inlined; a component's is named per side.
      this.sided = true;
      return { $ref: this.refTo(name) };
    }
    const out: Json = {};
    for (const key in schema) {
      if (DROPPED.has(key) || key.startsWith("x-")) continue;
      const value = schema[key];
      switch (key) {
        case "properties": {
          // A readOnly member is the server's: a request holding one is refused (`false`), so it never leaves.
          // Every member is looked at on both sides, so that one marked readOnly or writeOnly marks the schema sided.
          const properties: Json = {};
          for (const name in value as Json) {
            const member = (value as Json)[name];
            const converted =
              this.marked(member)?.readOnly === true && this.mode === "request"
                ? false
                : this.convert(member, depth + 1);
            // A member named `__proto__` is a member like any other (an assignment would set the prototype).
            if (name === "__proto__")
              Object.defineProperty(properties, name, {
                value: converted,
                enumerable: true,
                writable: true,
                configurable: true,
              });
            else properties[name] = converted;
          }
          out.properties = properties;
          break;
        }
        case "items":
        case "not":
          out[key] = this.convert(value, depth + 1);
          break;
        case "additionalProperties":
          out[key] = typeof value === "boolean" ? value : this.convert(value, depth + 1);
          break;
        case "allOf":
        case "oneOf":
        case "anyOf":
          out[key] = (value as unknown[]).map((v) => this.convert(v, depth + 1));
          break;
        case "required":
          out.required = (value as string[]).filter(
            (name) => !this.hidden((schema.properties as Json | undefined)?.[name]),
          );
          break;
        case "exclusiveMinimum":
        case "exclusiveMaximum":
          break; // handled with minimum/maximum below
        default:
          out[key] = value;
      }
    }
    if (Array.isArray(out.required) && out.required.length === 0) delete out.required;
    numericBounds(schema, out);
    if (schema.discriminator !== undefined) this.discriminate(schema, out);
    return schema.nullable === true ? nullable(out) : out;
  }

  /** True when a property is invisible on this side of the wire (readOnly in requests, writeOnly in responses). */
  private hidden(property: unknown): boolean {
    const target = this.marked(property);
    return target !== undefined && (this.mode === "request" ? target.readOnly === true : target.writeOnly === true);
  }

  /** {@link target}, noting that the schema holding the property reads differently per side when it is readOnly or writeOnly. */
  private marked(property: unknown): Json | undefined {
    const target = this.target(property);
    if (target !== undefined && (target.readOnly === true || target.writeOnly === true)) this.sided = true;
    return target;
  }

  /** A property's schema after following its references, or undefined. */
  private target(property: unknown): Json | undefined {
    let target = property as Json | undefined;
    for (let hops = 0; target && refOf(target) !== undefined && hops < 8; hops += 1)
      target = this.lookup(refOf(target) as string) as Json;
    return target === undefined || target === null || typeof target !== "object" ? undefined : target;
  }

  private discriminate(schema: Json, out: Json): void {
    const discriminator = schema.discriminator as { propertyName: string; mapping?: Record<string, string> };
    const alternatives = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
    if (!Array.isArray(alternatives)) return; // a discriminator on a base schema only annotates
    const entries: [string, string][] = Object.entries(discriminator.mapping ?? {});
    const mapped = new Set(entries.map(([, target]) => target));
    for (const alternative of alternatives) {
      const ref = refOf(alternative);
      const name = schemaRefName(alternative);
      if (ref !== undefined && name !== undefined && !mapped.has(ref) && !mapped.has(name)) entries.push([name, ref]);
    }
    const property = discriminator.propertyName;
    delete out.oneOf;
    delete out.anyOf;
    out.type = "object";
    out.required = [...new Set([...((out.required as string[] | undefined) ?? []), property])];
    out.properties = {
      ...((out.properties as Json | undefined) ?? {}),
      [property]: { enum: entries.map(([value]) => value) },
    };
    out.allOf = [
      ...((out.allOf as unknown[] | undefined) ?? []),
      ...entries.map(([value, target]) => ({
        if: { properties: { [property]: { const: value } } },
        then: this.convert(target.startsWith("#") ? { $ref: target } : { $ref: `#/components/schemas/${target}` }, 1),
      })),
    ];
  }
}

function numericBounds(schema: Json, out: Json): void {
  const exclusive = (flag: unknown, bound: unknown) => flag === true && typeof bound === "number";
  if (exclusive(schema.exclusiveMinimum, schema.minimum)) {
    out.exclusiveMinimum = schema.minimum;
    delete out.minimum;
  }
  if (exclusive(schema.exclusiveMaximum, schema.maximum)) {
    out.exclusiveMaximum = schema.maximum;
    delete out.maximum;
  }
  if (schema.type !== "integer") return;
  const low = schema.format === "int32" ? INT32.min : -MAX_SAFE;
  const high = schema.format === "int32" ? INT32.max : MAX_SAFE;
  if (out.exclusiveMinimum === undefined)
    out.minimum = Math.max(typeof out.minimum === "number" ? out.minimum : low, low);
  if (out.exclusiveMaximum === undefined)
    out.maximum = Math.min(typeof out.maximum === "number" ? out.maximum : high, high);
  if (schema.format === "int32" || schema.format === "int64") delete out.format;
}

function nullable(out: Json): Json {
  if (typeof out.type === "string") {
    const result: Json = { ...out, type: [out.type, "null"] };
    if (Array.isArray(out.enum) && !out.enum.includes(null)) result.enum = [...out.enum, null];
    return result;
  }
  if (Array.isArray(out.enum) && out.type === undefined && Object.keys(out).length === 1)
    return { enum: out.enum.includes(null) ? out.enum : [...out.enum, null] };
  return { anyOf: [out, { type: "null" }] };
}
