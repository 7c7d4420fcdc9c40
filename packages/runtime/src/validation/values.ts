/**
 * Value helpers of the validators: code-point length, structural equality,
 * duplicate search, and the JSON pointer escape. Semantics follow ajv, which
 * the generator's differential test holds the validators equal to.
 */

/** The length of `s` in Unicode code points (a surrogate pair is one character), as `minLength`/`maxLength` count. */
export function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n--;
      i++;
    }
  }
  return n;
}

/** Structural equality of JSON values (member order does not matter), for `enum`, `const` and `uniqueItems`. */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!a || !b || typeof a !== "object" || typeof b !== "object") return Number.isNaN(a) && Number.isNaN(b);
  // An array's keys are its indexes: two arrays of one length with equal items at every index are equal.
  const keys = Object.keys(a);
  return (
    Array.isArray(a) === Array.isArray(b) &&
    keys.length === Object.keys(b).length &&
    keys.every(
      (key) => Object.hasOwn(b, key) && equal((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
    )
  );
}

/**
 * The first pair of equal items, as ajv searches it: from the end, every item
 * against each before it (`[j, i]`, j < i); or, when `admits` is given, among
 * the items it admits alone, by value (`[j, i]`, j > i: the nearest later
 * item equal to the last such item that has one). Null when there is none.
 */
export function duplicate(items: readonly unknown[], admits?: (item: unknown) => boolean): [number, number] | null {
  const seen = new Map<unknown, number>();
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (admits === undefined) {
      for (let j = i - 1; j >= 0; j--) if (equal(item, items[j])) return [j, i];
    } else if (admits(item)) {
      const j = seen.get(item);
      if (j !== undefined) return [j, i];
      seen.set(item, i);
    }
  }
  return null;
}

/** A member name as a JSON pointer token (RFC 6901: `~` as `~0`, `/` as `~1`). */
export function pointerToken(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}
