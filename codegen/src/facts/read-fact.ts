import { factDefinition, referenced, shapeParts, type FactSchema } from "./schema.js";

/**
 * Reads an extension's value, already checked against its schema, into the form
 * the IR carries it in, which the generated fact types describe
 * (`fact-types.ts`): member names camelCased (or the schema's `x-name`), a member
 * left out filled from its `default` (read the same way) or else null, a map marked
 * `x-entries` turned into the list of its entries and one marked `x-entry` into its
 * one entry, the string form of a choice expanded by the choice's `x-shorthand`, a
 * choice between objects read as the branch its discriminating members name, the parts
 * of an `allOf` merged in their order.
 * A member the schema marks `x-derived`, `x-default` or `x-read` is left for the
 * caller to fill (`x-derived`, `x-default`: from other facts; `x-read`: in another
 * shape); it keeps its place in the object, so every fact reads in the schema's
 * member order.
 *
 * @param definition - the name of the value's definition in the schema (`resource-use`)
 */
export function readFact(definition: string, value: unknown): unknown {
  return read(factDefinition(definition), value);
}

function read(schema: FactSchema, value: unknown): unknown {
  if (schema["x-read"] !== undefined) return value ?? null;
  const target = referenced(schema);
  if (target !== undefined) return read(target.definition, value);
  const parts = shapeParts(schema, "allOf");
  if (parts.length > 0 && isRecord(value)) return Object.assign({}, ...parts.map((part) => read(part, value)));
  const shorthand = schema["x-shorthand"];
  if (typeof value === "string" && shorthand !== undefined) return read(objectForm(schema), expand(shorthand, value));
  if (Array.isArray(value)) return value.map((item) => read((schema.items ?? {}) as FactSchema, item));
  if (value === null || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  if (schema.properties !== undefined) return readObject(schema.properties as Record<string, FactSchema>, record);
  if (schema.oneOf !== undefined) {
    if (shorthand !== undefined) return read(objectForm(schema), value);
    const form = branchOf(schema.oneOf as FactSchema[], record);
    return form === undefined ? value : read(form, value);
  }
  const item = (schema.additionalProperties ?? {}) as FactSchema;
  const entries = Object.entries(record);
  const [key, valueName] = (schema["x-entries"] ?? schema["x-entry"] ?? []) as string[];
  if (key === undefined) return Object.fromEntries(entries.map(([name, v]) => [name, read(item, v)]));
  const asEntry = ([name, v]: [string, unknown]) =>
    valueName === undefined
      ? { [key]: name, ...(read(item, v) as object) }
      : { [key]: name, [valueName]: read(item, v) };
  return schema["x-entry"] !== undefined ? (entries.map(asEntry)[0] ?? null) : entries.map(asEntry);
}

function readObject(properties: Record<string, FactSchema>, value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(properties)) {
    if (!isOwnMember(member)) continue;
    const name = typeof member["x-name"] === "string" ? member["x-name"] : camelCase(key);
    const fallback = defaultOf(member);
    if (Object.hasOwn(value, key)) out[name] = read(member, value[key]);
    else if (fallback !== undefined) out[name] = read(member, fallback);
    else if (member["x-derived"] !== undefined || member["x-default"] !== undefined) out[name] = undefined;
    else out[name] = read(member, null);
  }
  return out;
}

/**
 * False for a member another definition of the object declares (`true`, or `x-part-of`):
 * a branch of a choice names it only to allow or narrow it.
 */
export function isOwnMember(member: FactSchema | boolean): member is FactSchema {
  return typeof member === "object" && member["x-part-of"] === undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The branch of a choice between objects that `value` is: the first whose required members
 * with a `const` or `enum` (the discriminator, such as a rule's `rule`) all hold the value's.
 */
function branchOf(forms: readonly FactSchema[], value: Record<string, unknown>): FactSchema | undefined {
  return forms.find((form) => {
    const required = (form.required ?? []) as string[];
    const members = Object.entries((form.properties ?? {}) as Record<string, FactSchema | boolean>);
    const tags = members.filter(
      ([key, m]) => required.includes(key) && typeof m === "object" && (m.const !== undefined || Array.isArray(m.enum)),
    );
    return (
      form.properties !== undefined &&
      tags.length > 0 &&
      tags.every(([key, m]) => {
        const tag = m as FactSchema;
        return tag.const !== undefined ? value[key] === tag.const : (tag.enum as unknown[]).includes(value[key]);
      })
    );
  });
}

/** A member's `default`, or its definition's (through `$ref`); undefined without one. */
export function defaultOf(member: FactSchema): unknown {
  return member.default ?? referenced(member)?.definition.default;
}

/** The object form of a choice between a string and an object (`oneOf` with `x-shorthand`). */
function objectForm(schema: FactSchema): FactSchema {
  const forms = (schema.oneOf ?? []) as FactSchema[];
  return forms.find((form) => form.type === "object" || form.properties !== undefined) ?? {};
}

/** The shorthand's template with `"$"` replaced by the string, at any depth. */
function expand(template: unknown, text: string): unknown {
  if (template === "$") return text;
  if (Array.isArray(template)) return template.map((item) => expand(item, text));
  if (template !== null && typeof template === "object")
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, expand(v, text)]));
  return template;
}

/** `snake_case` and `kebab-case` to `camelCase` (`raw-path-prefixes` -> `rawPathPrefixes`). */
export function camelCase(key: string): string {
  return key.replace(/[-_]([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
