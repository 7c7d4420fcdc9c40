/**
 * The helper functions every generated validator module starts with, as source
 * text. The module is self-contained: no imports, no dependency at run time.
 *
 * - `E` holds the issue of the last failed check (validation stops at the first
 *   failing keyword, so one issue is enough; it has the fields of ajv's
 *   `ErrorObject`: `instancePath`, `schemaPath`, `keyword`, `params`, `message`);
 * - `fail` records an issue and returns `false`, so checks read
 *   `if (...) return fail(...)`; `type`, `missing`, `extra`, `bound`, `fewer`,
 *   `more` (the min and max keywords), `unmatched` (pattern, format) and
 *   `notIn` (enum) build its most frequent issues, so that each of thousands of
 *   checks carries only its arguments, not the message (same text and params
 *   as ajv's);
 * - `len` counts Unicode code points (a surrogate pair is one character), as JSON
 *   Schema's `minLength`/`maxLength` require;
 * - `eq` is structural equality (key order does not matter) for `enum`, `const`
 *   and `uniqueItems`; `dupe` finds the first duplicate pair of an array;
 * - `esc` escapes a property name for a JSON pointer (RFC 6901);
 * - `floats` finds, in a JSON text, the JSON pointers of number literals written
 *   with a fraction or exponent whose value is integral (`3.0`, `3e0`, `1e-400`):
 *   `JSON.parse` turns them into integers, a strict decoder (the Python client's)
 *   does not. A regular expression looks for such a literal first; only then does
 *   a token scan (strings skipped whole) track the pointer of every value. When a
 *   member name repeats, the pointers of its earlier occurrence are kept;
 * - `F` holds those pointers during one validation; `type: integer` fails there;
 * - `wrap` turns an internal check `(data, path) => boolean` into the exported
 *   validator `(data, text?) => boolean` with `.errors`, where `text` is the
 *   valid JSON text `data` was parsed from (omit it to judge the value alone).
 */
export const RUNTIME_HELPERS = `let E = null;
let F = null;

function fail(instancePath, keyword, message, params) {
  E = { instancePath, schemaPath: "", keyword, params, message };
  return false;
}

function type(p, t) {
  return fail(p, "type", "must be " + t, { type: t });
}

function missing(p, name) {
  return fail(p, "required", "must have required property '" + name + "'", { missingProperty: name });
}

function extra(p, name) {
  return fail(p, "additionalProperties", "must NOT have additional properties", { additionalProperty: name });
}

function bound(p, keyword, comparison, limit) {
  return fail(p, keyword, "must be " + comparison + " " + limit, { comparison, limit });
}

function fewer(p, keyword, limit, unit) {
  return fail(p, keyword, "must NOT have fewer than " + limit + " " + unit, { limit });
}

function more(p, keyword, limit, unit) {
  return fail(p, keyword, "must NOT have more than " + limit + " " + unit, { limit });
}

function unmatched(p, keyword, source) {
  return fail(p, keyword, "must match " + keyword + ' "' + source + '"', keyword === "pattern" ? { pattern: source } : { format: source });
}

function notIn(p, allowedValues) {
  return fail(p, "enum", "must be one of " + allowedValues.map((value) => JSON.stringify(value)).join(", "), { allowedValues });
}

function isObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function len(s) {
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

function eq(a, b) {
  if (a === b) return true;
  if (a && b && typeof a === "object" && typeof b === "object") {
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    if (Array.isArray(a)) {
      if (a.length !== b.length) return false;
      for (let i = 0; i < a.length; i++) if (!eq(a[i], b[i])) return false;
      return true;
    }
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    for (const k of keys) if (!Object.prototype.hasOwnProperty.call(b, k) || !eq(a[k], b[k])) return false;
    return true;
  }
  return a !== a && b !== b;
}

function dupe(a) {
  for (let i = a.length - 1; i > 0; i--) for (let j = i - 1; j >= 0; j--) if (eq(a[i], a[j])) return [j, i];
  return null;
}

function esc(k) {
  return k.replace(/~/g, "~0").replace(/\\//g, "~1");
}

// A pre-check only (it may also hit digits inside strings); the token scan below decides.
const FLOAT_LITERAL = /-?\\d+(?:\\.\\d+)?[eE][+-]?\\d+|-?\\d+\\.\\d+/g;
const JSON_TOKEN = /"(?:[^"\\\\]|\\\\.)*"|[{}[\\],:]|[^\\s"{}[\\],:]+/g;

// Cheaper still, and ruling out nearly every body: an integral value needs an exponent,
// or a fraction that is all zeros, starts with eight 0s or 9s, or follows eight integer
// digits (a fraction of fewer than 15 digits in all, neither part so long, keeps its value
// off an integer). A loop over the rare dots is faster than a regular expression.
const EXPONENT = /\\d[eE][+-]?\\d/;
const FRACTION = /\\.(?:0+(?!\\d)|0{8}|9{8})|\\d{8}\\./y;

function digit(c) {
  return c >= 48 && c <= 57;
}

function maybeIntegral(text) {
  if (EXPONENT.test(text)) return true;
  for (let i = text.indexOf("."); i !== -1; i = text.indexOf(".", i + 1)) {
    const c = text.charCodeAt(i + 1);
    if (!digit(text.charCodeAt(i - 1)) || !digit(c)) continue;
    if (c === 48 || c === 57) {
      FRACTION.lastIndex = i;
      if (FRACTION.test(text)) return true;
    }
    if (i >= 8 && digit(text.charCodeAt(i - 8))) {
      FRACTION.lastIndex = i - 8;
      if (FRACTION.test(text)) return true;
    }
  }
  return false;
}

function floats(text) {
  if (!maybeIntegral(text)) return null;
  FLOAT_LITERAL.lastIndex = 0;
  let m;
  do m = FLOAT_LITERAL.exec(text);
  while (m !== null && !Number.isInteger(+m[0]));
  if (m === null) return null;
  const found = new Set();
  // One entry per open container: the index in an array, the escaped member name in an object.
  const path = [];
  let name = false;
  for (const [t] of text.matchAll(JSON_TOKEN)) {
    const c = t[0];
    const top = path.length - 1;
    if (c === "{" || c === "[") {
      path.push(c === "[" ? 0 : "");
      name = c === "{";
    } else if (c === "}" || c === "]") path.pop();
    else if (c === ",") {
      if (typeof path[top] === "number") path[top]++;
      else name = true;
    } else if (name) {
      path[top] = esc(JSON.parse(t));
      name = false;
    } else if (c !== '"' && c !== ":" && /[.eE]/.test(t) && Number.isInteger(+t)) found.add(path.map((s) => "/" + s).join(""));
  }
  return found;
}

function wrap(check) {
  const validate = (data, text) => {
    E = null;
    F = typeof text === "string" ? floats(text) : null;
    const ok = check(data, "");
    validate.errors = ok ? null : [E];
    return ok;
  };
  validate.errors = null;
  return validate;
}
`;

/** The declarations that open `validators.d.ts`. */
export const RUNTIME_DECLARATIONS = `/** One validation issue (the fields of ajv's \`ErrorObject\`). */
export interface ValidationError {
  /** JSON pointer of the offending value, "" for the value itself. */
  readonly instancePath: string;
  readonly schemaPath: string;
  /** The JSON Schema keyword that failed, such as \`required\` or \`type\`. */
  readonly keyword: string;
  readonly params: Record<string, unknown>;
  readonly message: string;
}

/**
 * A generated validator: \`true\` when the value matches; otherwise \`errors\` says why.
 * \`text\`, when given, is the (valid) JSON text \`data\` was parsed from: a number
 * written there with a fraction or exponent (\`3.0\`, \`3e0\`) is then not an integer.
 */
export interface ValidateFunction {
  (data: unknown, text?: string): boolean;
  errors: ValidationError[] | null;
}
`;
