import type { ValidationError } from "@powercontext/sdk/validators";

/**
 * One entry of `details.errors` in the released server's `422`/`400
 * invalid_request` ("The request violates the API contract."): the issue its
 * framework reports, without the offending input. `loc` starts with where the
 * value was read (`body`, `query`, `path`, `header`) followed by the member
 * names and list indexes leading to it; `type` and `msg` are the framework's
 * names and sentences for the broken rule.
 */
export interface ReleaseIssue {
  readonly type: string;
  readonly loc: readonly (string | number)[];
  readonly msg: string;
}

/** Where a checked value was read from. */
export type IssueLocation = "body" | "query" | "path" | "header";

/** The issue of a body that is not JSON (the release also reports the character position; 0 here). */
export function jsonInvalidIssue(): ReleaseIssue {
  return { type: "json_invalid", loc: ["body", 0], msg: "JSON decode error" };
}

/**
 * The release's issue for one failure of a generated validator. `fromString`
 * says the value arrived as a wire string (query, path, header), whose type
 * faults the release names `*_parsing` instead of `*_type`.
 */
export function releaseIssue(error: ValidationError, where: IssueLocation, fromString: boolean): ReleaseIssue {
  const loc: (string | number)[] = [where, ...pointerSegments(error.instancePath)];
  const named = error.params.missingProperty ?? error.params.additionalProperty;
  if (typeof named === "string") loc.push(named);
  const { type, msg } = describe(error, fromString);
  return { type, loc, msg };
}

/** The segments of a JSON pointer; array indexes as numbers, as the release writes them. */
export function pointerSegments(pointer: string): (string | number)[] {
  if (pointer === "") return [];
  return pointer
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((s) => (/^(0|[1-9]\d*)$/.test(s) ? Number(s) : s));
}

const TYPE_NAMES: Readonly<Record<string, { type: string; parse: string; what: string }>> = {
  integer: { type: "int_type", parse: "int_parsing", what: "a valid integer" },
  number: { type: "float_type", parse: "float_parsing", what: "a valid number" },
  boolean: { type: "bool_type", parse: "bool_parsing", what: "a valid boolean" },
  string: { type: "string_type", parse: "string_type", what: "a valid string" },
  array: { type: "list_type", parse: "list_type", what: "a valid list" },
  object: { type: "dict_type", parse: "dict_type", what: "a valid dictionary" },
};

const PARSE_TAIL: Readonly<Record<string, string>> = {
  int_parsing: ", unable to parse string as an integer",
  float_parsing: ", unable to parse string as a number",
  bool_parsing: ", unable to interpret input",
};

const BOUNDS: Readonly<Record<string, { type: string; words: string }>> = {
  ">=": { type: "greater_than_equal", words: "greater than or equal to" },
  ">": { type: "greater_than", words: "greater than" },
  "<=": { type: "less_than_equal", words: "less than or equal to" },
  "<": { type: "less_than", words: "less than" },
};

function plural(n: unknown, unit: string): string {
  return `${String(n)} ${unit}${n === 1 ? "" : "s"}`;
}

function quoted(values: readonly unknown[]): string {
  const shown = values.map((v) => (typeof v === "string" ? `'${v}'` : JSON.stringify(v)));
  return shown.length <= 1 ? shown.join("") : `${shown.slice(0, -1).join(", ")} or ${shown[shown.length - 1] ?? ""}`;
}

function describe(error: ValidationError, fromString: boolean): { type: string; msg: string } {
  const p = error.params;
  switch (error.keyword) {
    case "required":
      return { type: "missing", msg: "Field required" };
    case "additionalProperties":
      return { type: "extra_forbidden", msg: "Extra inputs are not permitted" };
    case "type": {
      const names = TYPE_NAMES[String(p.type)] ?? { type: "dict_type", parse: "dict_type", what: "a valid dictionary" };
      const type = fromString ? names.parse : names.type;
      return { type, msg: `Input should be ${names.what}${PARSE_TAIL[type] ?? ""}` };
    }
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum": {
      const bound = BOUNDS[String(p.comparison)] ?? { type: "greater_than_equal", words: "greater than or equal to" };
      return { type: bound.type, msg: `Input should be ${bound.words} ${String(p.limit)}` };
    }
    case "minLength":
      return { type: "string_too_short", msg: `String should have at least ${plural(p.limit, "character")}` };
    case "maxLength":
      return { type: "string_too_long", msg: `String should have at most ${plural(p.limit, "character")}` };
    case "minItems":
      return { type: "too_short", msg: `List should have at least ${plural(p.limit, "item")} after validation` };
    case "maxItems":
      return { type: "too_long", msg: `List should have at most ${plural(p.limit, "item")} after validation` };
    case "pattern":
      return { type: "string_pattern_mismatch", msg: `String should match pattern '${String(p.pattern)}'` };
    case "enum":
      return { type: "enum", msg: `Input should be ${quoted(Array.isArray(p.allowedValues) ? p.allowedValues : [])}` };
    case "const":
      return { type: "literal_error", msg: `Input should be ${quoted([p.allowedValue])}` };
    default:
      return { type: "value_error", msg: `Value error, ${error.message}` };
  }
}
