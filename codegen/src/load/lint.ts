import type { Json, LintProfile, RefLookup } from "../domain/types.js";
import { checkExtensions } from "./check-extensions.js";
import { SpecError, pointerSegment } from "../errors.js";
import { mediaKind } from "../domain/media.js";
import { deref, walkOperations, type RawOperation } from "./walk-operations.js";

/** Findings of {@link lint}: errors stop generation, warnings are printed. */
export interface LintResult {
  readonly errors: SpecError[];
  readonly warnings: SpecError[];
}

/**
 * Runs the generator's structural rules over a document that already passed the
 * OpenAPI schema check. Pure; never throws for spec content.
 */
export function lint(document: Json, lookup: RefLookup, profile: LintProfile): LintResult {
  const errors: SpecError[] = [];
  const warnings: SpecError[] = [];
  const operations = walkOperations(document, lookup);
  const seen = new Map<string, string>();
  const ids = new Set(
    operations.map((o) => o.operation.operationId).filter((id): id is string => typeof id === "string"),
  );

  // Extension shapes first: the checks below read extensions as the schema says they are.
  const shapes = checkExtensions(document, lookup);
  errors.push(...shapes);
  for (const raw of operations) {
    const { operation } = raw;
    const id = operation.operationId;
    if (typeof id !== "string" || id.length === 0) {
      errors.push(
        new SpecError(
          "missing_operation_id",
          { pointer: raw.pointer },
          `${raw.method.toUpperCase()} ${raw.path} has no operationId`,
        ),
      );
    } else if (seen.has(id)) {
      errors.push(
        new SpecError(
          "duplicate_operation_id",
          { pointer: `${raw.pointer}/operationId` },
          `operationId "${id}" is already used at #${seen.get(id)}`,
        ),
      );
    } else {
      seen.set(id, raw.pointer);
    }
    if (shapes.length === 0) checkExtensionTargets(raw, ids, errors);
    checkRequestBody(raw, lookup, errors, profile === "strict" ? errors : warnings);
    checkResponses(raw, errors);
  }
  return { errors, warnings };
}

/**
 * What one operation's extensions name elsewhere in the document (their shapes are
 * checked against extensions.schema.json first): `x-powercontext-async`'s poll
 * operation and accepted status, `x-powercontext-reconcile`'s read operation and the
 * retry class it needs, `x-powercontext-not-served`'s declared 404.
 */
function checkExtensionTargets(raw: RawOperation, ids: Set<string>, errors: SpecError[]): void {
  const op = raw.operation;
  const bad = (name: string, detail: string) =>
    errors.push(new SpecError("invalid_extension", { pointer: `${raw.pointer}/${name}` }, detail));
  const declared = (op.responses ?? {}) as Json;
  const asyncExt = op["x-powercontext-async"] as { poll_operation: string; accepted_status: number } | undefined;
  if (asyncExt !== undefined && !ids.has(asyncExt.poll_operation))
    bad("x-powercontext-async", `poll_operation "${asyncExt.poll_operation}" is not an operationId of this spec`);
  else if (asyncExt !== undefined && !(String(asyncExt.accepted_status) in declared))
    bad("x-powercontext-async", `accepted_status ${asyncExt.accepted_status} is not a declared response`);
  const reconcile = op["x-powercontext-reconcile"] as { read_operation: string } | undefined;
  if (reconcile !== undefined && !ids.has(reconcile.read_operation))
    bad("x-powercontext-reconcile", `read_operation "${reconcile.read_operation}" is not an operationId of this spec`);
  else if (reconcile !== undefined && op["x-powercontext-retry-class"] !== "guarded")
    bad("x-powercontext-reconcile", "only operations with retry class guarded are reconciled");
  if (op["x-powercontext-not-served"] !== undefined && !("404" in declared))
    bad("x-powercontext-not-served", "status 404 is not a declared response");
}

function checkRequestBody(raw: RawOperation, lookup: RefLookup, errors: SpecError[], soft: SpecError[]): void {
  if (raw.operation.requestBody === undefined) return;
  const body = deref(raw.operation.requestBody, lookup) as Json;
  const content = (body.content ?? {}) as Json;
  checkMediaTypes(content, `${raw.pointer}/requestBody/content`, errors, soft);
}

function checkResponses(raw: RawOperation, errors: SpecError[]): void {
  const responses = (raw.operation.responses ?? {}) as Json;
  let success = 0;
  for (const status of Object.keys(responses)) {
    // `default` describes the body of any status not declared: an error to this client, whatever it holds
    if (status === "default") continue;
    if (!/^[1-5]\d\d$/.test(status)) {
      errors.push(
        new SpecError(
          "success_status",
          { pointer: `${raw.pointer}/responses/${status}` },
          `response "${status}" is not supported; declare explicit status codes`,
        ),
      );
    } else if (status.startsWith("2")) {
      success += 1;
    }
  }
  if (success === 0)
    errors.push(
      new SpecError(
        "success_status",
        { pointer: `${raw.pointer}/responses` },
        "operation declares no success (2xx) status",
      ),
    );
}

/**
 * Request bodies are JSON: a body with no JSON media type (application/json or
 * `+json`) is an error, since the client could not write it; another media type
 * offered beside JSON is a profile-dependent finding (the client always sends JSON).
 * Responses may be of any media type (JSON, text, binary; see `ir/media.ts`).
 */
function checkMediaTypes(content: Json, at: string, errors: SpecError[], soft: SpecError[]): void {
  const types = Object.keys(content);
  const hasJson = types.some((type) => mediaKind(type) === "json");
  for (const mediaType of types) {
    if (mediaKind(mediaType) === "json") continue;
    const target = hasJson ? soft : errors;
    target.push(
      new SpecError(
        "unsupported_media_type",
        { pointer: `${at}/${pointerSegment(mediaType)}` },
        `request media type "${mediaType}" is not supported; only JSON request bodies are sent`,
      ),
    );
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
