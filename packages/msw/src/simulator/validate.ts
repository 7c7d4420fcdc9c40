import { INVALID_JSON } from "./types.js";
import { invalidRequest } from "./errors.js";

/**
 * Small request checks producing `422 invalid_request` (ADR 0001 §5). They
 * cover the constraints of the request schemas in `openapi.yaml` that the
 * simulator relies on; errors name the field, never echo its value.
 */

/** The body as an object. @throws SimError 422 when it is missing, not JSON or not an object. */
export function objectBody(body: unknown): Record<string, unknown> {
  if (body === INVALID_JSON) throw invalidRequest("body", "is not valid JSON");
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw invalidRequest("body", "must be a JSON object");
  }
  return body as Record<string, unknown>;
}

/** Fails on properties the closed request schema does not allow. @throws SimError 422 */
export function onlyFields(body: Record<string, unknown>, allowed: readonly string[]): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) throw invalidRequest(key, "is not a known field");
  }
}

/** Options of {@link stringField}. */
export interface StringRule {
  readonly max?: number;
  /** Require at least one non-space character (the `.*\S.*` pattern). */
  readonly nonBlank?: boolean;
  /** Require printable ASCII without spaces (the `^[\x21-\x7E]+$` pattern). */
  readonly printable?: boolean;
}

/** A required string field. @throws SimError 422 when absent, not a string or outside the rule. */
export function stringField(body: Record<string, unknown>, name: string, rule: StringRule = {}): string {
  const value = body[name];
  if (typeof value !== "string" || value.length === 0) throw invalidRequest(name, "must be a non-empty string");
  if (rule.max !== undefined && value.length > rule.max)
    throw invalidRequest(name, `must be at most ${rule.max} characters`);
  if (rule.nonBlank && !/\S/.test(value)) throw invalidRequest(name, "must not be blank");
  if (rule.printable && !/^[\x21-\x7E]+$/.test(value)) throw invalidRequest(name, "must be printable ASCII");
  return value;
}

/** A required `scope_id` (1..256 characters, not blank). @throws SimError 422 */
export function scopeField(body: Record<string, unknown>): string {
  return stringField(body, "scope_id", { max: 256, nonBlank: true });
}

/**
 * An integer field. Returns `fallback` when absent (or null and `nullable`).
 * @throws SimError 422 when present but not an integer within [min, max]
 */
export function intField(
  body: Record<string, unknown>,
  name: string,
  range: { min: number; max?: number },
  fallback: number | null,
  nullable = false,
): number | null {
  const value = body[name];
  if (value === undefined || (nullable && value === null)) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value)) throw invalidRequest(name, "must be an integer");
  if (value < range.min || (range.max !== undefined && value > range.max)) {
    throw invalidRequest(name, `must be between ${range.min} and ${range.max ?? "any"}`);
  }
  return value;
}

/** A required integer field. @throws SimError 422 */
export function requiredInt(body: Record<string, unknown>, name: string, min: number): number {
  if (body[name] === undefined) throw invalidRequest(name, "is required");
  return intField(body, name, { min }, null) as number;
}
