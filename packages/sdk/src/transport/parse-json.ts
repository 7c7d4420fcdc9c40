import { InvalidResponseError } from "../errors.js";

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Whole runs of 16+ digits (2^53-1 has 16, so shorter runs are always safe)
 * that look like integers: not after `. e E +` (fraction or exponent digits)
 * and not before `. e E` (a fraction or exponent follows).
 */
const LONG_INTEGER_RUN = /(?:^|[^.eE+\d])(\d{16,})(?![.eE\d])/g;

function isUnsafe(literal: string): boolean {
  const value = BigInt(literal);
  return value > MAX_SAFE || value < -MAX_SAFE;
}

/** Context for errors raised while decoding a response. */
export interface ResponseContext {
  statusCode: number;
  requestId: string | null;
}

/** One JSON token that can hold digits: a whole string, or a number literal. */
const STRING_OR_NUMBER = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * Returns the first integer literal in `text` (outside strings) whose value is
 * outside ±(2^53-1), or null. Such a literal would be silently rounded by
 * `JSON.parse`. Literals with a fraction or exponent are numbers, not integers,
 * and are left alone. A regular expression finds candidate digit runs first; the exact
 * token scan (which skips strings) runs only when a candidate is unsafe,
 * so ordinary bodies, long floats included, cost one regex pass.
 */
export function findUnsafeInteger(text: string): string | null {
  LONG_INTEGER_RUN.lastIndex = 0;
  let match: RegExpExecArray | null;
  do match = LONG_INTEGER_RUN.exec(text);
  while (match !== null && !isUnsafe(match[1] as string));
  if (match === null) return null;
  STRING_OR_NUMBER.lastIndex = 0;
  for (let token = STRING_OR_NUMBER.exec(text); token !== null; token = STRING_OR_NUMBER.exec(text)) {
    const literal = token[0];
    // Strings are skipped whole; a number with a fraction or exponent is not an integer.
    if (/^-?\d{16,}$/.test(literal) && isUnsafe(literal)) return literal;
  }
  return null;
}

/** An `InvalidResponseError` with the message `response <issue>` and `issue` as its only issue. */
export function invalidBody(issue: string, context: ResponseContext): InvalidResponseError {
  return new InvalidResponseError(`response ${issue}`, { ...context, issues: [issue] });
}

/** A `\u` escape of a UTF-16 surrogate (D800-DFFF): how a JSON text spells a lone surrogate. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** A surrogate that is not half of a pair (with the `u` flag a pair is one code point). */
const LONE_SURROGATE = /\p{Cs}/u;

/** A `JSON.parse` reviver that throws on a member name or string value holding a lone surrogate. */
function wellFormed(key: string, value: unknown): unknown {
  if (LONE_SURROGATE.test(key) || (typeof value === "string" && LONE_SURROGATE.test(value))) throw new SyntaxError();
  return value;
}

/**
 * Parses a JSON response body like a strict decoder: integers that a
 * JavaScript number cannot hold exactly are refused instead of rounded, and a
 * string (a value or a member name) holding a lone surrogate, such as
 * `"\ud800"`, is refused instead of kept (as not valid JSON). Strings are
 * checked (by a reviver) only when the text has a surrogate escape at all.
 *
 * @throws InvalidResponseError (with the status and request id) on a syntax
 *   error, an integer literal outside ±(2^53-1) or a lone surrogate.
 */
export function parseJson(text: string, context: ResponseContext): unknown {
  const unsafe = findUnsafeInteger(text);
  if (unsafe !== null) {
    throw invalidBody(`integer ${unsafe.length > 40 ? `${unsafe.slice(0, 40)}...` : unsafe} is outside ±(2^53-1)`, context);
  }
  try {
    return JSON.parse(text, SURROGATE_ESCAPE.test(text) ? wellFormed : undefined) as unknown;
  } catch {
    throw invalidBody("body is not valid JSON", context);
  }
}
