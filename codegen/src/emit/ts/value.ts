import { propertyKey, tsString } from "./syntax.js";

/** A key written bare as a number (an array index or a status: `200`). */
const INDEX = /^(0|[1-9][0-9]*)$/;

/** Code the emitter writes as is inside a value: an expression it built from checked names (`validators.flushMemoryRequest`), never spec text. */
export class Expression {
  constructor(readonly text: string) {}
}

/** An {@link Expression}. */
export function expression(text: string): Expression {
  return new Expression(text);
}

/**
 * A typed value as a TypeScript (and JavaScript) literal: objects as
 * `{ key: value, ... }`, arrays as
 * `[a, b]`, strings through `tsString`, numbers, booleans and null as
 * themselves, {@link Expression}s as their text (a member whose expression is
 * its own key in shorthand; keys bare when they are identifiers or whole numbers); members whose value is
 * `undefined` are left out, as JSON does. Objects and arrays nested less than
 * `lines` deep are written one member a line, indented two spaces a level;
 * deeper ones on one line. Every generated data module writes its values
 * through this function.
 *
 * @param lines - how many levels are written one member a line (0: the whole value on one line)
 */
export function tsValue(value: unknown, lines = 0, indent = ""): string {
  if (value instanceof Expression) return value.text;
  if (typeof value === "string") return tsString(value);
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  const inner = `${indent}  `;
  const nested = (v: unknown) => tsValue(v, lines - 1, inner);
  const parts = Array.isArray(value)
    ? value.map(nested)
    : Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) =>
          v instanceof Expression && v.text === k ? k : `${INDEX.test(k) ? k : propertyKey(k)}: ${nested(v)}`,
        );
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{ ", " }"];
  if (parts.length === 0) return Array.isArray(value) ? "[]" : "{}";
  if (lines <= 0) return `${open}${parts.join(", ")}${close}`;
  return `${open.trim()}\n${parts.map((p) => `${inner}${p},\n`).join("")}${indent}${close.trim()}`;
}
