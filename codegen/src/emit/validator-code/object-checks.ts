import type { Json } from "../../ir/domain.js";
import { childPath, type CheckContext } from "./keywords.js";

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
    const [op, helper] = keyword === "minProperties" ? ["<", "fewer"] : [">", "more"];
    out += `if (Object.keys(${v}).length ${op} ${n}) return ${helper}(${path}, "${keyword}", ${n}, "properties");\n`;
  }
  const required = new Set((s.required ?? []) as string[]);
  for (const [name, schema] of Object.entries(properties)) {
    const local = cx.local("v");
    const body = cx.node(schema, local, childPath(path, name));
    if (body === "") continue;
    // A required property is known to be present here (checked above); an optional one is checked only when given.
    out += `const ${local} = ${v}[${JSON.stringify(name)}];\n${required.has(name) ? body : `if (${local} !== undefined) {\n${body}}\n`}`;
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
