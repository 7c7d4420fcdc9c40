/**
 * Keeps server-provided text from driving the terminal. A scope id, an error
 * message or any other string the server sent may hold ESC, CSI or OSC
 * sequences (colours, cursor moves, window titles, hyperlinks, clipboard
 * writes) or characters that reorder or break the displayed line; printed raw,
 * they act on the operator's terminal. Human output shows them as visible
 * escapes instead: `\x1b`, `\x9b`, `\n`, `\u{202e}`. Backslashes are left as
 * they are, so the escaped text is for reading; `--json` carries exact values.
 */

/**
 * C0 controls, DEL, C1 controls, the line and paragraph separators, the
 * bidirectional formatting characters (marks, the Arabic letter mark,
 * embeddings, overrides, isolates), and the invisible ones that can hide or
 * split text unseen (soft hyphen, combining grapheme joiner, Mongolian vowel
 * separator, zero-width space, word joiner and the invisible operators, the
 * Hangul fillers, byte order mark, interlinear annotation marks, and the tag
 * characters U+E0000-E007F, which can carry a whole hidden ASCII text; the
 * few subdivision flag emoji built from them show as escapes).
 */
const ABOVE_C0 =
  "\\u007f-\\u009f\\u00ad\\u034f\\u061c\\u115f\\u1160\\u180e\\u200b\\u2028\\u2029\\u200e\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\u3164\\ufeff\\uffa0\\ufff9-\\ufffb\\u{e0000}-\\u{e007f}";
const UNSAFE = new RegExp(`[\\u0000-\\u001f${ABOVE_C0}]`, "gu");

/** SGR colour sequences the CLI's own palette writes (`ESC [ params m`). */
// eslint-disable-next-line no-control-regex
const SGR = /\x1b\[[0-9;]*m/g;

const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeOne(char: string): string {
  const code = char.codePointAt(0) as number;
  return NAMED[char] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u{${code.toString(16)}}`);
}

/** `text` with every unsafe character written as a visible escape. */
export function escapeControls(text: string): string {
  return text.replace(UNSAFE, escapeOne);
}

/** Like {@link escapeControls}, but keeps line breaks (for text of several lines, such as commander's help). */
export function escapeLines(text: string): string {
  return text.split("\n").map(escapeControls).join("\n");
}

/**
 * Like {@link escapeControls}, but keeps line breaks and SGR colour sequences.
 * The terminal applies it to every line it writes as a last line of defence:
 * server values are escaped before they are laid out, so a colour sequence or
 * a line break that survives here is the CLI's own.
 */
export function sanitizeLine(text: string): string {
  let result = "";
  let last = 0;
  for (const match of text.matchAll(SGR)) {
    result += escapeLines(text.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  return result + escapeLines(text.slice(last));
}

/** Deepest level {@link terminalSafe} copies; wire objects of the contract are far shallower. */
const MAX_DEPTH = 32;

/**
 * A copy of a wire value with {@link escapeControls} applied to every string
 * (object keys included), for human layouts. Numbers, booleans and null are
 * kept; levels below 32 are replaced by the text `[nested too deep]`.
 */
export function terminalSafe<T>(value: T): T {
  return copy(value, 0) as T;
}

function copy(value: unknown, depth: number): unknown {
  if (typeof value === "string") return escapeControls(value);
  if (typeof value !== "object" || value === null) return value;
  if (depth >= MAX_DEPTH) return "[nested too deep]";
  if (Array.isArray(value)) return value.map((item) => copy(item, depth + 1));
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(result, escapeControls(key), {
      value: copy(item, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return result;
}

/** Characters JSON.stringify leaves raw that a terminal may still act on: the set above without C0, which it escapes itself. */
const JSON_UNSAFE = new RegExp(`[${ABOVE_C0}]`, "gu");

/**
 * `JSON.stringify` output with the characters above written as `\uXXXX`
 * escapes: still valid JSON that parses to the same value, and nothing in it
 * that a terminal interprets.
 */
export function escapeJsonText(json: string): string {
  // A tag character is two UTF-16 code units: JSON spells it as two escapes.
  return json.replace(JSON_UNSAFE, (char) =>
    char
      .split("")
      .map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`)
      .join(""),
  );
}
