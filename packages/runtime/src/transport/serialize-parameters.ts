import type { ParameterStyle } from "../descriptor.js";
import { InvalidRequestError } from "../errors.js";
import { FIELD_VALUE_RULE, isFieldValue } from "./header-field.js";

/** Encodes one query component as `application/x-www-form-urlencoded` does (`,` -> `%2C`, space -> `+`). */
function formEncode(text: string): string {
  return new URLSearchParams([["", text]]).toString().slice(1);
}

/**
 * A parameter's scalar as text.
 *
 * @param composite whether an array or object of scalars would also do (query
 *   and header parameters), for the message.
 * @throws InvalidRequestError for anything but a string, finite number or boolean
 */
export function scalarText(name: string, value: unknown, composite = true): string {
  if (typeof value === "string") return value;
  if ((typeof value === "number" && Number.isFinite(value)) || typeof value === "boolean") return String(value);
  throw new InvalidRequestError(
    `parameter ${name} must be a string, finite number or boolean${composite ? " (or an array or object of them)" : ""}`,
  );
}

const DELIMITERS: Partial<Record<ParameterStyle["style"], string>> = {
  form: ",",
  spaceDelimited: "%20",
  pipeDelimited: "|",
};

/**
 * Serialises one query parameter (OpenAPI 3 `style`/`explode`) into `name=value`
 * pairs, already percent-encoded. Scalars give one pair. Arrays: exploded `form`
 * repeats the name (`tag=a&tag=b`); otherwise one pair whose items are encoded
 * one by one and joined by the style's delimiter (`tags=a%2Cb,c` for `form`,
 * `%20` for `spaceDelimited`, `|` for `pipeDelimited`). Objects: exploded `form`
 * gives one pair per member, `deepObject` gives `name[key]=value`, unexploded
 * `form` gives `name=key,value,...`. `null` and `undefined` members are left out.
 *
 * @throws InvalidRequestError for values that are not scalars (or arrays and
 *   objects of scalars), or a style the query does not allow.
 */
export function queryPairs(
  name: string,
  value: unknown,
  style: ParameterStyle = { style: "form", explode: true },
): string[] {
  if (value === undefined || value === null) return [];
  const key = formEncode(name);
  if (Array.isArray(value)) {
    const items = value
      .filter((item) => item !== undefined && item !== null)
      .map((item) => formEncode(scalarText(name, item)));
    if (style.explode && style.style === "form") return items.map((item) => `${key}=${item}`);
    const delimiter = DELIMITERS[style.style];
    if (delimiter === undefined)
      throw new InvalidRequestError(`parameter ${name}: style ${style.style} does not apply to an array in a query`);
    return items.length === 0 ? [] : [`${key}=${items.join(delimiter)}`];
  }
  if (typeof value === "object") {
    const members = Object.entries(value as Record<string, unknown>).filter(
      ([, item]) => item !== undefined && item !== null,
    );
    if (style.style === "deepObject")
      return members.map(
        ([member, item]) => `${formEncode(`${name}[${member}]`)}=${formEncode(scalarText(name, item))}`,
      );
    if (style.style !== "form")
      throw new InvalidRequestError(`parameter ${name}: style ${style.style} does not apply to an object in a query`);
    if (style.explode)
      return members.map(([member, item]) => `${formEncode(member)}=${formEncode(scalarText(name, item))}`);
    return members.length === 0
      ? []
      : [
          `${key}=${members.map(([member, item]) => `${formEncode(member)},${formEncode(scalarText(name, item))}`).join(",")}`,
        ];
  }
  return [`${key}=${formEncode(scalarText(name, value))}`];
}

/**
 * Serialises a header parameter (`simple` style): arrays as `a,b`, objects as
 * `k,v,k2,v2` (or `k=v,k2=v2` when exploded).
 *
 * @throws InvalidRequestError for a value with CR, LF, NUL, DEL or a character
 *   beyond U+00FF (no HTTP/1.1 message can carry it; CR or LF would split or
 *   end the header), or one that is not a scalar, array or object of scalars.
 */
export function headerValue(
  name: string,
  value: unknown,
  style: ParameterStyle = { style: "simple", explode: false },
): string {
  let text: string;
  if (Array.isArray(value)) text = value.map((item) => scalarText(name, item)).join(",");
  else if (value !== null && typeof value === "object") {
    const members = Object.entries(value as Record<string, unknown>).map(([member, item]) => [
      member,
      scalarText(name, item),
    ]);
    text = members.map(([member, item]) => (style.explode ? `${member}=${item}` : `${member},${item}`)).join(",");
  } else text = scalarText(name, value);
  if (!isFieldValue(text)) throw new InvalidRequestError(`header parameter ${name} ${FIELD_VALUE_RULE}`);
  return text;
}
