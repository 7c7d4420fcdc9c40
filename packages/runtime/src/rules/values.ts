import type { RuleCondition, RuleScalar } from "./rule-types.js";

/** A JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Every value a path reaches from `value` (`[]` steps into each item of a list; an absent or null step reaches none). */
export function valuesAt(value: unknown, path: readonly string[]): unknown[] {
  let found: unknown[] = [value];
  for (const step of path) {
    const next: unknown[] = [];
    for (const item of found) {
      if (step === "[]") {
        if (Array.isArray(item)) next.push(...item);
      } else if (isRecord(item) && item[step] !== undefined && item[step] !== null) next.push(item[step]);
    }
    found = next;
  }
  return found;
}

/** The first value at a path, or null. */
export function valueAt(value: unknown, path: readonly string[]): unknown {
  return valuesAt(value, path)[0] ?? null;
}

/** True when the condition holds on `object` (a missing step reads as null). */
export function conditionHolds(object: unknown, when: RuleCondition): boolean {
  const value = valueAt(object, when.path) as RuleScalar;
  return when.in !== null ? when.in.includes(value) : !(when.notIn ?? []).includes(value);
}

/** The property a member names (`tags[]` and `metadata{*}` name `tags` and `metadata`). */
export function propertyOf(member: string): string {
  return member.replace(/(\[\]|\{\}|\{\*\})$/, "");
}

/**
 * The strings a member holds in `object`: the member itself, each item (`name[]`), each
 * key (`name{}`) or each value (`name{*}`); values that are no strings are left out.
 */
export function stringsOf(object: Readonly<Record<string, unknown>>, member: string): string[] {
  const value = object[propertyOf(member)];
  let found: unknown[];
  if (member.endsWith("[]")) found = Array.isArray(value) ? value : [];
  else if (member.endsWith("{}")) found = isRecord(value) ? Object.keys(value) : [];
  else if (member.endsWith("{*}")) found = isRecord(value) ? Object.values(value) : [];
  else found = [value];
  return found.filter((item): item is string => typeof item === "string");
}

/** The characters Python's `str.isspace()` is true for: what `str.strip()` removes (no BOM, unlike `\s`). */
const SPACE =
  "[\\t\\n\\v\\f\\r\\u001c-\\u001f \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const LEADING = new RegExp(`^${SPACE}+`, "u");
const TRAILING = new RegExp(`${SPACE}+$`, "u");

/** `text` without the whitespace Python's `str.strip()` (or, `end` only, `rstrip()`) removes. */
export function strip(text: string, side: "both" | "end" = "both"): string {
  const end = text.replace(TRAILING, "");
  return side === "end" ? end : end.replace(LEADING, "");
}

/**
 * The comparison key of a string under Unicode NFC and case folding. JavaScript has no
 * `casefold()`; upper-casing before lower-casing folds what Python folds beyond
 * `lower()` for the common cases (`ß` and `ẞ` to `ss`, ligatures, final sigma).
 */
export function foldKey(text: string): string {
  return text.normalize("NFC").toUpperCase().toLowerCase().normalize("NFC");
}

/** JSON equality of two decoded values (object member order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]))
  );
}

/** The UTF-8 length of `text` in bytes. */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** A scalar listed in `values`. */
export function listed(values: readonly RuleScalar[], value: unknown): boolean {
  return values.includes(value as RuleScalar);
}
