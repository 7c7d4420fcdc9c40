/**
 * The helper functions every generated validator module starts with, as source
 * text. The module is self-contained: no imports, no dependency at run time.
 *
 * - `E` holds the issue of the last failed check (validation stops at the first
 *   failing keyword, so one issue is enough; it has the fields of ajv's
 *   `ErrorObject`: `instancePath`, `schemaPath`, `keyword`, `params`, `message`);
 * - `fail` records an issue and returns `false`, so checks read
 *   `if (...) return fail(...)`; `type`, `missing`, `extra` and `bound` are its
 *   most frequent uses, kept short because they repeat across thousands of checks;
 * - `len` counts Unicode code points (a surrogate pair is one character), as JSON
 *   Schema's `minLength`/`maxLength` require;
 * - `eq` is structural equality (key order does not matter) for `enum`, `const`
 *   and `uniqueItems`; `dupe` finds the first duplicate pair of an array;
 * - `esc` escapes a property name for a JSON pointer (RFC 6901);
 * - `wrap` turns an internal check `(data, path) => boolean` into the exported
 *   validator `(data) => boolean` with `.errors`.
 */
export const RUNTIME_HELPERS = `let E = null;

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

function wrap(check) {
  const validate = (data) => {
    E = null;
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

/** A generated validator: \`true\` when the value matches; otherwise \`errors\` says why. */
export interface ValidateFunction {
  (data: unknown): boolean;
  errors: ValidationError[] | null;
}
`;
