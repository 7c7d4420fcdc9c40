import { RETRY_CLASSES, type Json, type LintProfile, type RefLookup } from "../ir/domain.js";
import { SpecError, pointerSegment } from "../errors.js";
import { mediaKind } from "../ir/media.js";
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
    checkRetryClass(raw, errors);
    checkExtensions(raw, ids, errors);
    checkRequestBody(raw, lookup, errors, profile === "strict" ? errors : warnings);
    checkResponses(raw, errors);
  }
  return { errors, warnings };
}

function checkRetryClass(raw: RawOperation, errors: SpecError[]): void {
  const value = raw.operation["x-powercontext-retry-class"];
  const at = `${raw.pointer}/x-powercontext-retry-class`;
  if (value !== undefined && !(RETRY_CLASSES as readonly unknown[]).includes(value)) {
    errors.push(
      new SpecError(
        "unknown_retry_class",
        { pointer: at },
        `unknown retry class ${JSON.stringify(value)}; expected one of ${RETRY_CLASSES.join(", ")}`,
      ),
    );
  }
}

function checkExtensions(raw: RawOperation, ids: Set<string>, errors: SpecError[]): void {
  const op = raw.operation;
  const bad = (name: string, detail: string) =>
    errors.push(new SpecError("invalid_extension", { pointer: `${raw.pointer}/${name}` }, detail));
  const permission = op["x-powercontext-permission"];
  if (permission !== undefined && (typeof permission !== "string" || permission.length === 0))
    bad("x-powercontext-permission", "must be a non-empty string such as scope.read");
  const asyncExt = op["x-powercontext-async"] as Json | undefined;
  if (asyncExt !== undefined) {
    if (
      !isObject(asyncExt) ||
      !Number.isInteger(asyncExt.accepted_status) ||
      typeof asyncExt.poll_operation !== "string" ||
      typeof asyncExt.result_field !== "string"
    ) {
      bad(
        "x-powercontext-async",
        "expected { accepted_status: <2xx integer>, poll_operation: <operationId>, result_field: <name> }",
      );
    } else if (!ids.has(asyncExt.poll_operation)) {
      bad("x-powercontext-async", `poll_operation "${asyncExt.poll_operation}" is not an operationId of this spec`);
    } else if (!(String(asyncExt.accepted_status) in ((op.responses ?? {}) as Json))) {
      bad("x-powercontext-async", `accepted_status ${String(asyncExt.accepted_status)} is not a declared response`);
    }
  }
  const reconcile = op["x-powercontext-reconcile"] as Json | undefined;
  if (reconcile !== undefined) {
    const holds = isObject(reconcile) ? (reconcile.holds_when as Json | undefined) : undefined;
    if (
      !isObject(reconcile) ||
      typeof reconcile.read_operation !== "string" ||
      typeof reconcile.id_parameter !== "string" ||
      !isObject(holds) ||
      !Array.isArray(holds.status) ||
      !holds.status.every((s) => typeof s === "string")
    ) {
      bad(
        "x-powercontext-reconcile",
        "expected { read_operation: <operationId>, id_parameter: <name>, holds_when: { status: [<string>...] } }",
      );
    } else if (!ids.has(reconcile.read_operation)) {
      bad(
        "x-powercontext-reconcile",
        `read_operation "${reconcile.read_operation}" is not an operationId of this spec`,
      );
    } else if (op["x-powercontext-retry-class"] !== "guarded") {
      bad("x-powercontext-reconcile", "only operations with retry class guarded are reconciled");
    }
  }
  const page = op["x-powercontext-pagination"] as Json | undefined;
  if (
    page !== undefined &&
    (!isObject(page) ||
      typeof page.cursor_parameter !== "string" ||
      typeof page.next_cursor_field !== "string" ||
      typeof page.items_field !== "string")
  ) {
    bad(
      "x-powercontext-pagination",
      "expected { cursor_parameter: <name>, next_cursor_field: <name>, items_field: <name> }",
    );
  }
  const notServed = op["x-powercontext-not-served"] as Json | undefined;
  if (notServed !== undefined) {
    if (
      !isObject(notServed) ||
      notServed.status !== 404 ||
      typeof notServed.message !== "string" ||
      notServed.message.trim() === "" ||
      Object.keys(notServed).some((key) => key !== "status" && key !== "message")
    ) {
      bad("x-powercontext-not-served", "expected { status: 404, message: <what the SDK tells the caller> }");
    } else if (!("404" in ((op.responses ?? {}) as Json))) {
      bad("x-powercontext-not-served", "status 404 is not a declared response");
    }
  }
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
