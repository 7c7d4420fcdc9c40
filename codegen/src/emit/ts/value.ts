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
  switch (typeof value) {
    case "string":
      return tsString(value);
    case "number":
    case "boolean":
      return String(value);
  }
  if (value === null) return "null";
  if (value instanceof Expression) return value.text;
  const inner = `${indent}  `;
  const separator = lines > 0 ? `,\n${inner}` : ", ";
  let out = "";
  let count = 0;
  if (Array.isArray(value)) {
    for (const item of value) out += (count++ === 0 ? "" : separator) + tsValue(item, lines - 1, inner);
    if (count === 0) return "[]";
    return lines > 0 ? `[\n${inner}${out},\n${indent}]` : `[${out}]`;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const member = record[key];
    if (member === undefined || !Object.hasOwn(record, key)) continue;
    out += count++ === 0 ? "" : separator;
    out +=
      member instanceof Expression && member.text === key
        ? key
        : `${keyText(key)}: ${tsValue(member, lines - 1, inner)}`;
  }
  if (count === 0) return "{}";
  return lines > 0 ? `{\n${inner}${out},\n${indent}}` : `{ ${out} }`;
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
