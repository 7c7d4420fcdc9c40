/**
 * Every naming rule of the generator: casing, escaping for TypeScript source and
 * comments, and collision-free identifiers. Emitters never build names themselves.
 */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "as implements interface let package private protected public static yield any boolean number string symbol " +
    "type from of await async undefined never unknown object bigint"
  ).split(" "),
);

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** `flush_memory` -> `flushMemory`, `get-topic.status` -> `getTopicStatus`; a leading digit gets `_`. */
export function camelCase(name: string): string {
  const result = words(name)
    .map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1)))
    .join("");
  return safeIdentifier(result);
}

/** `get_stats` -> `GetStats` (the upstream Python SDK's request type naming). */
export function pascalCase(name: string): string {
  return safeIdentifier(words(name).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(""));
}

function safeIdentifier(name: string): string {
  if (name.length === 0) return "_";
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

/** True when `name` can be written bare as a property key or variable. */
export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

/** A property key for an object literal or type: bare when possible, else a string literal. */
export function propertyKey(name: string): string {
  return isIdentifier(name) ? name : tsString(name);
}

/** A TypeScript/JavaScript string literal (double quotes; every character escaped as JSON does). */
export function tsString(value: string): string {
  return JSON.stringify(value).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** A variable name that is an identifier and not a reserved word. */
export function variableName(name: string): string {
  const base = name.replace(/[^A-Za-z0-9_$]/g, "_");
  const safe = safeIdentifier(base);
  return RESERVED.has(safe) ? `${safe}_` : safe;
}

/**
 * Makes names unique in the order they are requested: the first `x` stays `x`,
 * later ones become `x_2`, `x_3`, ... Deterministic when callers ask in a stable order.
 */
export class UniqueNames {
  private readonly taken = new Set<string>();

  constructor(reserved: Iterable<string> = []) {
    for (const name of reserved) this.taken.add(name);
  }

  /** Returns `wanted` or the first free `wanted_<n>`, and marks it taken. */
  claim(wanted: string): string {
    let candidate = wanted;
    for (let n = 2; this.taken.has(candidate); n += 1) candidate = `${wanted}_${n}`;
    this.taken.add(candidate);
    return candidate;
  }
}

/**
 * The body of a `/** ... *\/` comment from free text: `*\/` can no longer close the
 * comment, line breaks are kept (CRLF normalised), and every line gets the ` * ` prefix.
 *
 * @param indent - leading whitespace of the comment
 * @returns the full comment including delimiters, or `""` when there are no lines
 */
export function docComment(lines: readonly string[], indent = ""): string {
  const text = lines
    .flatMap((line) => line.replace(/\r\n?/g, "\n").split("\n"))
    .map((line) => line.replace(/\*\//g, "*\\/").trimEnd());
  while (text.length > 0 && text[text.length - 1] === "") text.pop();
  while (text.length > 0 && text[0] === "") text.shift();
  if (text.length === 0) return "";
  return `${indent}/**\n${text.map((line) => (line === "" ? `${indent} *` : `${indent} * ${line}`)).join("\n")}\n${indent} */\n`;
}

/**
 * Free text made safe for a single-line `//` comment (and for a block comment):
 * control characters (C0, DEL, C1), the line and paragraph separators U+2028 and
 * U+2029, and the bidirectional controls (which can make source read differently
 * than it runs) become `\n`, `\t` or `\uXXXX` escapes, and `*\/` can no longer
 * close a comment. Other text is kept as is.
 */
export function commentLine(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => {
      if (c === "\n") return "\\n";
      if (c === "\r") return "\\r";
      if (c === "\t") return "\\t";
      return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
    })
    .replace(/\*\//g, "*\\/");
}

/** OpenAPI path template to msw/path-to-regexp syntax: `/v1/ops/{operation_id}` -> `/v1/ops/:operation_id`. */
export function mswPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => `:${name}`);
}
