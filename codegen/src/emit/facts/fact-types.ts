import { camelCase, defaultOf, isOwnMember } from "../../facts/read-fact.js";
import { EXTENSIONS_SCHEMA_PATH, factDefinition, referenced, shapeParts, type FactSchema } from "../../facts/schema.js";
import {
  intersection,
  literal,
  namedType,
  object,
  readonlyArray,
  ref,
  union,
  UNKNOWN,
  type TsMember,
  type TsType,
} from "../ts/builder.js";

/**
 * Emits the TypeScript types of the contract facts from `extensions.schema.json`:
 * one named type (`<Definition>Fact`) per definition that `roots` reach and whose
 * value is more than a string or a number, in the form the IR and the generated
 * modules carry it (see `facts/read-fact.ts`): camelCase members (or `x-name`),
 * every member there (a member the spec may leave out is its default, or null when
 * it has none), `x-entries` maps as lists of entries, a choice with `x-shorthand` as
 * its object form, `x-read` members in their read shape, an `allOf` as the intersection
 * of its parts, members another part declares (`x-part-of`) left to it. Each type and member
 * carries the schema's `description` as its doc comment.
 *
 * With `form: "written"` the types are of the extensions as the spec writes them, for a
 * reader that takes them as they are (the mock's access facts): members keep their keys,
 * one the spec may leave out is optional, and no annotation reshapes anything.
 *
 * @param roots - definitions of the schema (`async`, `resource-use`) the module must declare
 * @param regenerate - the command that rewrites the module, named in its banner
 * @param form - `read` (default): as the IR carries the facts; `written`: as the spec writes them
 */
export function emitFactTypes(roots: readonly string[], regenerate: string, form: "read" | "written" = "read"): string {
  const emitted = new Map<string, string>();
  const pending = [...roots];
  const use = (name: string) => {
    if (!emitted.has(name) && !pending.includes(name)) pending.push(name);
  };
  const types = form === "read" ? new FactTypes(use) : new WrittenTypes(use);
  for (let name = pending.shift(); name !== undefined; name = pending.shift()) {
    const definition = factDefinition(name);
    emitted.set(name, namedType(factTypeName(name), types.read(definition, false), docOf(definition)));
  }
  let out = `// Generated from ${EXTENSIONS_SCHEMA_PATH} by ${regenerate}; do not edit.\n`;
  out +=
    form === "read"
      ? "// The contract facts as the generator carries them (docs/extensions.md).\n\n"
      : "// The contract facts as the spec writes them (docs/extensions.md).\n\n";
  return out + [...emitted.values()].join("\n");
}

/** The type name of a definition: `resource-use` -> `ResourceUseFact`. */
export function factTypeName(definition: string): string {
  return `${definition.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase())}Fact`;
}

/** True when a definition gets a type of its own: an object, a map read as entries, or a choice with an object form. */
function isNamed(definition: FactSchema, written = false): boolean {
  const shape = (written ? definition : (definition["x-read"] ?? definition)) as FactSchema;
  if (referenced(shape) !== undefined) return false;
  const forms = (shape.oneOf ?? []) as FactSchema[];
  return (
    shape.properties !== undefined ||
    shapeParts(shape, "allOf").length > 0 ||
    shape["x-entries"] !== undefined ||
    forms.some(
      (form) =>
        form.type === "object" ||
        form.properties !== undefined ||
        (referenced(form) !== undefined && isNamed(referenced(form)!.definition, written)),
    )
  );
}

class FactTypes {
  constructor(private readonly use: (definition: string) => void) {}

  /** True for the types of the written form ({@link WrittenTypes}). */
  protected get written(): boolean {
    return false;
  }

  /** The type of a value of `schema` as read; `nested`: a member's schema, whose named definitions are referenced by name. */
  read(schema: FactSchema, nested = true): TsType {
    const shape = this.written ? undefined : (schema["x-read"] as FactSchema | undefined);
    if (shape !== undefined) return this.read(shape);
    const target = referenced(schema);
    if (target !== undefined) {
      if (!isNamed(target.definition, this.written)) return this.read(target.definition);
      this.use(target.name);
      return ref(factTypeName(target.name));
    }
    const parts = shapeParts(schema, "allOf");
    if (parts.length > 0) return intersection(parts.map((part) => this.read(part)));
    if (
      nested === false &&
      isNamed(schema, this.written) &&
      schema.properties === undefined &&
      schema.oneOf === undefined
    )
      return this.map(schema);
    if (schema.const !== undefined) return literal(schema.const);
    if (Array.isArray(schema.enum)) return union(schema.enum.map(literal));
    const choice = shapeParts(schema, "oneOf");
    const forms = choice.length > 0 ? choice : shapeParts(schema, "anyOf");
    if (forms.length > 0) {
      if (schema["x-shorthand"] !== undefined && !this.written)
        return this.read(forms.find((f) => f.type === "object" || f.properties !== undefined) ?? {});
      return union(forms.map((form) => this.read(form)));
    }
    const kinds = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type];
    return union(kinds.map((kind) => this.ofType(schema, kind as string | undefined)));
  }

  private ofType(schema: FactSchema, kind: string | undefined): TsType {
    switch (kind) {
      case "string":
        return ref("string");
      case "integer":
      case "number":
        return ref("number");
      case "boolean":
        return ref("boolean");
      case "null":
        return ref("null");
      case "array":
        return readonlyArray(this.read((schema.items ?? {}) as FactSchema));
      case "object":
        return schema.properties !== undefined ? this.object(schema) : this.map(schema);
      default:
        return schema.properties !== undefined ? this.object(schema) : UNKNOWN;
    }
  }

  protected object(schema: FactSchema): TsType {
    const required = new Set((schema.required ?? []) as string[]);
    const own = Object.entries(schema.properties as Record<string, FactSchema | boolean>).filter(
      (entry): entry is [string, FactSchema] => isOwnMember(entry[1]),
    );
    const members = own.map(([key, member]): TsMember => {
      const always =
        required.has(key) ||
        defaultOf(member) !== undefined ||
        member["x-derived"] !== undefined ||
        member["x-default"] !== undefined ||
        member["x-read"] !== undefined;
      const type = this.read(member);
      return {
        name: typeof member["x-name"] === "string" ? member["x-name"] : camelCase(key),
        type: always ? type : union([type, ref("null")]),
        readonly: true,
        doc: docOf(member),
      };
    });
    return object(members, null);
  }

  /** A map: its entries when `x-entries` or `x-entry` says so, else an index signature. */
  private map(schema: FactSchema): TsType {
    const item = this.read((schema.additionalProperties ?? {}) as FactSchema);
    const [key, value] = (this.written ? [] : (schema["x-entries"] ?? schema["x-entry"] ?? [])) as string[];
    if (key === undefined) return object([], item, true);
    const keyMember: TsMember = { name: key, type: ref("string"), readonly: true };
    const entry =
      value === undefined
        ? intersection([object([keyMember], null), item])
        : object([keyMember, { name: value, type: item, readonly: true }], null);
    return schema["x-entry"] !== undefined ? union([entry, ref("null")]) : readonlyArray(entry);
  }
}

/** The types of the facts as the spec writes them: keys kept, members the spec may leave out optional. */
class WrittenTypes extends FactTypes {
  protected override get written(): boolean {
    return true;
  }

  protected override object(schema: FactSchema): TsType {
    const required = new Set((schema.required ?? []) as string[]);
    const own = Object.entries(schema.properties as Record<string, FactSchema | boolean>).filter(
      (entry): entry is [string, FactSchema] => isOwnMember(entry[1]),
    );
    const members = own.map(
      ([key, member]): TsMember => ({
        name: key,
        type: this.read(member),
        optional: !required.has(key),
        readonly: true,
        doc: docOf(member),
      }),
    );
    return object(members, null);
  }
}

/** The doc comment of a schema: its description (else its definition's), then what fills it when left out. */
function docOf(schema: FactSchema): string[] {
  const own = schema.description ?? referenced(schema)?.definition.description;
  const lines = typeof own === "string" ? [own] : [];
  const fallback = defaultOf(schema);
  if (typeof schema["x-derived"] === "string") lines.push(`Never written in the spec: ${schema["x-derived"]}.`);
  else if (typeof schema["x-default"] === "string") lines.push(`Left out: ${schema["x-default"]}.`);
  else if (fallback !== undefined && !isEmpty(fallback)) lines.push(`Default: \`${JSON.stringify(fallback)}\`.`);
  return lines;
}

function isEmpty(value: unknown): boolean {
  return (
    (Array.isArray(value) && value.length === 0) ||
    (value !== null && typeof value === "object" && Object.keys(value).length === 0) ||
    value === false
  );
}
