import type { Json } from "../../load/walk-operations.js";
import { childPath, fail, type CheckContext } from "./keywords.js";

/** Above this many declared properties, "is it declared" is a Set lookup instead of a chain of `===`. */
const SET_THRESHOLD = 8;

/**
 * Checks of `required`, `properties`, `additionalProperties` (`false` or a schema),
 * `minProperties` and `maxProperties`, applied when the value is an object.
 *
 * As in ajv, a property whose value is `undefined` counts as absent, and
 * `additionalProperties` walks the object's enumerable keys (`for...in`).
 */
export function objectChecks(s: Json, v: string, path: string, cx: CheckContext, declare: (expression: string) => string): string {
  for (const keyword of ["patternProperties", "propertyNames", "dependencies"]) {
    if (s[keyword] !== undefined) throw new Error(`validator emitter: "${keyword}" is not supported`);
  }
  let out = "";
  const properties = (s.properties ?? {}) as Record<string, unknown>;
  for (const name of (s.required ?? []) as string[]) {
    out += `if (${v}[${JSON.stringify(name)}] === undefined) return missing(${path}, ${JSON.stringify(name)});\n`;
  }
  for (const keyword of ["minProperties", "maxProperties"] as const) {
    const n = s[keyword];
    if (typeof n !== "number") continue;
    const [op, text] = keyword === "minProperties" ? ["<", `must NOT have fewer than ${n} properties`] : [">", `must NOT have more than ${n} properties`];
    out += `if (Object.keys(${v}).length ${op} ${n}) ${fail(path, keyword, text, `{ limit: ${n} }`)}\n`;
  }
  for (const [name, schema] of Object.entries(properties)) {
    const local = cx.local("v");
    const body = cx.node(schema, local, childPath(path, name));
    if (body !== "") out += `const ${local} = ${v}[${JSON.stringify(name)}];\nif (${local} !== undefined) {\n${body}}\n`;
  }
  const extra = s.additionalProperties;
  if (extra === undefined || extra === true) return out;
  const key = cx.local("k");
  const names = Object.keys(properties);
  let undeclared = "true";
  if (names.length > SET_THRESHOLD) undeclared = `!${declare(`new Set(${JSON.stringify(names)})`)}.has(${key})`;
  else if (names.length > 0) undeclared = names.map((name) => `${key} !== ${JSON.stringify(name)}`).join(" && ");
  if (extra === false) {
    out += `for (const ${key} in ${v}) {\nif (${undeclared}) return extra(${path}, ${key});\n}\n`;
    return out;
  }
  const local = cx.local("v");
  const body = cx.node(extra, local, `${path} + "/" + esc(${key})`);
  const item = `const ${local} = ${v}[${key}];\n${body}`;
  if (body !== "") out += `for (const ${key} in ${v}) {\n${undeclared === "true" ? item : `if (${undeclared}) {\n${item}}\n`}}\n`;
  return out;
}
