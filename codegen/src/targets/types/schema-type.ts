import type { Json, RefLookup } from "../../domain/types.js";
import {
  array,
  intersection,
  literal,
  NEVER,
  object,
  ref,
  tuple,
  union,
  UNKNOWN,
  type TsMember,
  type TsType,
} from "../../emit/ts/builder.js";

/**
 * Which side of the wire a type is for: `read` (a response: `writeOnly`
 * members left out) or `write` (a request: `readOnly` members left out).
 */
export type Side = "read" | "write";

/** The name a component schema's type has on one side of the wire. */
export type SchemaNamer = (schemaName: string, side: Side) => string;

const COMPONENT = /^#\/components\/schemas\/([^/]+)$/;
/** How deep a reference that does not name a component (into `$defs`, a property) is inlined before it is `unknown`. */
const INLINE_DEPTH = 8;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The doc comment lines of a schema: title, description, `@deprecated`, `@default`, format. */
export function schemaDoc(schema: unknown): string[] {
  if (!isObject(schema)) return [];
  const lines: string[] = [];
  if (typeof schema.title === "string" && schema.title !== "") lines.push(schema.title);
  if (typeof schema.description === "string" && schema.description !== "")
    lines.push(...(lines.length > 0 ? [""] : []), schema.description);
  if (typeof schema.format === "string") lines.push(`Format: \`${schema.format}\`.`);
  if (schema.default !== undefined) lines.push(`@default ${JSON.stringify(schema.default)}`);
  if (schema.deprecated === true) lines.push("@deprecated");
  return lines;
}

/**
 * OpenAPI Schema Objects (the loader's one form: 3.0 style, plus 3.1's
 * `prefixItems`, `$defs` and `contentMediaType`) as TypeScript types.
 *
 * - a reference to a component is that component's named type on the same side;
 *   any other local reference (into `$defs`, a property) is written inline;
 * - `nullable` adds `| null`; `enum` is a union of literals;
 * - a free-form object (`type: object` without members) is an open record,
 *   `{ [key: string]: unknown }`, as its validator accepts;
 * - `oneOf`/`anyOf` with a `discriminator.mapping` is a union of each mapped
 *   type intersected with its literal tag, so the tag narrows the union;
 * - `prefixItems` is a tuple, with `items` as its rest;
 * - a `readOnly` member is left out on the write side, a `writeOnly` one on the read side.
 */
export class SchemaTypes {
  constructor(
    private readonly lookup: RefLookup,
    private readonly namer: SchemaNamer,
  ) {}

  /** The type of `schema` on `side`. */
  type(schema: unknown, side: Side, depth = 0): TsType {
    if (schema === true || schema === undefined) return UNKNOWN;
    if (schema === false) return NEVER;
    if (!isObject(schema)) return UNKNOWN;
    const base = this.core(schema, side, depth);
    return schema.nullable === true && base !== UNKNOWN ? union([base, ref("null")]) : base;
  }

  private core(schema: Json, side: Side, depth: number): TsType {
    if (typeof schema.$ref === "string") return this.reference(schema.$ref, side, depth);
    const parts: TsType[] = [];
    if (Array.isArray(schema.enum)) parts.push(union(schema.enum.map(literal)));
    else {
      const own = this.ownType(schema, side, depth);
      if (own !== null) parts.push(own);
    }
    if (Array.isArray(schema.allOf)) parts.push(...schema.allOf.map((s) => this.type(s, side, depth)));
    for (const key of ["oneOf", "anyOf"] as const) {
      if (Array.isArray(schema[key])) parts.push(this.alternatives(schema, schema[key] as unknown[], side, depth));
    }
    if (parts.length === 0) return schema.type === "object" ? object([], UNKNOWN) : UNKNOWN;
    return intersection(parts);
  }

  private reference(target: string, side: Side, depth: number): TsType {
    const component = COMPONENT.exec(target);
    if (component !== null)
      return ref(
        this.namer(
          decodeURIComponent(component[1] as string)
            .replace(/~1/g, "/")
            .replace(/~0/g, "~"),
          side,
        ),
      );
    if (depth >= INLINE_DEPTH) return UNKNOWN;
    return this.type(this.lookup(target), side, depth + 1);
  }

  private alternatives(schema: Json, options: unknown[], side: Side, depth: number): TsType {
    const discriminator = isObject(schema.discriminator) ? schema.discriminator : null;
    const mapping =
      discriminator !== null && isObject(discriminator.mapping)
        ? (discriminator.mapping as Record<string, string>)
        : {};
    const property =
      discriminator !== null && typeof discriminator.propertyName === "string" ? discriminator.propertyName : null;
    const tagged = new Set<string>();
    const members: TsType[] = [];
    if (property !== null) {
      for (const [tag, target] of Object.entries(mapping)) {
        tagged.add(target);
        members.push(
          intersection([this.reference(target, side, depth), object([{ name: property, type: literal(tag) }], null)]),
        );
      }
    }
    for (const option of options) {
      const target = isObject(option) && typeof option.$ref === "string" ? option.$ref : null;
      if (target === null || !tagged.has(target)) members.push(this.type(option, side, depth));
    }
    return union(members);
  }

  /** The type given by `type` and its keywords, or null when the schema has neither. */
  private ownType(schema: Json, side: Side, depth: number): TsType | null {
    const type = schema.type;
    if (type === "string") return ref("string");
    if (type === "integer" || type === "number") return ref("number");
    if (type === "boolean") return ref("boolean");
    if (type === "null") return ref("null");
    if (type === "array" || (type === undefined && (schema.items !== undefined || schema.prefixItems !== undefined)))
      return this.arrayType(schema, side, depth);
    if (
      type === "object" ||
      (type === undefined && (isObject(schema.properties) || schema.additionalProperties !== undefined))
    )
      return this.objectType(schema, side, depth);
    return null;
  }

  private arrayType(schema: Json, side: Side, depth: number): TsType {
    if (Array.isArray(schema.prefixItems)) {
      const rest = schema.items === false ? null : this.type(schema.items, side, depth);
      return tuple(
        schema.prefixItems.map((s) => this.type(s, side, depth)),
        rest,
      );
    }
    return array(this.type(schema.items, side, depth));
  }

  private objectType(schema: Json, side: Side, depth: number): TsType {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const hidden = side === "write" ? "readOnly" : "writeOnly";
    const members: TsMember[] = [];
    for (const [name, property] of Object.entries(properties)) {
      if (isObject(property) && property[hidden] === true) continue;
      const doc = schemaDoc(property);
      members.push({
        name,
        type: this.type(property, side, depth),
        optional: !required.has(name),
        ...(doc.length > 0 ? { doc } : {}),
      });
    }
    const extra = schema.additionalProperties;
    const index =
      extra === false
        ? NEVER
        : extra === true || (isObject(extra) && Object.keys(extra).length === 0)
          ? UNKNOWN
          : isObject(extra)
            ? this.type(extra, side, depth)
            : null;
    if (members.length === 0) return object([], index ?? UNKNOWN);
    if (index === null || index === NEVER) return object(members, null);
    return intersection([object(members, null), object([], index)]);
  }
}
