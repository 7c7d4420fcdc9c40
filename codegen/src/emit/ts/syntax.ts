/**
 * The one way each kind of spec text enters TypeScript or JavaScript source.
 * Every emitter writes a string from the spec through exactly one of these,
 * chosen by where it lands: a string literal ({@link tsString}), a property
 * key ({@link propertyKey}), a doc comment ({@link docComment},
 * {@link docLine}), a `//` comment ({@link commentLine}) or an msw route
 * ({@link mswPath}). Identifiers are never made from spec text here: the IR
 * derives them from names it has checked (`ir/name-sources.ts`).
 */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Characters that change how source reads or where a line ends: C0 and C1
 * controls, DEL, the line and paragraph separators (line terminators in
 * JavaScript) and the bidirectional controls (which make source display
 * differently than it runs).
 */
const UNSAFE_IN_COMMENT = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function escapeUnsafe(c: string): string {
  if (c === "\n") return "\\n";
  if (c === "\r") return "\\r";
  if (c === "\t") return "\\t";
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** True when `name` can be written bare as a property key. */
export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

/**
 * A string literal in double quotes: JSON's escaping (quotes, backslashes,
 * controls, lone surrogates) plus U+2028 and U+2029, which JSON leaves raw.
 */
export function tsString(value: string): string {
  const literal = JSON.stringify(value);
  return SEPARATORS.test(literal) ? literal.replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029") : literal;
}

const SEPARATORS = /[\u2028\u2029]/;

/** A property key of an object literal or type: bare when it is an identifier, else a string literal. */
export function propertyKey(name: string): string {
  return isIdentifier(name) ? name : tsString(name);
}

/**
 * Free text made safe for a `//` comment and for one line of a block comment:
 * the characters of {@link UNSAFE_IN_COMMENT} become `\n`, `\t` or `\uXXXX`,
 * and `*\/` can no longer close a comment. Other text is kept as is.
 */
export function commentLine(text: string): string {
  const safe = ANY_UNSAFE.test(text) ? text.replace(UNSAFE_IN_COMMENT, escapeUnsafe) : text;
  return safe.includes("*/") ? safe.replace(/\*\//g, "*\\/") : safe;
}

/** {@link UNSAFE_IN_COMMENT} without the global flag: a test that keeps no state. */
const ANY_UNSAFE = new RegExp(UNSAFE_IN_COMMENT.source);

/**
 * A `/** ... *\/` comment from lines of free text. Line breaks in the text
 * (LF, CR, CRLF) start new comment lines; every other unsafe character and
 * `*\/` are escaped as in {@link commentLine}; blank lines at either end are
 * dropped.
 *
 * @param indent - leading whitespace of the comment
 * @returns the comment with its trailing newline, or `""` when no line is left
 */
export function docComment(lines: readonly string[], indent = ""): string {
  if (lines.length === 1 && !/[\r\n]/.test(lines[0] as string)) {
    const line = commentLine(lines[0] as string).trim();
    return line === "" ? "" : `${indent}/**\n${indent} * ${line}\n${indent} */\n`;
  }
  const text = lines
    .flatMap((line) => line.replace(/\r\n?/g, "\n").split("\n"))
    .map((line) => commentLine(line).trimEnd());
  while (text.length > 0 && text[text.length - 1] === "") text.pop();
  while (text.length > 0 && text[0] === "") text.shift();
  if (text.length === 0) return "";
  return `${indent}/**\n${text.map((line) => (line === "" ? `${indent} *` : `${indent} * ${line}`)).join("\n")}\n${indent} */\n`;
}

/** A one-line `/** text *\/` with its trailing newline; line breaks in `text` are escaped, not kept. */
export function docLine(text: string, indent = ""): string {
  return `${indent}/** ${commentLine(text)} */\n`;
}

/**
 * An OpenAPI path template as an msw route: `{name}` becomes `:name`. The
 * result is a string value: write it with {@link tsString}.
 */
export function mswPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => `:${name}`);
}
