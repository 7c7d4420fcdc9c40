import { typeBits } from "./check.js";
import { compile, TYPE_BITS } from "./compile.js";
import { bound, fail, notInEnum } from "./issue.js";
import type { Keyword, SchemaCheck, SchemaNode } from "./schema-node.js";
import { duplicate, equal } from "./values.js";

/**
 * The handlers of the keywords few schemas use. The generator lists in a
 * node's `k` the handlers of the keywords it has (schema-node.ts), so a bundle
 * holds the handlers its schemas need and a bundler drops the others. Each
 * reports ajv's keyword, words and parameters, as the common keywords do in
 * `check.ts`.
 */

/** The subschemas of `s` under `key`, compiled. */
function subs(s: SchemaNode, key: "allOf" | "anyOf" | "oneOf"): SchemaCheck[] {
  return (s[key] ?? []).map((sub) => compile(sub));
}

/** `$ref` beside other keywords (`$`): the referenced schema, checked first. */
export const refKeyword: Keyword = { on: "first", check: (s) => compile(s.$ ?? true) };

/** `const`: the value must equal it (structurally), checked after `$` and before enum. */
export const constKeyword: Keyword = {
  on: "first",
  check:
    ({ const: allowed }) =>
    (value, at) =>
      equal(value, allowed) || fail(at, "const", "must be equal to constant", { allowedValue: allowed }),
};

/** `enum` holding an object or an array: the value must equal one of them (structurally), checked after const. */
export const enumKeyword: Keyword = {
  on: "first",
  check:
    ({ enum: values = [] }) =>
    (value, at) =>
      values.some((allowed) => equal(value, allowed)) || notInEnum(at, values),
};

/**
 * `format`, for a format that is checked: its regular expression must match the string,
 * and a `date` or `date-time` must name a day of the calendar (month 1 to 12, the day
 * within that month, 29 February only in a leap year), as the server's parser requires.
 */
export const formatKeyword: Keyword = {
  on: "s",
  check: (s) => {
    const [name, source, flags] = s.format ?? ["", "", ""];
    const re = new RegExp(source, flags);
    const calendar = name === "date" || name === "date-time";
    return (value, at) =>
      (re.test(value as string) && (!calendar || isCalendarDay(value as string))) ||
      fail(at, "format", `must match format "${name}"`, { format: name });
  },
};

/** True when the `YYYY-MM-DD` a date or date-time starts with is a day of the Gregorian calendar. */
function isCalendarDay(text: string): boolean {
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(5, 7));
  const day = Number(text.slice(8, 10));
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return day <= days;
}

/** `exclusiveMinimum` (draft-07: a number). */
export const exclusiveMinimumKeyword: Keyword = {
  on: "n",
  check:
    ({ exclusiveMinimum: limit = 0 }) =>
    (value, at) =>
      (value as number) > limit || bound(at, "exclusiveMinimum", ">", limit),
};

/** `exclusiveMaximum` (draft-07: a number). */
export const exclusiveMaximumKeyword: Keyword = {
  on: "n",
  check:
    ({ exclusiveMaximum: limit = 0 }) =>
    (value, at) =>
      (value as number) < limit || bound(at, "exclusiveMaximum", "<", limit),
};

/** `multipleOf`, by ajv's rule: the quotient must survive parseInt unchanged. */
export const multipleOfKeyword: Keyword = {
  on: "n",
  check:
    ({ multipleOf: m = 0 }) =>
    (value, at) => {
      const quotient = (value as number) / m;
      return (
        (m !== 0 && quotient === parseInt(String(quotient), 10)) ||
        fail(at, "multipleOf", `must be multiple of ${m}`, { multipleOf: m })
      );
    },
};

/**
 * `uniqueItems` (true, or the type letters of an `items` schema ajv reads in
 * place with scalar types only: ajv then compares the items of those types
 * alone, by value, and reports another pair).
 */
export const uniqueItemsKeyword: Keyword = {
  on: "a",
  check: ({ uniqueItems: unique }) => {
    let types = 0;
    for (const letter of typeof unique === "string" ? unique : "") types |= TYPE_BITS[letter] ?? 0;
    const admits = types === 0 ? undefined : (item: unknown) => (typeBits(item) & types) !== 0;
    return (value, at) => {
      const pair = duplicate(value as unknown[], admits);
      if (pair === null) return true;
      const [j, i] = pair;
      return fail(at, "uniqueItems", `must NOT have duplicate items (items ## ${j} and ${i} are identical)`, { i, j });
    };
  },
};

/** `allOf`: every subschema, the first failing one's issue. */
export const allOfKeyword: Keyword = {
  on: "",
  check: (s) => {
    const checks = subs(s, "allOf");
    return (value, at) => checks.every((check) => check(value, at));
  },
};

/** `anyOf` (two branches, how a nullable reference reads, without a loop). */
export const anyOfKeyword: Keyword = {
  on: "",
  check: (s) => {
    const checks = subs(s, "anyOf");
    const [first, second] = checks;
    const any: SchemaCheck =
      checks.length === 2 && first !== undefined && second !== undefined
        ? (value, at) => first(value, at) || second(value, at)
        : (value, at) => checks.some((check) => check(value, at));
    return (value, at) => any(value, at) || fail(at, "anyOf", "must match a schema in anyOf");
  },
};

/** `oneOf` (its `passingSchemas` is not tracked: null). */
export const oneOfKeyword: Keyword = {
  on: "",
  check: (s) => {
    const checks = subs(s, "oneOf");
    return (value, at) =>
      checks.filter((check) => check(value, at)).length === 1 ||
      fail(at, "oneOf", "must match exactly one schema in oneOf", { passingSchemas: null });
  },
};

/** `not`. */
export const notKeyword: Keyword = {
  on: "",
  check: (s) => {
    const check = compile(s.not ?? false);
    return (value, at) => !check(value, at) || fail(at, "not", "must NOT be valid");
  },
};

/** `if` with `then` and `else`: a failing branch keeps its inner issue, which names the offending value. */
export const ifKeyword: Keyword = {
  on: "",
  check: (s) => {
    const condition = compile(s.if ?? true);
    const then = compile(s.then ?? true);
    const otherwise = compile(s.else ?? true);
    return (value, at) => (condition(value, at) ? then(value, at) : otherwise(value, at));
  },
};
