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
  if (a && b && typeof a === "object" && typeof b === "object") {
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    if (Array.isArray(a)) {
      const other = b as unknown[];
      if (a.length !== other.length) return false;
      for (let i = 0; i < a.length; i++) if (!equal(a[i], other[i])) return false;
      return true;
    }
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    const keys = Object.keys(x);
    if (keys.length !== Object.keys(y).length) return false;
    for (const k of keys) if (!Object.hasOwn(y, k) || !equal(x[k], y[k])) return false;
    return true;
  }
  return Number.isNaN(a) && Number.isNaN(b);
}

/** The first pair of equal items, searched from the end as ajv does (`[j, i]`, j < i), or null. */
export function duplicate(items: readonly unknown[]): [number, number] | null {
  for (let i = items.length - 1; i > 0; i--)
    for (let j = i - 1; j >= 0; j--) if (equal(items[i], items[j])) return [j, i];
  return null;
}

/** A member name as a JSON pointer token (RFC 6901: `~` as `~0`, `/` as `~1`). */
export function pointerToken(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** True for a JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
