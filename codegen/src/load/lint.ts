import { SpecError, pointer as ptr, pointerSegment } from "../errors.js";
import type { RefLookup } from "./resolve-refs.js";
import { deref, walkOperations, type Json, type RawOperation } from "./walk-operations.js";

/**
 * How strictly the generator's own rules apply.
 *
 * - `strict` (default, for our `openapi.yaml`): every operation declares
 *   `x-powercontext-retry-class`; every 4xx/5xx response uses the error envelope
 *   `{"error": {"code", "message", "details"}}`; every response declares the
 *   `X-PowerContext-Request-ID` header.
 * - `upstream` (for published contracts that predate our extensions, such as
 *   powercontext-0.0.2.yaml): a missing retry class defaults to `safe` for GET and
 *   HEAD and `never` otherwise; envelope and header findings are warnings.
 *
 * Both profiles reject what would make generated code wrong: missing or duplicate
 * operationIds, not exactly one success status, non-JSON bodies, unknown retry
 * classes, malformed `x-powercontext-*` extensions, header or cookie parameters.
 */
export type LintProfile = "strict" | "upstream";

/** The retry classes of DESIGN §4. */
export const RETRY_CLASSES = ["safe", "replay", "guarded", "never"] as const;
export type RetryClass = (typeof RETRY_CLASSES)[number];

export const REQUEST_ID_HEADER = "X-PowerContext-Request-ID";
const JSON_MEDIA_TYPE = "application/json";

/** Findings of {@link lint}: errors stop generation, warnings are printed. */
export interface LintResult {
  readonly errors: SpecError[];
  readonly warnings: SpecError[];
}

/**
 * Runs the generator's rules over a document that already passed the OpenAPI 3.0
 * schema check. Pure; never throws for spec content.
 */
export function lint(document: Json, lookup: RefLookup, profile: LintProfile): LintResult {
  const errors: SpecError[] = [];
  const warnings: SpecError[] = [];
  const soft = profile === "strict" ? errors : warnings;
  const operations = walkOperations(document, lookup);
  const seen = new Map<string, string>();
  const ids = new Set(operations.map((o) => o.operation.operationId).filter((id): id is string => typeof id === "string"));

  for (const raw of operations) {
    const { operation } = raw;
    const id = operation.operationId;
    if (typeof id !== "string" || id.length === 0) {
      errors.push(new SpecError("missing_operation_id", { pointer: raw.pointer }, `${raw.method.toUpperCase()} ${raw.path} has no operationId`));
    } else if (seen.has(id)) {
      errors.push(new SpecError("duplicate_operation_id", { pointer: `${raw.pointer}/operationId` }, `operationId "${id}" is already used at #${seen.get(id)}`));
    } else {
      seen.set(id, raw.pointer);
    }
    checkRetryClass(raw, profile, errors);
    checkExtensions(raw, ids, errors);
    checkParameters(raw, lookup, errors);
    checkRequestBody(raw, lookup, errors, soft);
    checkResponses(raw, lookup, errors, soft);
  }
  return { errors, warnings };
}

function checkRetryClass(raw: RawOperation, profile: LintProfile, errors: SpecError[]): void {
  const value = raw.operation["x-powercontext-retry-class"];
  const at = `${raw.pointer}/x-powercontext-retry-class`;
  if (value === undefined) {
    if (profile === "strict") errors.push(new SpecError("missing_retry_class", { pointer: raw.pointer }, `operation has no x-powercontext-retry-class (one of ${RETRY_CLASSES.join(", ")})`));
  } else if (!(RETRY_CLASSES as readonly unknown[]).includes(value)) {
    errors.push(new SpecError("unknown_retry_class", { pointer: at }, `unknown retry class ${JSON.stringify(value)}; expected one of ${RETRY_CLASSES.join(", ")}`));
  }
}

function checkExtensions(raw: RawOperation, ids: Set<string>, errors: SpecError[]): void {
  const op = raw.operation;
  const bad = (name: string, detail: string) => errors.push(new SpecError("invalid_extension", { pointer: `${raw.pointer}/${name}` }, detail));
  const permission = op["x-powercontext-permission"];
  if (permission !== undefined && (typeof permission !== "string" || permission.length === 0)) bad("x-powercontext-permission", "must be a non-empty string such as scope.read");
  const asyncExt = op["x-powercontext-async"] as Json | undefined;
  if (asyncExt !== undefined) {
    if (!isObject(asyncExt) || !Number.isInteger(asyncExt.accepted_status) || typeof asyncExt.poll_operation !== "string" || typeof asyncExt.result_field !== "string") {
      bad("x-powercontext-async", "expected { accepted_status: <2xx integer>, poll_operation: <operationId>, result_field: <name> }");
    } else if (!ids.has(asyncExt.poll_operation)) {
      bad("x-powercontext-async", `poll_operation "${asyncExt.poll_operation}" is not an operationId of this spec`);
    } else if (!(String(asyncExt.accepted_status) in ((op.responses ?? {}) as Json))) {
      bad("x-powercontext-async", `accepted_status ${String(asyncExt.accepted_status)} is not a declared response`);
    }
  }
  const reconcile = op["x-powercontext-reconcile"] as Json | undefined;
  if (reconcile !== undefined) {
    const holds = isObject(reconcile) ? (reconcile.holds_when as Json | undefined) : undefined;
    if (!isObject(reconcile) || typeof reconcile.read_operation !== "string" || typeof reconcile.id_parameter !== "string" || !isObject(holds) || !Array.isArray(holds.status) || !holds.status.every((s) => typeof s === "string")) {
      bad("x-powercontext-reconcile", "expected { read_operation: <operationId>, id_parameter: <name>, holds_when: { status: [<string>...] } }");
    } else if (!ids.has(reconcile.read_operation)) {
      bad("x-powercontext-reconcile", `read_operation "${reconcile.read_operation}" is not an operationId of this spec`);
    } else if (op["x-powercontext-retry-class"] !== "guarded") {
      bad("x-powercontext-reconcile", "only operations with retry class guarded are reconciled");
    }
  }
  const page = op["x-powercontext-pagination"] as Json | undefined;
  if (page !== undefined && (!isObject(page) || typeof page.cursor_parameter !== "string" || typeof page.next_cursor_field !== "string" || typeof page.items_field !== "string")) {
    bad("x-powercontext-pagination", "expected { cursor_parameter: <name>, next_cursor_field: <name>, items_field: <name> }");
  }
}

function checkParameters(raw: RawOperation, lookup: RefLookup, errors: SpecError[]): void {
  const own = Array.isArray(raw.operation.parameters) ? raw.operation.parameters : [];
  own.forEach((p, index) => {
    const parameter = deref(p, lookup) as Json;
    if (parameter.in === "header" || parameter.in === "cookie") {
      errors.push(new SpecError("unsupported_parameter", { pointer: `${raw.pointer}/parameters/${index}` }, `${String(parameter.in)} parameter "${String(parameter.name)}" is not supported; requests are flat objects of path, query and body fields`));
    }
  });
  raw.pathItemParameters.forEach((p, index) => {
    const parameter = deref(p, lookup) as Json;
    if (parameter.in === "header" || parameter.in === "cookie") {
      errors.push(new SpecError("unsupported_parameter", { pointer: `${ptr("paths", raw.path)}/parameters/${index}` }, `${String(parameter.in)} parameter "${String(parameter.name)}" is not supported`));
    }
  });
}

function checkRequestBody(raw: RawOperation, lookup: RefLookup, errors: SpecError[], soft: SpecError[]): void {
  if (raw.operation.requestBody === undefined) return;
  const body = deref(raw.operation.requestBody, lookup) as Json;
  const content = (body.content ?? {}) as Json;
  checkMediaTypes(content, `${raw.pointer}/requestBody/content`, "request", errors, soft);
}

function checkResponses(raw: RawOperation, lookup: RefLookup, errors: SpecError[], soft: SpecError[]): void {
  const responses = (raw.operation.responses ?? {}) as Json;
  const asyncExt = raw.operation["x-powercontext-async"] as Json | undefined;
  const accepted = isObject(asyncExt) ? String(asyncExt.accepted_status) : undefined;
  const success: string[] = [];
  for (const [status, rawResponse] of Object.entries(responses)) {
    const at = `${raw.pointer}/responses/${status}`;
    if (!/^[1-5]\d\d$/.test(status)) {
      errors.push(new SpecError("success_status", { pointer: at }, `response "${status}" is not supported; declare explicit status codes`));
      continue;
    }
    if (status.startsWith("2") && status !== accepted) success.push(status);
    const response = deref(rawResponse, lookup) as Json;
    const content = (response.content ?? {}) as Json;
    checkMediaTypes(content, `${at}/content`, "response", errors, soft);
    const headers = Object.keys((response.headers ?? {}) as Json).map((h) => h.toLowerCase());
    if (!headers.includes(REQUEST_ID_HEADER.toLowerCase())) {
      soft.push(new SpecError("request_id_header", { pointer: at }, `response does not declare the ${REQUEST_ID_HEADER} header`));
    }
    const envelopeWaived = response["x-powercontext-error-envelope"] === false;
    if (/^[45]/.test(status) && !envelopeWaived && !isErrorEnvelope((content[JSON_MEDIA_TYPE] as Json | undefined)?.schema, lookup)) {
      soft.push(new SpecError("error_envelope", { pointer: at }, `error response does not use the error envelope {"error": {"code", "message", "details"}}`));
    }
  }
  if (success.length !== 1) {
    const detail = success.length === 0 ? "operation declares no success (2xx) status" : `operation declares ${success.length} success statuses (${success.join(", ")}); exactly one is allowed besides x-powercontext-async.accepted_status`;
    errors.push(new SpecError("success_status", { pointer: `${raw.pointer}/responses` }, detail));
  }
}

/**
 * Bodies are JSON. A media type other than application/json is an error when it
 * stands alone (the client could not read or write it) and a profile-dependent
 * finding when offered beside application/json (the client always asks for JSON).
 */
function checkMediaTypes(content: Json, at: string, side: string, errors: SpecError[], soft: SpecError[]): void {
  const types = Object.keys(content);
  const hasJson = types.includes(JSON_MEDIA_TYPE);
  for (const mediaType of types) {
    if (mediaType === JSON_MEDIA_TYPE) continue;
    const target = hasJson ? soft : errors;
    target.push(new SpecError("unsupported_media_type", { pointer: `${at}/${pointerSegment(mediaType)}` }, `${side} media type "${mediaType}" is not supported; only ${JSON_MEDIA_TYPE}${side === "response" ? " or no content" : ""}`));
  }
}

/** True when the schema is an object whose required `error` member has `code`, `message` and `details`. */
export function isErrorEnvelope(schemaNode: unknown, lookup: RefLookup): boolean {
  const schema = deref(schemaNode, lookup) as Json | undefined;
  if (!isObject(schema)) return false;
  const properties = (schema.properties ?? {}) as Json;
  const error = deref(properties.error, lookup) as Json | undefined;
  if (!isObject(error) || !Array.isArray(schema.required) || !schema.required.includes("error")) return false;
  const inner = (error.properties ?? {}) as Json;
  return ["code", "message", "details"].every((name) => name in inner);
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
