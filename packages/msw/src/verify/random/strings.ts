// Strings for random requests: lengths at the schema's bounds (the least, the most, just
// inside them) as often as typical ones, plain words, identifiers, text with spaces
// around it, non-ASCII text, dates. A string always meets its schema (length, pattern,
// format); a pattern plain text does not meet is met with randexp, driven by the same
// seeded stream. The faults (faults.ts) draw their out-of-bounds and off-pattern values
// here too.
import randexpModule from "randexp";
import type { Schema } from "./contract.js";
import type { Random } from "./rng.js";

/** randexp's class: the CommonJS module itself at run time, whatever its typings say. */
const RandExp = randexpModule as unknown as typeof randexpModule.default;

const WORDS = [
  "alpha",
  "note",
  "release",
  "memory",
  "plan",
  "draft",
  "task",
  "topic",
  "report",
  "notes",
  "app",
  "list",
];
/** Letters outside ASCII, all in the Basic Multilingual Plane (one code point each). */
const NON_ASCII = "äöüßéèñçøåłžšČĞİ東京大阪日本語テスト한국어Привет мир Ωμέγα";
const ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
/** Longest string drawn for a schema without maxLength. */
const UNBOUNDED = 300;
/** Length past which a text repeats a drawn piece. */
const LONG = 4096;

/** How a string is written. */
export type StringStyle = "plain" | "identifier" | "spaced" | "non-ascii";

/** What the generator knows about where the string goes. */
export interface StringContext {
  /** the member holds an id: typical values look like ids */
  readonly identifier: boolean;
  /** the string goes in a header: printable ASCII only, no spaces around it */
  readonly header: boolean;
}

function lengthBounds(schema: Schema): { min: number; max: number } {
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Math.max(min, UNBOUNDED);
  return { min, max };
}

/** A length: the least or the most allowed, one inside either, or a typical one. */
export function drawLength(rng: Random, schema: Schema, context: StringContext): number {
  const { min, max } = lengthBounds(schema);
  const roll = rng.float();
  if (roll < 0.15) return min;
  if (roll < 0.27 && typeof schema.maxLength === "number") return max;
  if (roll < 0.35) return Math.min(max, min + 1);
  if (roll < 0.42 && typeof schema.maxLength === "number") return Math.max(min, max - 1);
  const typical = context.identifier ? rng.int(8, 24) : rng.int(3, 40);
  return Math.max(min, Math.min(max, typical));
}

/** Text of exactly `length` code points in a style (no newlines; never starting or ending with a space unless spaced). */
export function textOfLength(rng: Random, length: number, style: StringStyle): string {
  if (length <= 0) return "";
  if (length > LONG) {
    // a long text repeats one drawn piece (megabytes of drawn characters would take seconds)
    const piece = [...textOfLength(rng, LONG, style === "spaced" ? "plain" : style)];
    const text = Array.from({ length }, (_, i) => piece[i % LONG]!);
    if (style === "spaced") [text[0], text[length - 1]] = [" ", " "];
    else if (text[length - 1] === " ") text[length - 1] = "x";
    return text.join("");
  }
  if (style === "spaced" && length >= 3) return ` ${textOfLength(rng, length - 2, "plain")} `;
  const out: string[] = [];
  if (style === "identifier") {
    const prefix = length >= 8 ? ["r", "n", "d", "-"] : [];
    out.push(...prefix);
    while (out.length < length) out.push(rng.pick([...ID_ALPHABET]));
    return out.join("");
  }
  const source = style === "non-ascii" ? [...NON_ASCII] : null;
  while (out.length < length) {
    if (source) {
      const start = rng.int(0, source.length - 1);
      out.push(...source.slice(start, start + rng.int(1, 6)));
    } else {
      out.push(...rng.pick(WORDS));
    }
    out.push(" ");
  }
  const text = out.slice(0, length);
  // no space at either end: a trimmed and an untrimmed server agree on it
  if (text[0] === " ") text[0] = "x";
  if (text[text.length - 1] === " ") text[text.length - 1] = "x";
  return text.join("");
}

function matches(pattern: RegExp | null, text: string): boolean {
  return pattern === null || pattern.test(text);
}

/** The schema's pattern as a JavaScript regular expression (unanchored, as JSON Schema reads it). */
export function patternOf(schema: Schema): RegExp | null {
  return typeof schema.pattern === "string" ? new RegExp(schema.pattern, "u") : null;
}

/** A string matching `pattern` with a length in [min, max], or null when randexp finds none in a few tries. */
function fromPattern(rng: Random, pattern: RegExp, min: number, max: number): string | null {
  const generator = new RandExp(pattern);
  generator.max = Math.max(1, Math.min(max, 64));
  generator.randInt = (low: number, high: number) => rng.int(low, high);
  for (let attempt = 0; attempt < 8; attempt++) {
    const text = generator.gen();
    const length = [...text].length;
    if (length >= min && length <= max && pattern.test(text)) return text;
  }
  return null;
}

function dateTime(rng: Random, schema: Schema): string {
  // far from today either way, so a date drawn in the future stays there for years
  const year = rng.pick([rng.int(2000, 2020), rng.int(2040, 2099)]);
  const two = (n: number) => String(n).padStart(2, "0");
  const date = `${year}-${two(rng.int(1, 12))}-${two(rng.int(1, 28))}`;
  if (schema.format === "date") return date;
  const zone = rng.pick(["Z", "Z", "+02:00", "-05:30"]);
  return `${date}T${two(rng.int(0, 23))}:${two(rng.int(0, 59))}:${two(rng.int(0, 59))}${zone}`;
}

/**
 * A string the schema accepts: an enum value, a date, or text of a drawn length and
 * style that meets minLength, maxLength and pattern.
 */
export function drawString(rng: Random, schema: Schema, context: StringContext): string {
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.filter((v): v is string => typeof v === "string");
    if (values.length > 0) return rng.pick(values);
  }
  if (schema.format === "date-time" || schema.format === "date") return dateTime(rng, schema);
  const length = drawLength(rng, schema, context);
  const roll = rng.float();
  let style: StringStyle = context.identifier ? "identifier" : "plain";
  if (!context.header && roll < 0.12) style = "spaced";
  else if (!context.header && roll < 0.25) style = "non-ascii";
  return fitString(rng, schema, length, style);
}

/**
 * Text of `length` code points in `style` that meets the schema's pattern; other
 * styles, then randexp, when the first does not.
 */
export function fitString(rng: Random, schema: Schema, length: number, style: StringStyle): string {
  const pattern = patternOf(schema);
  for (const candidate of [style, "plain", "identifier"] as const) {
    const text = textOfLength(rng, length, candidate);
    if (matches(pattern, text)) return text;
  }
  const { min, max } = lengthBounds(schema);
  return (pattern && fromPattern(rng, pattern, min, max)) ?? textOfLength(rng, length, "identifier");
}

/** Strings that commonly break a pattern: blanks, inner spaces, capitals, punctuation, non-ASCII. */
const OFF_PATTERN = [" ", "   ", "\t", "with space", " padded ", "UPPER_case", "a/b?c#d", "ünïcödé", "-", "x--y", "__"];

/**
 * A string of allowed length that the schema's pattern refuses, or null when none of the
 * candidates is one (the fault is then not applicable here).
 */
export function offPattern(rng: Random, schema: Schema): string | null {
  const pattern = patternOf(schema);
  if (pattern === null) return null;
  const { min, max } = lengthBounds(schema);
  const fits = (text: string) => [...text].length >= min && [...text].length <= max && !pattern.test(text);
  const found = OFF_PATTERN.map((text) => (min > [...text].length ? text.padEnd(min, text) : text)).filter(fits);
  return found.length === 0 ? null : rng.pick(found);
}
