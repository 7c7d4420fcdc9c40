import { bound, compile, fail } from "./compile.js";
import type { Keyword, SchemaCheck, SchemaNode } from "./schema-node.js";

/**
 * The handlers of the keywords few schemas use. The generator lists in a
 * node's `k` the handlers of the keywords it has (schema-node.ts), so a bundle
 * holds the handlers its schemas need and a bundler drops the others. Each
 * reports ajv's keyword, words and parameters, as the common keywords do in
 * `compile.ts`.
 */

/** The subschemas of `s` under `key`, compiled. */
function subs(s: SchemaNode, key: "allOf" | "anyOf" | "oneOf"): SchemaCheck[] {
  return (s[key] ?? []).map((sub) => compile(sub));
}

/** `format`, for a format that is checked: its regular expression must match the string. */
export const formatKeyword: Keyword = {
  on: "s",
  check: (s) => {
    const [name, source, flags] = s.format ?? ["", "", ""];
    const re = new RegExp(source, flags);
    return (v) => re.test(v as string) || fail("format", `must match format "${name}"`, { format: name });
  },
};

/** `exclusiveMinimum` (draft-07: a number). */
export const exclusiveMinimumKeyword: Keyword = {
  on: "n",
  check:
    ({ exclusiveMinimum: limit = 0 }) =>
    (v) =>
      (v as number) > limit || bound("exclusiveMinimum", ">", limit),
};

/** `exclusiveMaximum` (draft-07: a number). */
export const exclusiveMaximumKeyword: Keyword = {
  on: "n",
  check:
    ({ exclusiveMaximum: limit = 0 }) =>
    (v) =>
      (v as number) < limit || bound("exclusiveMaximum", "<", limit),
};

/** `multipleOf`, by ajv's rule: the quotient must survive parseInt unchanged. */
export const multipleOfKeyword: Keyword = {
  on: "n",
  check:
    ({ multipleOf: m = 0 }) =>
    (v) => {
      const quotient = (v as number) / m;
      return (
        (m !== 0 && quotient === parseInt(String(quotient), 10)) ||
        fail("multipleOf", `must be multiple of ${m}`, { multipleOf: m })
      );
    },
};

/** `allOf`: every subschema, the first failing one's issue. */
export const allOfKeyword: Keyword = {
  on: "",
  check: (s) => {
    const checks = subs(s, "allOf");
    return (v, p) => checks.every((check) => check(v, p));
  },
};

/** `anyOf`. */
export const anyOfKeyword: Keyword = {
  on: "",
  check: (s) => {
    const checks = subs(s, "anyOf");
    return (v, p) => checks.some((check) => check(v, p)) || fail("anyOf", "must match a schema in anyOf");
  },
};

/** `oneOf`. */
export const oneOfKeyword: Keyword = {
  on: "",
  check: (s) => {
    const checks = subs(s, "oneOf");
    return (v, p) =>
      checks.filter((check) => check(v, p)).length === 1 ||
      fail("oneOf", "must match exactly one schema in oneOf", { passingSchemas: null });
  },
};

/** `not`. */
export const notKeyword: Keyword = {
  on: "",
  check: (s) => {
    const check = compile(s.not ?? false);
    return (v, p) => !check(v, p) || fail("not", "must NOT be valid");
  },
};

/** `if` with `then` and `else`: a failing branch keeps its inner issue, which names the offending value. */
export const ifKeyword: Keyword = {
  on: "",
  check: (s) => {
    const condition = compile(s.if ?? true);
    const then = compile(s.then ?? true);
    const otherwise = compile(s.else ?? true);
    return (v, p) => (condition(v, p) ? then(v, p) : otherwise(v, p));
  },
};
