import { InvalidResponseError } from "../errors.js";

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Runs of 16+ digits: 2^53-1 has 16, so shorter runs are always safe. */
const LONG_DIGITS = /\d{16,}/g;

/** True when the digit run at [start, end) is a whole integer literal (no sign, fraction or exponent around it). */
function isIntegerRun(text: string, start: number, end: number): boolean {
  const before = text.charCodeAt(start - 1);
  const after = text.charCodeAt(end);
  // . e E + before: fraction or exponent digits; . e E after: a fraction or exponent follows.
  const fractionOrExponent = (code: number): boolean => code === 0x2e || code === 0x65 || code === 0x45;
  return !fractionOrExponent(before) && before !== 0x2b && !fractionOrExponent(after);
}

function isUnsafe(literal: string): boolean {
  const value = BigInt(literal);
  return value > MAX_SAFE || value < -MAX_SAFE;
}

/** Context for errors raised while decoding a response. */
export interface ResponseContext {
  statusCode: number;
  requestId: string | null;
}

/**
 * Returns the first integer literal in `text` (outside strings) whose value is
 * outside ±(2^53-1), or null. Such a literal would be silently rounded by
 * `JSON.parse`. Literals with a fraction or exponent are numbers, not integers,
 * and are left alone. A regular expression finds candidate digit runs first; the exact
 * character scan (which skips strings) runs only when a candidate is unsafe,
 * so ordinary bodies, long floats included, cost one regex pass.
 */
export function findUnsafeInteger(text: string): string | null {
  let suspicious = false;
  LONG_DIGITS.lastIndex = 0;
  for (let match = LONG_DIGITS.exec(text); match !== null; match = LONG_DIGITS.exec(text)) {
    const end = match.index + match[0].length;
    if (isIntegerRun(text, match.index, end) && isUnsafe(match[0])) {
      suspicious = true;
      break;
    }
  }
  if (!suspicious) return null;
  let index = 0;
  const length = text.length;
  while (index < length) {
    const char = text.charCodeAt(index);
    if (char === 0x22 /* " */) {
      index += 1;
      while (index < length) {
        const inner = text.charCodeAt(index);
        if (inner === 0x5c /* \ */) index += 2;
        else if (inner === 0x22) break;
        else index += 1;
      }
      index += 1;
      continue;
    }
    if (char === 0x2d /* - */ || (char >= 0x30 && char <= 0x39)) {
      const start = index;
      let integral = true;
      index += 1;
      while (index < length) {
        const next = text.charCodeAt(index);
        if (next >= 0x30 && next <= 0x39) index += 1;
        else if (next === 0x2e || next === 0x65 || next === 0x45 || next === 0x2b || next === 0x2d) {
          integral = false;
          index += 1;
        } else break;
      }
      const literal = text.slice(start, index);
      const digits = literal.startsWith("-") ? literal.length - 1 : literal.length;
      if (integral && digits >= 16 && isUnsafe(literal)) return literal;
      continue;
    }
    index += 1;
  }
  return null;
}

/**
 * Parses a JSON response body, refusing integers that a JavaScript number
 * cannot hold exactly instead of rounding them.
 *
 * @throws InvalidResponseError (with the status and request id) on a syntax
 *   error or an integer literal outside ±(2^53-1).
 */
export function parseJson(text: string, context: ResponseContext): unknown {
  const unsafe = findUnsafeInteger(text);
  if (unsafe !== null) {
    const shown = unsafe.length > 40 ? `${unsafe.slice(0, 40)}...` : unsafe;
    throw new InvalidResponseError(`response holds an integer outside the safe range: ${shown}`, {
      ...context,
      issues: [`integer ${shown} is outside ±(2^53-1)`],
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new InvalidResponseError("response body is not valid JSON", { ...context, issues: ["invalid JSON"] });
  }
}
