import { accessFacts } from "./facts.js";

/**
 * The text rule of the release's access targets: an id is a string that is not
 * blank, equals itself with the whitespace around it removed, and has at most a
 * given number of code points. "Whitespace" is the set Python's `str.strip()`
 * removes (`x-powercontext-access-policy.whitespace`), which is not JavaScript's
 * `trim()` set (Python's strips U+001C..U+001F and U+0085 and keeps U+FEFF);
 * lengths count code points, so an astral character is one.
 */

const WHITESPACE: ReadonlySet<number> = new Set(accessFacts.policy.whitespace);

/** `text` without the policy's whitespace at either end (Python's `str.strip()`). */
export function pythonStrip(text: string): string {
  const points = [...text];
  let start = 0;
  let end = points.length;
  while (start < end && WHITESPACE.has(points[start]?.codePointAt(0) ?? -1)) start += 1;
  while (end > start && WHITESPACE.has(points[end - 1]?.codePointAt(0) ?? -1)) end -= 1;
  return points.slice(start, end).join("");
}

/** True when `value` is a string the release accepts as an id of at most `maximum` code points. */
export function validId(value: unknown, maximum: number): value is string {
  if (typeof value !== "string") return false;
  const stripped = pythonStrip(value);
  return stripped !== "" && stripped === value && [...value].length <= maximum;
}
