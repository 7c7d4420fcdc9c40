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
  const parts: string[] = [];
  write(parts, value, lines, indent);
  return parts.join("");
}

/**
 * Writes {@link tsValue}'s text of `value` as pieces onto `parts`, joined once by
 * the caller: a large value is not built as a chain of concatenations.
 */
function write(parts: string[], value: unknown, lines: number, indent: string): void {
  switch (typeof value) {
    case "string":
      parts.push(tsString(value));
      return;
    case "number":
    case "boolean":
      parts.push(String(value));
      return;
  }
  if (value === null) {
    parts.push("null");
    return;
  }
  if (value instanceof Expression) {
    parts.push(value.text);
    return;
  }
  const inner = `${indent}  `;
  const separator = lines > 0 ? `,\n${inner}` : ", ";
  const array = Array.isArray(value);
  const start = parts.length;
  parts.push(lines > 0 ? `${array ? "[" : "{"}\n${inner}` : array ? "[" : "{ ");
  let count = 0;
  if (array) {
    for (const item of value) {
      if (count++ > 0) parts.push(separator);
      write(parts, item, lines - 1, inner);
    }
  } else {
    const record = value as Record<string, unknown>;
    for (const key in record) {
      const member = record[key];
      if (member === undefined || !Object.hasOwn(record, key)) continue;
      if (count++ > 0) parts.push(separator);
      if (member instanceof Expression && member.text === key) parts.push(key);
      else {
        parts.push(`${keyText(key)}: `);
        write(parts, member, lines - 1, inner);
      }
    }
  }
  if (count === 0) {
    parts.length = start;
    parts.push(array ? "[]" : "{}");
  } else parts.push(lines > 0 ? `,\n${indent}${array ? "]" : "}"}` : array ? "]" : " }");
}

const keys = new Map<string, string>();

/** A key as written: bare when it is an identifier or a whole number, else a string literal (remembered, since keys repeat). */
function keyText(key: string): string {
  let text = keys.get(key);
  if (text === undefined) {
    text = INDEX.test(key) ? key : propertyKey(key);
    if (keys.size < 10_000) keys.set(key, text);
  }
  return text;
}
