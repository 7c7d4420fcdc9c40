import { integralFloats } from "./float-literals.js";
import type { Keyword, SchemaCheck, SchemaNode, SchemaRef } from "./schema-node.js";
import { codePoints, duplicate, equal, isObject, pointerToken } from "./values.js";

/**
 * Compiles the compact schema form (`schema-node.ts`) into checks: one closure
 * per schema node, built on the first validation that reaches it and shared by
 * every schema that references the node. A check is `(value, path)`; `path`
 * is the value's JSON pointer only while the JSON text holds an integral
 * number written as a float (so that `type: integer` can refuse it there), and
 * null otherwise, so that a valid value costs no string building. The pointer
 * of a failure is put together as the checks return, child to parent.
 *
 * Validation stops at the first failing keyword, with one issue in ajv's
 * shape and words.
 */

/** One validation issue (the fields of ajv's `ErrorObject`). */
export interface ValidationError {
  /** JSON pointer of the offending value, "" for the value itself. */
  readonly instancePath: string;
  /** Always "" (the compact form keeps no schema paths). */
  readonly schemaPath: string;
  /** The JSON Schema keyword that failed, such as `required` or `type`. */
  readonly keyword: string;
  /** The keyword's parameters, as ajv gives them (`{ missingProperty }`, `{ limit }`, ...). */
  readonly params: Record<string, unknown>;
  /** What is wrong, in ajv's words. */
  readonly message: string;
}

/**
 * A validator: true when the value matches; otherwise `errors` holds the
 * issue. `text`, when given, is the valid JSON text `data` was parsed from: a
 * number written there with a fraction or exponent (`3.0`, `3e0`) is then not
 * an integer, as for a strict decoder.
 */
export interface ValidateFunction {
  (data: unknown, text?: string): boolean;
  /** The issue of the last call that returned false (one), or null after a success. */
  errors: ValidationError[] | null;
}

type Check = SchemaCheck;

interface Failure {
  keyword: string;
  message: string;
  params: Record<string, unknown>;
  /** Pointer tokens from the failing value up to the root, each with its leading "/". */
  readonly up: string[];
}

/** The failure of the validation under way. Validation is synchronous, so one slot serves every validator. */
let failure: Failure | null = null;
/** The pointers of integral float literals of the text under validation, or null. */
let floatsAt: Set<string> | null = null;

/** Records the issue of the failing keyword (in ajv's words) and returns false. */
export function fail(keyword: string, message: string, params: Record<string, unknown> = {}): false {
  failure = { keyword, message, params, up: [] };
  return false;
}

/** A child at `token` failed: adds the token to the failure's pointer. */
function below(token: string): false {
  failure?.up.push(token);
  return false;
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  o: "object",
  a: "array",
  s: "string",
  i: "integer",
  n: "number",
  b: "boolean",
  z: "null",
};

/** "Is `v` of the type of this letter": JSON types as ajv reads them (numbers finite; an integer not written as a float). */
const IS_TYPE: Readonly<Record<string, Check>> = {
  s: (v) => typeof v === "string",
  o: isObject,
  i: (v, path) =>
    typeof v === "number" && !(v % 1) && Number.isFinite(v) && !(path !== null && floatsAt?.has(path) === true),
  n: (v) => typeof v === "number" && Number.isFinite(v),
  a: Array.isArray,
  b: (v) => typeof v === "boolean",
  z: (v) => v === null,
};

const PASS: Check = () => true;

const compiled = new WeakMap<object, Check>();
/**
 * The check of a schema, compiled once per node together with everything it
 * reaches; a node reached again during its own compilation (a recursive
 * schema) is called through a forward.
 */
export function compile(ref: SchemaRef): Check {
  const schema = typeof ref === "function" ? ref() : ref;
  if (schema === true) return PASS;
  if (schema === false) return () => fail("false schema", "boolean schema is false");
  const known = compiled.get(schema);
  if (known !== undefined) return known;
  let built: Check | null = null;
  compiled.set(schema, (v, p) => (built as Check)(v, p));
  built = node(schema);
  compiled.set(schema, built);
  return built;
}

/** `first`, then each of `more`, as one check; null when there is none. */
function all(first: Check | null, more: readonly Check[]): Check | null {
  const checks = first === null ? more : [first, ...more];
  if (checks.length < 2) return checks[0] ?? null;
  return (v, p) => checks.every((check) => check(v, p));
}

/**
 * One closure per node: the type, then the keywords of the value's type
 * (each group applies only to values of its type, as in JSON Schema), then
 * those that apply to any value. The handlers of `k` come last in their group,
 * in the order listed.
 */
function node(s: SchemaNode): Check {
  const keywords: readonly Keyword[] = s.k ?? [];
  const handlers = (on: Keyword["on"]) =>
    keywords.filter((keyword) => keyword.on === on).map((keyword) => keyword.check(s));
  const types = s.t;
  const checks = types === undefined ? [] : [...types].map((t) => IS_TYPE[t] as Check);
  const is: Check | null =
    types === undefined
      ? null
      : types.length === 1
        ? (checks[0] as Check)
        : (v, p) => checks.some((check) => check(v, p));
  const names = types === undefined ? "" : [...types].map((t) => TYPE_NAMES[t]).join(",");
  const text = all(stringChecks(s), handlers("s"));
  const number = all(numberChecks(s), handlers("n"));
  const object = objectChecks(s);
  const array = arrayChecks(s);
  const rest = all(generic(s), handlers(""));
  return (v, p) => {
    if (is !== null && !is(v, p)) return fail("type", `must be ${names}`, { type: names });
    if (text !== null && typeof v === "string" && !text(v, p)) return false;
    if (number !== null && typeof v === "number" && !number(v, p)) return false;
    if (object !== null && isObject(v) && !object(v, p)) return false;
    if (array !== null && Array.isArray(v) && !array(v, p)) return false;
    return rest === null || rest(v, p);
  };
}

function stringChecks(s: SchemaNode): Check | null {
  const { n, x, p: pattern } = s;
  if (n === undefined && x === undefined && pattern === undefined) return null;
  const re = pattern === undefined ? null : new RegExp(pattern, s.pf ?? "u");
  return (value) => {
    const v = value as string;
    // A string of at least 2n UTF-16 units has at least n code points: counting them is rarely needed.
    if (n !== undefined && (v.length < n || (v.length < 2 * n && codePoints(v) < n)))
      return fail("minLength", `must NOT have fewer than ${n} characters`, { limit: n });
    if (x !== undefined && v.length > x && codePoints(v) > x)
      return fail("maxLength", `must NOT have more than ${x} characters`, { limit: x });
    if (re !== null && !re.test(v)) return fail("pattern", `must match pattern "${pattern}"`, { pattern });
    return true;
  };
}

/** ajv's issue for a number past a bound: `must be >= 1`. */
export function bound(keyword: string, comparison: string, limit: number): false {
  return fail(keyword, `must be ${comparison} ${limit}`, { comparison, limit });
}

function numberChecks(s: SchemaNode): Check | null {
  const { g, l } = s;
  if (g === undefined && l === undefined) return null;
  return (value) => {
    const v = value as number;
    if (g !== undefined && v < g) return bound("minimum", ">=", g);
    if (l !== undefined && v > l) return bound("maximum", "<=", l);
    return true;
  };
}

function objectChecks(s: SchemaNode): Check | null {
  const { r = [], P: pairs = [], A: additional, minProperties: min, maxProperties: max } = s;
  const required = typeof r === "number" ? (pairs.filter((_, i) => i % 2 === 0 && (r >> (i / 2)) & 1) as string[]) : r;
  if (required.length === 0 && pairs.length === 0 && additional === undefined && min === undefined && max === undefined)
    return null;
  // Per member name: its check (null for a schema that allows anything) and pointer token; required names are listed too
  // (`required` holds each name once, as JSON Schema asks).
  const members = new Map<string, { check: Check | null; token: string; required: boolean }>();
  for (let i = 0; i < pairs.length; i += 2) {
    const name = pairs[i] as string;
    const schema = pairs[i + 1] as SchemaRef;
    members.set(name, {
      check: schema === true ? null : compile(schema),
      token: `/${pointerToken(name)}`,
      required: false,
    });
  }
  for (const name of required) {
    const member = members.get(name);
    if (member === undefined) members.set(name, { check: null, token: "", required: true });
    else member.required = true;
  }
  const requiredCount = required.length;
  const extra =
    additional === undefined || additional === true ? null : additional === false ? false : compile(additional);
  const ordered = orderedObjectChecks(members, required, extra, min, max);
  // One pass over the members the value has (for...in reads them fastest); anything amiss, and the
  // ordered pass below finds the issue ajv reports first (required members, then properties in order).
  return (v, p) => {
    const o = v as Record<string, unknown>;
    let present = 0;
    let count = 0;
    for (const k in o) {
      count++;
      const member = members.get(k);
      if (member === undefined) {
        if (extra === null) continue;
        if (extra === false || !extra(o[k], p === null ? null : `${p}/${pointerToken(k)}`)) return ordered(o, p);
        continue;
      }
      const value = o[k];
      if (value === undefined) continue;
      if (member.required) present++;
      if (member.check !== null && !member.check(value, p === null ? null : p + member.token)) return ordered(o, p);
    }
    if (present !== requiredCount || (min !== undefined && count < min) || (max !== undefined && count > max))
      return ordered(o, p);
    return true;
  };
}

/** The object keywords in ajv's order, for the first issue: required, min/maxProperties, properties, additionalProperties. */
function orderedObjectChecks(
  members: ReadonlyMap<string, { check: Check | null; token: string }>,
  required: readonly string[],
  extra: Check | false | null,
  min: number | undefined,
  max: number | undefined,
): (o: Record<string, unknown>, p: string | null) => boolean {
  return (o, p) => {
    for (const name of required)
      if (o[name] === undefined)
        return fail("required", `must have required property '${name}'`, { missingProperty: name });
    if (min !== undefined && Object.keys(o).length < min)
      return fail("minProperties", `must NOT have fewer than ${min} properties`, { limit: min });
    if (max !== undefined && Object.keys(o).length > max)
      return fail("maxProperties", `must NOT have more than ${max} properties`, { limit: max });
    for (const [name, { check, token }] of members) {
      const value = o[name];
      if (check !== null && value !== undefined && !check(value, p === null ? null : p + token)) return below(token);
    }
    if (extra !== null) {
      for (const k in o) {
        if (members.has(k)) continue;
        if (extra === false)
          return fail("additionalProperties", "must NOT have additional properties", { additionalProperty: k });
        const token = `/${pointerToken(k)}`;
        if (!extra(o[k], p === null ? null : p + token)) return below(token);
      }
    }
    return true;
  };
}

function arrayChecks(s: SchemaNode): Check | null {
  const { I: items, minItems: min, maxItems: max, uniqueItems } = s;
  if (items === undefined && min === undefined && max === undefined && uniqueItems !== true) return null;
  const item = items === undefined || items === true ? null : compile(items);
  return (v, p) => {
    const a = v as unknown[];
    if (min !== undefined && a.length < min)
      return fail("minItems", `must NOT have fewer than ${min} items`, { limit: min });
    if (max !== undefined && a.length > max)
      return fail("maxItems", `must NOT have more than ${max} items`, { limit: max });
    const pair = uniqueItems === true ? duplicate(a) : null;
    if (pair !== null)
      return fail("uniqueItems", `must NOT have duplicate items (items ## ${pair[1]} and ${pair[0]} are identical)`, {
        i: pair[1],
        j: pair[0],
      });
    if (item !== null)
      for (let i = 0; i < a.length; i++) if (!item(a[i], p === null ? null : `${p}/${i}`)) return below(`/${i}`);
    return true;
  };
}

/** The common keywords that apply to any value: enum, const, $ref (allOf, anyOf, oneOf, not, if/then/else are handlers, `keywords.ts`). */
function generic(s: SchemaNode): Check | null {
  const checks: Check[] = [];
  const values = s.e;
  if (values !== undefined) {
    const scalars = values.every((value) => value === null || typeof value !== "object");
    checks.push(
      (v) =>
        (scalars ? values.includes(v) : values.some((value) => equal(v, value))) ||
        fail("enum", `must be one of ${values.map((value) => JSON.stringify(value)).join(", ")}`, {
          allowedValues: values,
        }),
    );
  }
  if (Object.hasOwn(s, "const")) {
    const value = s.const;
    checks.push((v) => equal(v, value) || fail("const", "must be equal to constant", { allowedValue: value }));
  }
  if (s.$ !== undefined) checks.push(compile(s.$));
  if (checks.length === 0) return null;
  if (checks.length === 1) return checks[0] as Check;
  return (v, p) => checks.every((check) => check(v, p));
}

/**
 * The validator of a schema in the compact form. Nothing is compiled until
 * its first call; each schema node is compiled once, whatever the number of
 * validators that reach it.
 *
 * @param schema the schema, as the generator writes it.
 */
export function validator(schema: SchemaRef): ValidateFunction {
  let check: Check | null = null;
  const validate: ValidateFunction = Object.assign(
    (data: unknown, text?: string): boolean => {
      check ??= compile(schema);
      // Both slots are set anew by every validation (one that threw, too deep to walk, left them as they were).
      failure = null;
      floatsAt = typeof text === "string" ? integralFloats(text) : null;
      const ok = check(data, floatsAt === null ? null : "");
      const found = failure as Failure | null;
      validate.errors =
        ok || found === null
          ? null
          : [
              {
                instancePath: found.up.reverse().join(""),
                schemaPath: "",
                keyword: found.keyword,
                params: found.params,
                message: found.message,
              },
            ];
      return ok;
    },
    { errors: null },
  );
  return validate;
}
