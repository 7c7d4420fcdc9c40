import { InvalidResponseError } from "../errors.js";

/**
 * True when `value` is a number beyond ±(2^53-1) or holds one. An unsafe
 * integer literal always parses to one, so a value without one comes from a
 * text without one; walking the value is cheaper than scanning the text.
 */
function holdsLargeNumber(value: unknown): boolean {
  // Leaves, most of a body, are told here; this function is small enough for engines to inline in the loops below.
  return typeof value === "object"
    ? value !== null && containsLargeNumber(value)
    : typeof value === "number" && !(value <= Number.MAX_SAFE_INTEGER && value >= -Number.MAX_SAFE_INTEGER);
}

/** {@link holdsLargeNumber} of an object's member values or an array's items. */
function containsLargeNumber(value: object): boolean {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (holdsLargeNumber(value[i])) return true;
    return false;
  }
  for (const key in value) if (holdsLargeNumber((value as Record<string, unknown>)[key])) return true;
  return false;
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
 * and are left alone. `parseJson` calls it only for a text that is not JSON or
 * whose value holds a number that large, so ordinary bodies never pay for it.
 */
export function findUnsafeInteger(text: string): string | null {
  // Strings are skipped whole; a number with a fraction or exponent is not an integer.
  // An integer literal beyond ±(2^53-1) converts to a number beyond it (rounding never crosses 2^53).
  for (const [literal] of text.matchAll(STRING_OR_NUMBER))
    if (/^-?\d+$/.test(literal) && !Number.isSafeInteger(+literal)) return literal;
  return null;
}

/** An `InvalidResponseError` with the message `response <issue>` and `issue` as its only issue. */
export function invalidBody(issue: string, context: ResponseContext): InvalidResponseError {
  return new InvalidResponseError(`response ${issue}`, { ...context, issues: [issue] });
}

/**
 * A `\u` escape of a UTF-16 surrogate (D800-DFFF): how a JSON text spells a
 * lone surrogate. It also matches `\U`, which no valid JSON text holds.
 */
const SURROGATE_ESCAPE = /\\ud[89a-f]/i;

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
 * @param scrub removes secrets from the integer literal an issue quotes
 *   (applied before the literal is cut to 40 characters); default: none.
 * @throws InvalidResponseError (with the status and request id) on a syntax
 *   error, an integer literal outside ±(2^53-1) or a lone surrogate.
 */
export function parseJson(text: string, context: ResponseContext, scrub?: (text: string) => string): unknown {
  // No JSON text parses to Infinity: it stands for "not JSON", and is a large number.
  let value: unknown = Infinity;
  try {
    // includes() is far cheaper than the regex and rules out most bodies (no `\u` escape at all).
    value = JSON.parse(text, text.includes("\\u") && SURROGATE_ESCAPE.test(text) ? wellFormed : undefined);
  } catch {
    // reported below, after an unsafe integer
  }
  // A value too deep to walk (RangeError) has its text scanned.
  let suspect = true;
  try {
    suspect = holdsLargeNumber(value);
  } catch {
    // scanned
  }
  const found = suspect ? findUnsafeInteger(text) : null;
  if (found !== null) {
    // Secrets out before the cut: a cut secret would no longer be recognised.
    const unsafe = scrub === undefined ? found : scrub(found);
    throw invalidBody(
      `integer ${unsafe.length > 40 ? `${unsafe.slice(0, 40)}...` : unsafe} is outside ±(2^53-1)`,
      context,
    );
  }
  if (value === Infinity) throw invalidBody("body is not valid JSON", context);
  return value;
}
