import { patternFlags, type Json } from "../../domain/types.js";
import { data } from "./js-text.js";

/**
 * Converts a draft-07 schema (as `ir/json-schema.ts` produces it) into the
 * compact form the runtime compiles (`@powercontext/runtime/validation`,
 * `schema-node.ts`): short keys for the frequent keywords, types as letters,
 * properties as flat name/schema pairs, and `$ref` as a reference to the
 * definition it names. Keywords outside the subset fail generation instead
 * of being ignored; annotations (`description`, `default`, `readOnly`, ...)
 * are dropped, as they never changed what a value is.
 */

/** A compact schema: a node, a boolean schema, or a reference to a definition by key. */
export type Compact = CompactNode | boolean | CompactRef;

/** A reference to the definition `key` (`#/definitions/<key>`). */
export interface CompactRef {
  readonly ref: string;
}

/** One node: its members in emission order; a member's value is data, a schema, a list of schemas, or name/schema pairs. */
export interface CompactNode {
  readonly members: readonly [key: string, value: CompactValue][];
}

/**
 * A member's value. `json` is data written as it is (enum values, const, numbers,
 * strings), `text` its JavaScript expression, written once here for every use.
 */
export type CompactValue =
  | { readonly json: unknown; readonly text: string }
  | { readonly schema: Compact }
  | { readonly schemas: readonly Compact[] }
  | { readonly pairs: readonly [name: string, schema: Compact][] }
  | { readonly format: readonly [name: string, source: string, flags: string]; readonly text: string }
  | { readonly handlers: readonly string[] };

/**
 * The keywords the runtime checks through a handler the node names (`k`), by
 * their compact keys, in ajv's order of checking them (the runtime follows the
 * order of `k`); the handler of `anyOf` is the runtime's `anyOfKeyword`, that
 * of `$` (a `$ref` beside other keywords) `refKeyword`. A bundle then carries
 * the handlers of the schemas it holds.
 */
export const HANDLED_KEYWORDS = [
  "$",
  "const",
  "enum",
  "exclusiveMaximum",
  "exclusiveMinimum",
  "multipleOf",
  "format",
  "uniqueItems",
  "not",
  "anyOf",
  "oneOf",
  "allOf",
  "if",
] as const;

/** The runtime's export that checks `keyword` (one of {@link HANDLED_KEYWORDS}). */
export function keywordHandler(keyword: string): string {
  return `${keyword === "$" ? "ref" : keyword}Keyword`;
}

/** Keywords ajv would enforce that the runtime does not implement: refusing beats ignoring. */
const UNSUPPORTED = new Set([
  "contains",
  "additionalItems",
  "dependentRequired",
  "dependentSchemas",
  "unevaluatedProperties",
  "unevaluatedItems",
  "$data",
  "patternProperties",
  "propertyNames",
  "dependencies",
]);

const TYPE_LETTERS: Readonly<Record<string, string>> = {
  object: "o",
  array: "a",
  string: "s",
  integer: "i",
  number: "n",
  boolean: "b",
  null: "z",
};

/** Numeric keywords: draft-07 name -> compact key. */
const NUMBERS: readonly [keyword: string, key: string][] = [
  ["minLength", "n"],
  ["maxLength", "x"],
  ["minimum", "g"],
  ["maximum", "l"],
  ["exclusiveMinimum", "exclusiveMinimum"],
  ["exclusiveMaximum", "exclusiveMaximum"],
  ["multipleOf", "multipleOf"],
  ["minProperties", "minProperties"],
  ["maxProperties", "maxProperties"],
  ["minItems", "minItems"],
  ["maxItems", "maxItems"],
];

/** The place of each numeric keyword in {@link NUMBERS}. */
const NUMBER_PLACE = new Map(NUMBERS.map(([keyword], place) => [keyword, place]));

const DEFINITIONS = "#/definitions/";

/**
 * `required` as the runtime reads it: a bit mask over the declared properties
 * (bit i for the i-th of `properties`) when every required name is one of the
 * first 31 properties and they are listed in the same order (so the first
 * missing member reported stays ajv's), else the names themselves. The mask
 * spares writing every required name twice.
 */
function requiredMask(required: readonly string[], names: readonly string[]): number | readonly string[] {
  const indexes = required.map((name) => names.indexOf(name));
  const ordered = indexes.every(
    (index, i) => index >= 0 && index < 31 && (i === 0 || index > (indexes[i - 1] as number)),
  );
  return ordered ? indexes.reduce((mask, index) => mask | (1 << index), 0) : required;
}

function refKey(ref: string): string {
  if (!ref.startsWith(DEFINITIONS)) throw new Error(`validator emitter: unsupported $ref "${ref}"`);
  return ref.slice(DEFINITIONS.length);
}

function finite(value: unknown, keyword: string): number {
  if (typeof value !== "number" || !Number.isFinite(value))
    throw new Error(`validator emitter: "${keyword}" must be a finite number`);
  return value;
}

/**
 * The type letters of an `items` schema written in place whose types are all
 * scalar, or null: ajv then compares only the items of those types, by value,
 * for `uniqueItems`, and reports another pair than when it compares every two
 * items (a referenced items schema, or one without types). The runtime needs
 * the difference to report ajv's pair.
 */
function scalarItemTypes(items: unknown): string | null {
  if (items === null || typeof items !== "object" || Array.isArray(items)) return null;
  const type = (items as Json).type;
  const types = (Array.isArray(type) ? type : type === undefined ? [] : [type]) as unknown[];
  const letters = types.map((name) => (typeof name === "string" ? TYPE_LETTERS[name] : undefined));
  return letters.length > 0 && letters.every((letter) => letter !== undefined && letter !== "o" && letter !== "a")
    ? letters.join("")
    : null;
}

/**
 * The compact form of one draft-07 schema.
 *
 * @param formats regular expression per format name; `true` (or absent) means annotation only.
 * @param known the compact form of each schema object compacted before (a schema object met again,
 *   as converted schemas share the parts that read alike on both sides of the wire, is compacted once);
 *   the results then share those parts too.
 * @throws Error for a keyword the runtime does not implement, a malformed
 *   value, or a pattern that is no regular expression.
 */
export function compactSchema(
  schema: unknown,
  formats: Readonly<Record<string, RegExp | true>>,
  known?: Map<object, Compact>,
): Compact {
  if (schema === true || schema === false) return schema;
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return false;
  let compact = known?.get(schema);
  if (compact === undefined) {
    compact = compactNode(schema as Json, formats, known);
    known?.set(schema, compact);
  }
  return compact;
}

/** A data member's value with its text. */
function json(value: unknown): CompactValue {
  return { json: value, text: data(value) };
}

/** The keywords {@link HANDLED_KEYWORDS} names, for a quick test of a member's key. */
const HANDLED = new Set<string>(HANDLED_KEYWORDS);

const COMBINATORS = ["allOf", "anyOf", "oneOf"] as const;

function compactNode(s: Json, formats: Readonly<Record<string, RegExp | true>>, known?: Map<object, Compact>): Compact {
  // One pass over the node's own keywords: the refused ones, the numeric ones (written in the order of NUMBERS).
  let keywords = 0;
  let numbers: (readonly [key: string, value: number])[] | undefined;
  for (const keyword in s) {
    keywords += 1;
    const value = s[keyword];
    if (value === undefined) continue;
    if (UNSUPPORTED.has(keyword)) throw new Error(`validator emitter: "${keyword}" is not supported`);
    const place = NUMBER_PLACE.get(keyword);
    if (place !== undefined)
      (numbers ??= [])[place] = [(NUMBERS[place] as [string, string])[1], finite(value, keyword)];
  }
  const sub = (value: unknown) => compactSchema(value, formats, known);
  const members: [string, CompactValue][] = [];
  // An object without additional members has the type letter `O`, which spares writing `A: false` on most objects.
  let closed = false;
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as unknown[]) : [s.type];
    let letters = "";
    for (const type of types) {
      const letter = typeof type === "string" ? TYPE_LETTERS[type] : undefined;
      if (letter === undefined) throw new Error(`validator emitter: unknown JSON Schema type "${String(type)}"`);
      const closes: boolean = letter === "o" && !closed && s.additionalProperties === false;
      closed ||= closes;
      letters += closes ? "O" : letter;
    }
    if (letters.length > 0) members.push(["t", json(letters)]);
  }
  // An enum of scalars is compared in place (`e`); one holding an object or array needs structural equality (a handler).
  if (Array.isArray(s.enum))
    members.push([s.enum.some((value) => value !== null && typeof value === "object") ? "enum" : "e", json(s.enum)]);
  if (s.const !== undefined) members.push(["const", json(s.const)]);
  if (typeof s.$ref === "string") {
    const ref: CompactRef = { ref: refKey(s.$ref) };
    // A schema that is only a reference is the referenced schema itself.
    if (keywords === 1) return ref;
    members.push(["$", { schema: ref }]);
  }
  for (const keyword of COMBINATORS) {
    if (Array.isArray(s[keyword])) members.push([keyword, { schemas: (s[keyword] as unknown[]).map(sub) }]);
  }
  // `{ allOf: [X] }` alone (how a nullable reference reads) is X.
  if (members.length === 1 && members[0]?.[0] === "allOf" && keywords === 1) {
    const only = members[0][1];
    if ("schemas" in only && only.schemas.length === 1) return only.schemas[0] as Compact;
  }
  if (s.not !== undefined) members.push(["not", { schema: sub(s.not) }]);
  if (s.if !== undefined && (s.then !== undefined || s.else !== undefined)) {
    members.push(["if", { schema: sub(s.if) }]);
    if (s.then !== undefined) members.push(["then", { schema: sub(s.then) }]);
    if (s.else !== undefined) members.push(["else", { schema: sub(s.else) }]);
  }
  const names = s.properties === undefined ? [] : Object.keys(s.properties as Json);
  const pairs = names.map((name): [string, Compact] => [name, sub((s.properties as Json)[name])]);
  if (Array.isArray(s.required) && s.required.length > 0)
    members.push(["r", json(requiredMask(s.required as string[], names))]);
  if (pairs.length > 0) members.push(["P", { pairs }]);
  if (s.additionalProperties !== undefined && s.additionalProperties !== true && !closed)
    members.push(["A", { schema: sub(s.additionalProperties) }]);
  if (numbers !== undefined)
    for (const number of numbers) if (number !== undefined) members.push([number[0], json(number[1])]);
  if (typeof s.pattern === "string") {
    const flags = patternFlags(s.pattern);
    // The loader refuses such a pattern with its pointer; reaching here is a bug.
    if (flags === null) throw new Error(`validator emitter: invalid pattern ${JSON.stringify(s.pattern)}`);
    members.push(["p", json(s.pattern)]);
    if (flags !== "u") members.push(["pf", json(flags)]);
  }
  if (typeof s.format === "string") {
    const regex = formats[s.format];
    if (regex instanceof RegExp) {
      const format = [s.format, regex.source, regex.flags] as const;
      members.push(["format", { format, text: data(format) }]);
    }
  }
  if (Array.isArray(s.items))
    throw new Error("validator emitter: tuple `items` (an array of schemas) is not supported");
  if (s.items !== undefined) members.push(["I", { schema: sub(s.items) }]);
  if (s.uniqueItems === true) members.push(["uniqueItems", json(scalarItemTypes(s.items) ?? true)]);
  if (members.some((member) => HANDLED.has(member[0]))) {
    const handled = HANDLED_KEYWORDS.filter((keyword) => members.some((member) => member[0] === keyword));
    members.push(["k", { handlers: handled.map(keywordHandler) }]);
  }
  return { members };
}
