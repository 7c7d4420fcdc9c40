import type { Json } from "../../ir/domain.js";
import { pointerSegment } from "../../errors.js";

/** What keyword emitters need from the compiler that drives them. */
export interface CheckContext {
  /** A fresh local variable name. */
  local(prefix: string): string;
  /** The module-level constant holding a compiled regular expression. */
  pattern(source: string, flags?: string): string;
  /** The regular expression of a string format, or null when the format only annotates. */
  format(name: string): string | null;
  /** Statements that check `schema` against the value in `value` (a local) at `path` (an expression). */
  node(schema: unknown, value: string, path: string): string;
}

/** `return fail(...)` with an ajv-style keyword, message and params. */
export function fail(path: string, keyword: string, message: string, params: string = "{}"): string {
  return `return fail(${path}, ${JSON.stringify(keyword)}, ${JSON.stringify(message)}, ${params});`;
}

/** `path + "/segment"` for a constant property name (escaped as a JSON pointer token). */
export function childPath(path: string, key: string): string {
  return `${path} + ${JSON.stringify(`/${pointerSegment(key)}`)}`;
}

/**
 * The JavaScript condition "value is of JSON type `type`" (ajv's definition, numbers finite).
 * An integer must also not be at a pointer of `F`, the pointers whose literal was written
 * with a fraction or exponent (`3.0`, `3e0`) in the JSON text given to the validator.
 */
export function typeCondition(type: string, v: string, path: string): string {
  switch (type) {
    case "null":
      return `${v} === null`;
    case "array":
      return `Array.isArray(${v})`;
    case "object":
      return `isObject(${v})`;
    case "integer":
      return `(typeof ${v} === "number" && !(${v} % 1) && isFinite(${v}) && !(F && F.has(${path})))`;
    case "number":
      return `(typeof ${v} === "number" && isFinite(${v}))`;
    case "string":
    case "boolean":
      return `typeof ${v} === "${type}"`;
    default:
      throw new Error(`validator emitter: unknown JSON Schema type "${type}"`);
  }
}

const num = (value: unknown, keyword: string): number => {
  if (typeof value !== "number" || !Number.isFinite(value)) throw new Error(`validator emitter: "${keyword}" must be a finite number`);
  return value;
};

/** Checks of `minLength`, `maxLength`, `pattern`, `format`, applied when the value is a string. */
export function stringChecks(s: Json, v: string, path: string, cx: CheckContext): string {
  let out = "";
  if (s.minLength !== undefined) {
    const n = num(s.minLength, "minLength");
    out += `if (${v}.length < ${n} || len(${v}) < ${n}) return fewer(${path}, "minLength", ${n}, "characters");\n`;
  }
  if (s.maxLength !== undefined) {
    const n = num(s.maxLength, "maxLength");
    out += `if (${v}.length > ${n} && len(${v}) > ${n}) return more(${path}, "maxLength", ${n}, "characters");\n`;
  }
  if (typeof s.pattern === "string") {
    out += `if (!${cx.pattern(s.pattern)}.test(${v})) return unmatched(${path}, "pattern", ${JSON.stringify(s.pattern)});\n`;
  }
  if (typeof s.format === "string") {
    const regex = cx.format(s.format);
    if (regex !== null) out += `if (!${regex}.test(${v})) return unmatched(${path}, "format", ${JSON.stringify(s.format)});\n`;
  }
  return out;
}

const BOUNDS: [keyword: string, failsWhen: string, okText: string][] = [
  ["minimum", "<", ">="],
  ["maximum", ">", "<="],
  ["exclusiveMinimum", "<=", ">"],
  ["exclusiveMaximum", ">=", "<"],
];

/** Checks of `minimum`, `maximum`, `exclusive*` (draft-07 numeric form) and `multipleOf`, applied to numbers. */
export function numberChecks(s: Json, v: string, path: string, cx: CheckContext): string {
  let out = "";
  for (const [keyword, failsWhen, okText] of BOUNDS) {
    if (s[keyword] === undefined) continue;
    const n = num(s[keyword], keyword);
    out += `if (${v} ${failsWhen} ${n}) return bound(${path}, "${keyword}", "${okText}", ${n});\n`;
  }
  if (s.multipleOf !== undefined) {
    const n = num(s.multipleOf, "multipleOf");
    const q = cx.local("q");
    // ajv's rule: the quotient must survive parseInt unchanged.
    out += `const ${q} = ${v} / ${n};\nif (${n} === 0 || ${q} !== parseInt(${q})) ${fail(path, "multipleOf", `must be multiple of ${n}`, `{ multipleOf: ${n} }`)}\n`;
  }
  return out;
}

/** Checks of `minItems`, `maxItems`, `uniqueItems` and `items` (one schema for every item), applied to arrays. */
export function arrayChecks(s: Json, v: string, path: string, cx: CheckContext): string {
  let out = "";
  if (s.minItems !== undefined) {
    const n = num(s.minItems, "minItems");
    out += `if (${v}.length < ${n}) return fewer(${path}, "minItems", ${n}, "items");\n`;
  }
  if (s.maxItems !== undefined) {
    const n = num(s.maxItems, "maxItems");
    out += `if (${v}.length > ${n}) return more(${path}, "maxItems", ${n}, "items");\n`;
  }
  if (s.uniqueItems === true) {
    const d = cx.local("dup");
    out += `const ${d} = dupe(${v});\nif (${d} !== null) return fail(${path}, "uniqueItems", "must NOT have duplicate items (items ## " + ${d}[1] + " and " + ${d}[0] + " are identical)", { i: ${d}[1], j: ${d}[0] });\n`;
  }
  if (Array.isArray(s.items)) throw new Error("validator emitter: tuple `items` (an array of schemas) is not supported");
  if (s.items !== undefined) {
    const i = cx.local("i");
    const item = cx.local("v");
    const body = cx.node(s.items, item, `${path} + "/" + ${i}`);
    if (body !== "") out += `for (let ${i} = 0; ${i} < ${v}.length; ${i}++) {\nconst ${item} = ${v}[${i}];\n${body}}\n`;
  }
  return out;
}
