/** A string literal that is also valid in any JavaScript source (U+2028/U+2029 escaped). */
export function literal(value: string): string {
  return separatorsEscaped(JSON.stringify(value));
}

/**
 * A JSON value as a JavaScript expression that evaluates to it. JSON text is a
 * JavaScript literal except for a member named `__proto__`, which in an object
 * literal sets the prototype instead; a value holding one is parsed at load time.
 */
export function data(value: unknown): string {
  const json = separatorsEscaped(JSON.stringify(value));
  return json.includes('"__proto__"') ? `JSON.parse(${literal(json)})` : json;
}

/** JSON text with U+2028 and U+2029 escaped, which JSON leaves raw and older JavaScript does not allow in a string. */
function separatorsEscaped(json: string): string {
  return SEPARATORS.test(json) ? json.replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029") : json;
}

const SEPARATORS = /[\u2028\u2029]/;
