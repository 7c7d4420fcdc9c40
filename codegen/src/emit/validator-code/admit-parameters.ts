const DEFINITIONS = "#/definitions/";

/**
 * Makes a converted (draft-07) body schema accept an object whose root also holds
 * the operation's parameters, as the flat request object does: every schema that
 * applies to the root instance (through `$ref`, `allOf`/`anyOf`/`oneOf`,
 * `if`/`then`/`else` and `not`) and limits its members (`additionalProperties`
 * other than `true`) gets the parameter names as allowed properties, with no
 * constraint of their own. The parameters' values are checked by the parameters'
 * schema beside it. A root `$ref` is replaced by a copy of its target, so shared
 * component schemas are left as they are; nested members are not touched.
 *
 * This is what lets a composed body (a `oneOf` of closed objects, with or without a
 * discriminator) sit beside path parameters: merging the parameters into one
 * object, as is done for a plain object body, is impossible there.
 *
 * @param definition - the converted schema of a `#/definitions/<key>` reference
 */
export function admitParameters(
  schema: Json | boolean,
  names: readonly string[],
  definition: (key: string) => Json | boolean | undefined,
  depth = 0,
): Json | boolean {
  if (typeof schema === "boolean" || depth > 32 || names.length === 0) return schema;
  if (typeof schema.$ref === "string" && schema.$ref.startsWith(DEFINITIONS)) {
    const target = definition(schema.$ref.slice(DEFINITIONS.length));
    return target === undefined ? schema : admitParameters(target, names, definition, depth + 1);
  }
  const out: Json = { ...schema };
  for (const key of ["allOf", "anyOf", "oneOf"]) {
    if (Array.isArray(out[key]))
      out[key] = (out[key] as (Json | boolean)[]).map((member) =>
        admitParameters(member, names, definition, depth + 1),
      );
  }
  for (const key of ["if", "then", "else", "not"]) {
    if (out[key] !== undefined) out[key] = admitParameters(out[key] as Json | boolean, names, definition, depth + 1);
  }
  if (out.additionalProperties !== undefined && out.additionalProperties !== true) {
    out.properties = {
      ...Object.fromEntries(names.map((name) => [name, true])),
      ...((out.properties as Json | undefined) ?? {}),
    };
  }
  return out;
}
import type { Json } from "../../domain/types.js";
