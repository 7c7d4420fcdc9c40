import type { Members, Prepared } from "./prepared.js";
import { bound, fail, notInEnum, tooMany } from "./issue.js";
import type { SchemaCheck } from "./schema-node.js";
import { codePoints, pointerToken } from "./values.js";

/**
 * Checks a value against a prepared schema (`compile.ts`), in one of two
 * modes (docs/adr/0031-validators-fast-and-ordered.md). On the fast path
 * (each node's closure by its shape, {@link acceptorOf}, and the general
 * check with `at` null) it answers yes or no and records nothing; an object's
 * members are checked in one pass in the order the object holds them. On the ordered
 * path (`at` the JSON pointer of the value) the keywords are checked in
 * ajv's order and the first issue ajv reports is recorded (`issue.ts`). The
 * validator takes the fast path and, when it says no, the ordered one, which
 * alone runs when the JSON text writes an integral number as a float (only
 * it knows where each value sits).
 *
 * ajv's order, for the keywords of the compact form: the type first, unless
 * the node has one type whose group of keywords it uses (then the type is
 * checked with that group); `$ref`, `const`, `enum`, then the handlers of
 * `not`, `anyOf`, `oneOf`, `allOf`, `if`; then the groups by type: numbers
 * (maximum, minimum, exclusiveMaximum, exclusiveMinimum, multipleOf), strings
 * (maxLength, minLength, pattern, format), arrays (maxItems, minItems, items,
 * uniqueItems), objects (maxProperties, minProperties, required,
 * additionalProperties, properties).
 */

/** Type bits: what a value is ({@link typeBits}), what a node admits. The groups come first, in ajv's order. */
export const NUMBER = 1;
export const STRING = 2;
export const ARRAY = 4;
export const OBJECT = 8;
export const INTEGER = 16;
export const BOOLEAN = 32;
export const NULL = 64;
/** When `$` and const are checked: before enum (the handlers' group is 0 for any value, else a group bit). */
export const BEFORE_ENUM = -1;
/** Anything else: a number that is not finite, undefined, a function... (no JSON type). */
const OTHER = 128;
/** What a node without the `type` keyword admits: any value. */
export const ANY = 255;

const TYPE_NAMES: Readonly<Record<string, string>> = {
  o: "object",
  O: "object",
  a: "array",
  s: "string",
  i: "integer",
  n: "number",
  b: "boolean",
  z: "null",
};

/** The JSON pointers of the integral float literals of the text under validation, or null. */
let floats: ReadonlySet<string> | null = null;

/** Thrown by a check that stops the whole validation (a value nested too deep, `depth.ts`) after recording its issue. */
export const STOP = {};

/** The type bit of a value: one JSON type (NUMBER with INTEGER for an integral number), or OTHER. */
export function typeBits(value: unknown): number {
  // typeof compared with a literal, which engines turn into a type test.
  if (typeof value === "string") return STRING;
  if (typeof value === "object") return value === null ? NULL : Array.isArray(value) ? ARRAY : OBJECT;
  if (typeof value === "number")
    return Number.isInteger(value) ? NUMBER | INTEGER : Number.isFinite(value) ? NUMBER : OTHER;
  return typeof value === "boolean" ? BOOLEAN : OTHER;
}

/**
 * The ordered path from the root: checks `value` against `c` (null:
 * anything), recording the issue ajv reports first. False past the depth
 * limit.
 *
 * @param floatsAt the JSON pointers of the integral numbers the JSON text writes as floats, or null.
 */
export function checkInOrder(c: Prepared | null, value: unknown, floatsAt: ReadonlySet<string> | null): boolean {
  floats = floatsAt;
  try {
    return c === null || check(c, value, "");
  } catch (error) {
    if (error === STOP) return false;
    throw error;
  }
}

function typeIssue(c: Prepared, at: string | null): false {
  if (c.t === 0) return fail(at, "false schema", "boolean schema is false");
  const names = [...(c.s.t ?? "")].map((letter) => TYPE_NAMES[letter] as string);
  return fail(at, "type", `must be ${names.join(",")}`, { type: names.length === 1 ? names[0] : names });
}

/** The closures `h` of a node checked at `when` (BEFORE_ENUM, 0 after enum, or a group bit), in their order. */
function handlers(h: readonly (number | SchemaCheck)[], when: number, value: unknown, at: string | null): boolean {
  for (let i = 0; i < h.length; i += 2) if (h[i] === when && !(h[i + 1] as SchemaCheck)(value, at)) return false;
  return true;
}

/** Checks `value`, found at JSON pointer `at` (null on the fast path), against the prepared schema `c`. */
export function check(c: Prepared, value: unknown, at: string | null): boolean {
  let bits = typeBits(value);
  // An integral number the JSON text writes as a float is no integer.
  if (at !== null && floats?.has(at) === true) bits &= ~INTEGER;
  const late = c.late;
  // The fast path checks the type first in every case (the order of the checks changes no answer).
  if ((bits & c.t) === 0 && (late === 0 || at === null)) return typeIssue(c, at);
  const h = c.h;
  if (h !== null && !handlers(h, BEFORE_ENUM, value, at)) return false;
  const values = c.e;
  if (values !== null && !values.includes(value)) return notInEnum(at, values);
  if (h !== null && !handlers(h, 0, value, at)) return false;
  const k = c.k;
  if (k === 0) return true;
  const group = typeof value === "number" ? NUMBER : bits & (STRING | ARRAY | OBJECT);
  // ajv checks a lone type with its group of keywords: a group before it that the value is of runs first.
  const wrong = late !== 0 && (bits & late) === 0;
  if ((k & group) !== 0 && !(wrong && group > late)) {
    if (group === STRING) {
      const failed = stringFails(c, value as string);
      if (failed !== 0)
        return failed === 3
          ? fail(at, "pattern", `must match pattern "${c.s.p}"`, { pattern: c.s.p })
          : failed === 1
            ? tooMany(at, "maxLength", c.x, "characters")
            : tooMany(at, "minLength", c.n, "characters");
    } else if (group === NUMBER) {
      const number = value as number;
      if (number > c.l) return bound(at, "maximum", "<=", c.l);
      if (number < c.g) return bound(at, "minimum", ">=", c.g);
    } else if (
      !(group === ARRAY
        ? itemsChecked(c, value as unknown[], at)
        : at === null
          ? (c.o as Members).a(value)
          : membersInOrder(c.o as Members, value as Record<string, unknown>, at))
    )
      return false;
    if (h !== null && !handlers(h, group, value, at)) return false;
  }
  return !wrong || typeIssue(c, at);
}

function itemsChecked(c: Prepared, a: readonly unknown[], at: string | null): boolean {
  const length = a.length;
  if (length > c.maxItems) return tooMany(at, "maxItems", c.maxItems, "items");
  if (length < c.minItems) return tooMany(at, "minItems", c.minItems, "items");
  const item = c.I;
  if (item !== null)
    for (let i = 0; i < length; i++)
      if (at === null ? !accepts(item, a[i]) : !check(item, a[i], `${at}/${i}`)) return false;
  return true;
}

/**
 * Checks `value` against `c` on the path `at` says: the node's fast-path
 * closure when `at` is null, else the ordered path (for the handlers of the
 * rarer keywords and references into a cycle).
 */
export function checkOn(c: Prepared, value: unknown, at: string | null): boolean {
  return at === null ? c.a(value) : check(c, value, at);
}

/** The fast path of a schema that admits any value. */
export const anything = (): boolean => true;

/**
 * The fast path (`Prepared.a`): whether a value matches `c`, recording
 * nothing (a value nested past the depth limit is refused, `depth.ts`). A
 * closure by the node's shape, built once when it is prepared: an object of
 * nothing but object keywords goes straight to its members, an array of
 * nothing but array keywords to its items; a leaf is checked by its kind
 * ({@link leafKind}); any other node goes through the general check.
 */
export function acceptorOf(c: Prepared): (value: unknown) => boolean {
  const { t, k } = c;
  if (c.h === null && c.e === null && t === k) {
    if (t === OBJECT) return (c.o as Members).a;
    if (t === ARRAY) return (value) => Array.isArray(value) && itemsAccepted(c, value);
  }
  return c.f === 0 ? (value) => check(c, value, null) : (value) => accepts(c, value);
}

/**
 * How the fast path checks a node in place (`Prepared.f`), which a member or
 * an item is checked by without calling a closure: 1 a plain string, 2 a
 * string of string keywords, 3 an enum of strings, 4 an integer, 5 any other
 * leaf (no closure, no object or array keyword); 0 by its closure (`Prepared.a`).
 */
export function leafKind(c: Omit<Prepared, "f" | "a">): number {
  const { t, k, e } = c;
  if (c.h !== null || (k & (ARRAY | OBJECT)) !== 0) return 0;
  if (t === STRING && e === null) return k === 0 ? 1 : 2;
  if (t === STRING && k === 0) return 3;
  return t === INTEGER && e === null ? 4 : 5;
}

/**
 * The fast path's check of a member or an item: a leaf in place by its kind
 * (one call site for every schema, which the engine can inline, where a call
 * through each node's closure would see hundreds of targets), else its closure.
 */
function accepts(c: Prepared, value: unknown): boolean {
  switch (c.f) {
    case 1:
      return typeof value === "string";
    case 2:
      return typeof value === "string" && stringFails(c, value) === 0;
    case 3:
      return typeof value === "string" && (c.e as unknown[]).includes(value);
    case 4:
      return typeof value === "number" && Number.isInteger(value) && !(value < c.g || value > c.l);
    case 5:
      return leafAccepted(c, value);
    default:
      return c.a(value);
  }
}

/** The fast path's array of nothing but items, minItems and maxItems: each item by its own closure. */
function itemsAccepted(c: Prepared, a: readonly unknown[]): boolean {
  const item = c.I;
  const length = a.length;
  if (length > c.maxItems || length < c.minItems) return false;
  if (item !== null) for (let i = 0; i < length; i++) if (!accepts(item, a[i])) return false;
  return true;
}

/**
 * The fast path's check of a leaf (a node with no closure and no object or
 * array keyword) of no particular kind; a number's type is told without
 * `typeBits`.
 */
function leafAccepted(c: Prepared, value: unknown): boolean {
  if (c.e !== null && !c.e.includes(value)) return false;
  if (typeof value === "string") return (c.t & STRING) !== 0 && ((c.k & STRING) === 0 || stringFails(c, value) === 0);
  return typeof value === "number"
    ? (c.t & (Number.isInteger(value) ? NUMBER | INTEGER : Number.isFinite(value) ? NUMBER : 0)) !== 0 &&
        !(value < c.g || value > c.l)
    : (typeBits(value) & c.t) !== 0;
}

/** The first string keyword of `c` that `text` fails, in ajv's order: 1 maxLength, 2 minLength, 3 pattern; 0 for none. */
function stringFails(c: Prepared, text: string): number {
  const length = text.length;
  // A string of at least 2n UTF-16 units has at least n code points: counting them is rarely needed.
  return length > c.x && codePoints(text) > c.x
    ? 1
    : length < 2 * c.n && codePoints(text) < c.n
      ? 2
      : c.p !== null && !c.p.test(text)
        ? 3
        : 0;
}

/**
 * The fast path's object: a closure that tells an object and checks, in one
 * pass, the members it has in the order it holds them (the declared order is
 * tried first).
 */
export function membersAcceptor(m: Omit<Members, "a">): (value: unknown) => boolean {
  const { names, required, parts, extra, min, max } = m;
  const need = m.order.length;
  return (o) => {
    if (typeof o !== "object" || o === null || Array.isArray(o)) return false;
    let next = 0;
    let present = 0;
    let size = 0;
    for (const key in o) {
      size++;
      let i: number | undefined = next;
      if (names[i] !== key && (i = names.indexOf(key)) < 0) {
        if (extra === false || (extra !== null && !accepts(extra, (o as Record<string, unknown>)[key]))) return false;
        continue;
      }
      next = i + 1;
      const value = (o as Record<string, unknown>)[key];
      if (value === undefined) continue;
      present += required[i] as number;
      const part = parts[i] as Prepared | null;
      if (part !== null && !accepts(part, value)) return false;
    }
    return present === need && size >= min && size <= max;
  };
}

/** The ordered path's object, keyword by keyword in ajv's order. */
function membersInOrder(m: Members, o: Record<string, unknown>, at: string): boolean {
  const { names, parts, extra } = m;
  const size = Object.keys(o).length;
  if (size > m.max) return tooMany(at, "maxProperties", m.max, "properties");
  if (size < m.min) return tooMany(at, "minProperties", m.min, "properties");
  for (const name of m.order)
    if (o[name] === undefined)
      return fail(at, "required", `must have required property '${name}'`, { missingProperty: name });
  if (extra !== null)
    for (const key in o) {
      const i = names.indexOf(key);
      if (i >= 0 && i < m.declared) continue;
      if (extra === false)
        return fail(at, "additionalProperties", "must NOT have additional properties", { additionalProperty: key });
      if (!check(extra, o[key], `${at}/${pointerToken(key)}`)) return false;
    }
  for (let i = 0; i < m.declared; i++) {
    const name = names[i] as string;
    const value = o[name];
    const part = parts[i] as Prepared | null;
    if (value !== undefined && part !== null && !check(part, value, `${at}/${pointerToken(name)}`)) return false;
  }
  return true;
}
