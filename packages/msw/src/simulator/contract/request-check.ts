import type { ContractParameter, WireType } from "../../generated/contract.js";
import type { ValidationError } from "../../generated/validators.js";
import { invalidRequest } from "../errors.js";
import { INVALID_JSON, type SimRequest } from "../types.js";
import type { SimOperation } from "./operation-table.js";

/**
 * Checks a request against the operation's generated request validator (the
 * same compiled validator the SDK runs before sending): the flat request
 * object is the path, query and header parameters by wire name, read as the
 * type their schema declares, plus the members of the JSON body. A failure is
 * `422 invalid_request` naming the field and the rule, never the value.
 */

/** The flat request object of `request` for `op` (what the request validator checks). */
export function flatRequest(op: SimOperation, request: SimRequest): unknown {
  const flat: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const p of op.parameters.path) put(flat, p, request.params?.[p.name]);
  for (const p of op.parameters.query) {
    put(flat, p, p.type === "array" ? request.queryAll?.[p.name] ?? optionalList(request.query?.[p.name]) : request.query?.[p.name]);
  }
  for (const p of op.parameters.header) put(flat, p, headerValue(request.headers, p.name));
  const parameterCount = op.parameters.path.length + op.parameters.query.length + op.parameters.header.length;
  if (op.body === null) return flat;
  // A body-only request validates the body itself (null or absent included).
  if (parameterCount === 0) return request.body;
  const body = request.body;
  if (typeof body === "object" && body !== null && !Array.isArray(body)) {
    for (const [key, value] of Object.entries(body)) if (!Object.hasOwn(flat, key)) flat[key] = value;
  }
  return flat;
}

/**
 * Validates `request` for `op`.
 * @throws SimError 422 `invalid_request` when the body is not JSON or the request breaks the schema
 */
export function checkRequest(op: SimOperation, request: SimRequest): void {
  if (op.body !== null && request.body === INVALID_JSON) throw invalidRequest("body", "is not valid JSON");
  const validate = op.requestValidator;
  if (validate === null) return;
  const flat = flatRequest(op, request);
  if (op.body !== null && op.body.required === false && request.body === undefined && flat === undefined) return;
  if (!validate(flat)) {
    const error = (validate.errors ?? [])[0];
    throw invalidRequest(fieldOf(error), error?.message ?? "is invalid");
  }
}

/** The header `name` of `headers`, case-insensitively. */
export function headerValue(headers: SimRequest["headers"], name: string): string | undefined {
  if (headers === undefined) return undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

function put(flat: Record<string, unknown>, p: ContractParameter, raw: string | readonly string[] | undefined): void {
  if (raw === undefined) return;
  flat[p.name] = Array.isArray(raw) ? raw.map((item: string) => read(item, p.items ?? "string")) : read(raw as string, p.type);
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

function fieldOf(error: ValidationError | undefined): string {
  if (error === undefined) return "body";
  const path = error.instancePath.split("/").slice(1).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  const extra = error.params.missingProperty ?? error.params.additionalProperty;
  if (typeof extra === "string") path.push(extra);
  return path.length === 0 ? "body" : path.join(".");
}
