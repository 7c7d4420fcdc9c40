import type { ContractParameter, WireType } from "../../contract/types.js";
import type { ValidationError } from "@powercontext/sdk/validators";
import { SimError, contractViolation, invalidRequest } from "../errors.js";
import { INVALID_JSON, type SimRequest } from "../types.js";
import { breaksWireRule, checkWireRules } from "./model-rules.js";
import type { SimOperation } from "./operation-table.js";
import {
  jsonInvalidIssue,
  pointerSegments,
  releaseIssue,
  type IssueLocation,
  type ReleaseIssue,
} from "./release-issues.js";

/**
 * Checks a request against the operation's generated request validator (the
 * same compiled validator the SDK runs before sending), in the released
 * server's order and dialect (docs/compatibility.md, "Validation"). The flat
 * request object is the path, query and header parameters by wire name, read
 * as the type their schema declares, plus the members of the JSON body.
 *
 * - {@link checkJsonSyntax}, before the access decision: a body sent as JSON that
 *   does not parse is `422 invalid_request` with the framework's issue;
 *   {@link bodyModelFault} is what the access layer (`../access/`) refuses as
 *   `invalid_access_request` (it reads the body with the request model first).
 * - {@link checkParameters}, after it: a parameter that breaks its schema (and,
 *   without an access rule, a body fault) is `invalid_request` with
 *   `details.errors`: 422, or 400 for a query fault on a route under a path
 *   parameter; then an unknown or repeated query parameter is
 *   `422 invalid_request` `{field: "query", reason}`; then a value the request
 *   model checks (`x-powercontext-query-model`) is `422 invalid_request` with the
 *   issue at the parameter's name.
 */

/** The flat request object of `request` for `op` (what the request validator checks). */
export function flatRequest(op: SimOperation, request: SimRequest): unknown {
  const flat: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const p of op.parameters.path) put(flat, p, request.params?.[p.name]);
  for (const p of op.parameters.query) {
    put(
      flat,
      p,
      p.type === "array"
        ? (request.queryAll?.[p.name] ?? optionalList(request.query?.[p.name]))
        : request.query?.[p.name],
    );
  }
  for (const p of op.parameters.header) put(flat, p, headerValue(request.headers, p.name));
  if (op.body === null) return flat;
  // A body-only request validates the body itself (null or absent included).
  if (parameterCount(op) === 0) return request.body;
  const body = request.body;
  if (typeof body === "object" && body !== null && !Array.isArray(body)) {
    for (const [key, value] of Object.entries(body)) if (!Object.hasOwn(flat, key)) flat[key] = value;
  }
  return flat;
}

/**
 * The JSON syntax check the release's framework applies before anything else reads
 * the body (before access, whatever the principal's grants): a body sent as JSON
 * that does not parse.
 * @throws SimError 422 `invalid_request` with the `json_invalid` issue
 */
export function checkJsonSyntax(op: SimOperation, request: SimRequest): void {
  if (op.body !== null && request.body === INVALID_JSON) throw contractViolation(422, [jsonInvalidIssue()]);
}

/**
 * True when the release's access layer cannot read the body as the operation's
 * request model: absent or empty, no JSON (whatever its media type), not an
 * object, a string with a lone surrogate, a fault the request validator places
 * in the body, or a breach of a wire model rule.
 */
export function bodyModelFault(op: SimOperation, request: SimRequest): boolean {
  if (op.body === null) return false;
  const body = request.body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) return true;
  if (loneSurrogateAt(body) !== null) return true;
  // A missing precondition header is the handler's (428, later): it hides no body fault.
  const error = firstError(op, withPreconditions(op, request));
  if (error !== null) return locationOf(op, error) === "body";
  return breaksWireRule(op, flatRequest(op, request));
}

/**
 * Where a string in `value` (or a key) holds a UTF-16 surrogate without its pair,
 * as a list of member names and indexes; null when none does. JSON can carry one
 * (`"\ud800"`); the release's request models refuse it as no valid string.
 */
function loneSurrogateAt(value: unknown): (string | number)[] | null {
  if (typeof value === "string") return LONE_SURROGATE.test(value) ? [] : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const below = loneSurrogateAt(item);
      if (below !== null) return [index, ...below];
    }
    return null;
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (LONE_SURROGATE.test(key)) return [key];
      const below = loneSurrogateAt(item);
      if (below !== null) return [key, ...below];
    }
  }
  return null;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The parameter checks the release applies after deciding access.
 * @throws SimError 422/400 `invalid_request` with `details.errors`, or 422 `invalid_request` `{field: "query", reason}`
 */
export function checkParameters(op: SimOperation, request: SimRequest): void {
  // A missing precondition header is the handler's 428, after the other checks (checkPrecondition).
  const checked = withPreconditions(op, request);
  let error = firstError(op, checked);
  let where = error === null ? null : locationOf(op, error);
  // A value the request model reads is checked after the framework has read every other parameter.
  const modelFault = error !== null && where === "query" && modelReads(op, error) ? error : null;
  if (modelFault !== null) {
    error = firstError(op, withoutQuery(checked, new Set(op.queryModel.map((entry) => entry.name))));
    where = error === null ? null : locationOf(op, error);
  }
  if (error !== null && where !== "body") {
    const issue = releaseIssue(error, where ?? "query", true);
    throw contractViolation(where === "query" && op.parameters.path.length > 0 ? 400 : 422, [issue]);
  }
  const bodyIssue = bodyFault(op, request);
  if (bodyIssue !== null) throw contractViolation(422, [bodyIssue]);
  if (error !== null) throw contractViolation(422, [releaseIssue(error, "body", false)]);
  checkWireRules(op, flatRequest(op, request));
  checkQueryNames(op, request);
  if (modelFault !== null) {
    const issue = releaseIssue(modelFault, "query", true);
    throw contractViolation(422, [{ ...issue, loc: issue.loc.slice(1) }]);
  }
}

/**
 * True when `error` lies in a value the operation's request model checks
 * (`x-powercontext-query-model`): the whole parameter, or with `items` one of its items.
 */
function modelReads(op: SimOperation, error: ValidationError): boolean {
  const [name, ...below] = pointerSegments(error.instancePath);
  const entry = op.queryModel.find((e) => e.name === name);
  return entry !== undefined && (!entry.items || below.length > 0);
}

/** `request` without the query parameters `names`. */
function withoutQuery(request: SimRequest, names: ReadonlySet<string>): SimRequest {
  const kept = <T>(values: Readonly<Record<string, T>> | undefined) =>
    values === undefined ? undefined : Object.fromEntries(Object.entries(values).filter(([name]) => !names.has(name)));
  return { ...request, query: kept(request.query), queryAll: kept(request.queryAll) };
}

/**
 * The fault of a body the release's contract check cannot read as its model: one
 * sent without a JSON media type, or a JSON value that is no object, is
 * `model_attributes_type` at `["body"]`; a required body that is absent is
 * `missing` there; a string with a lone surrogate is `string_unicode` where it is. Null when the body is an object (its members are the
 * validator's to check) or an optional one is absent.
 */
function bodyFault(op: SimOperation, request: SimRequest): ReleaseIssue | null {
  if (op.body === null) return null;
  const body = request.body;
  if (request.bodyNotJson !== true) {
    if (body === undefined) return op.body.required ? { type: "missing", loc: ["body"], msg: "Field required" } : null;
    if (typeof body === "object" && body !== null && !Array.isArray(body)) {
      const at = loneSurrogateAt(body);
      if (at === null) return null;
      return {
        type: "string_unicode",
        loc: ["body", ...at],
        msg: "Input should be a valid string, unable to parse raw data as a unicode string",
      };
    }
  }
  return {
    type: "model_attributes_type",
    loc: ["body"],
    msg: "Input should be a valid dictionary or object to extract fields from",
  };
}

/**
 * The release's handlers refuse a change without its precondition: on an
 * operation that declares `428`, an absent required header parameter (the
 * `If-Match` of the Artifact writes) is `428 precondition_required`, details null.
 * @throws SimError 428 `precondition_required`
 */
export function checkPrecondition(op: SimOperation, request: SimRequest): void {
  const missing = missingPreconditions(op, request)[0];
  if (missing !== undefined) {
    throw new SimError(428, "precondition_required", `The change requires the current ETag in ${missing.name}.`, null);
  }
}

function missingPreconditions(op: SimOperation, request: SimRequest): ContractParameter[] {
  if (!op.responses.some((r) => r.status === 428)) return [];
  return op.parameters.header.filter((p) => p.required && headerValue(request.headers, p.name) === undefined);
}

/** `request` with a stand-in for each missing precondition header, so parameter validation passes over them. */
function withPreconditions(op: SimOperation, request: SimRequest): SimRequest {
  const missing = missingPreconditions(op, request);
  if (missing.length === 0) return request;
  return { ...request, headers: { ...request.headers, ...Object.fromEntries(missing.map((p) => [p.name, "*"])) } };
}

/** The header `name` of `headers`, case-insensitively. */
export function headerValue(headers: SimRequest["headers"], name: string): string | undefined {
  if (headers === undefined) return undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/** An operation that reads query parameters takes no others, and each non-list one at most once. */
function checkQueryNames(op: SimOperation, request: SimRequest): void {
  const declared = op.parameters.query;
  if (declared.length === 0) return;
  const names = new Set([...Object.keys(request.queryAll ?? {}), ...Object.keys(request.query ?? {})]);
  if ([...names].some((name) => !declared.some((p) => p.name === name)))
    throw invalidRequest("query", "contains unknown parameters");
  const repeated = declared.some((p) => p.type !== "array" && (request.queryAll?.[p.name]?.length ?? 0) > 1);
  if (repeated) throw invalidRequest("query", "parameters must be provided at most once");
}

function firstError(op: SimOperation, request: SimRequest): ValidationError | null {
  const validate = op.requestValidator;
  if (validate === null) return null;
  if (validate(flatRequest(op, request))) return null;
  return (
    (validate.errors ?? [])[0] ?? {
      instancePath: "",
      schemaPath: "",
      keyword: "type",
      params: { type: "object" },
      message: "is invalid",
    }
  );
}

/** Where the value a validator error names was read from: the parameter of that name, else the body. */
function locationOf(op: SimOperation, error: ValidationError): IssueLocation {
  if (op.body !== null && parameterCount(op) === 0) return "body";
  const first = error.instancePath.split("/")[1] ?? error.params.missingProperty ?? error.params.additionalProperty;
  const name = typeof first === "string" ? first.replace(/~1/g, "/").replace(/~0/g, "~") : "";
  for (const where of ["path", "query", "header"] as const) {
    if (op.parameters[where].some((p) => p.name === name)) return where;
  }
  return op.body === null ? "query" : "body";
}

function parameterCount(op: SimOperation): number {
  return op.parameters.path.length + op.parameters.query.length + op.parameters.header.length;
}

function put(flat: Record<string, unknown>, p: ContractParameter, raw: string | readonly string[] | undefined): void {
  if (raw === undefined) return;
  flat[p.name] = Array.isArray(raw)
    ? raw.map((item: string) => read(item, p.items ?? "string"))
    : read(raw as string, p.type);
}

function optionalList(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : [value];
}

/** A wire string as its declared type; a string that is not one stays a string, so the validator reports it. */
function read(raw: string, type: WireType): unknown {
  if (type === "integer" && /^-?\d+$/.test(raw)) return Number(raw);
  if (type === "number" && raw.trim() !== "" && Number.isFinite(Number(raw))) return Number(raw);
  if (type === "boolean" && (raw === "true" || raw === "false")) return raw === "true";
  return raw;
}
