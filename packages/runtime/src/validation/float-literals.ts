import { pointerToken } from "./values.js";

/*
 * Number literals written with a fraction or exponent whose value is integral
 * (`3.0`, `3e0`, `1e-400`): `JSON.parse` turns them into integers, a strict
 * decoder (the Python client's) does not, so `type: integer` must refuse them
 * when the validator is given the JSON text.
 */

const JSON_TOKEN = /"(?:[^"\\]|\\.)*"|[{}[\],:]|[^\s"{}[\],:]+/g;

/**
 * Together rule out nearly every body: an integral value written as a float
 * needs an exponent, or a fraction that is all zeros, starts with eight 0s or
 * 9s, or follows eight integer digits (a fraction of fewer than 15 digits in
 * all, neither part so long, keeps its value off an integer). It may also hit
 * digits inside strings; the token scan decides.
 */
const EXPONENT = /\d[eE][+-]?\d/;

const isDigit = (code: number) => code >= 48 && code <= 57;

/** {@link EXPONENT}, then the fraction rules at each dot (the rare dots found by indexOf, each read in place, beat a regular expression over the text). */
function maybeIntegral(text: string): boolean {
  if (EXPONENT.test(text)) return true;
  for (let i = text.indexOf("."); i !== -1; i = text.indexOf(".", i + 1)) {
    const next = text.charCodeAt(i + 1);
    let j = i + 1;
    // `.0`...: zeros alone, or eight of them; `.99999999`.
    if (next === 48 || next === 57) while (text.charCodeAt(j) === next) j++;
    if (j - i > 8 || (next === 48 && !isDigit(text.charCodeAt(j)))) return true;
    // Eight digits before the dot.
    for (j = i - 1; isDigit(text.charCodeAt(j)) && isDigit(next); j--) if (j === i - 8) return true;
  }
  return false;
}

/**
 * The JSON pointers of the integral number literals of `text` that are written
 * with a fraction or exponent, or null when there is none (nearly every body:
 * a regular expression looks for such a literal first; only then does a token
 * scan, strings skipped whole, track the pointer of every value). When a
 * member name repeats, the pointers of its earlier occurrence are kept.
 *
 * @param text valid JSON text.
 */
export function integralFloats(text: string): Set<string> | null {
  if (!maybeIntegral(text)) return null;
  const found = new Set<string>();
  // One entry per open container: the index in an array, the escaped member name in an object.
  const path: (string | number)[] = [];
  let name = false;
  for (const [t] of text.matchAll(JSON_TOKEN)) {
    const c = t[0];
    const top = path.length - 1;
    if (c === "{" || c === "[") {
      path.push(c === "[" ? 0 : "");
      name = c === "{";
    } else if (c === "}" || c === "]") path.pop();
    else if (c === ",") {
      if (typeof path[top] === "number") (path[top] as number)++;
      else name = true;
    } else if (name) {
      path[top] = pointerToken(JSON.parse(t) as string);
      name = false;
    } else if (c !== '"' && c !== ":" && /[.eE]/.test(t) && Number.isInteger(+t))
      found.add(path.map((s) => `/${s}`).join(""));
  }
  return found.size === 0 ? null : found;
}
