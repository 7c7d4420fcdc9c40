import type { Json } from "./domain.js";
import { SpecError, SpecErrorList, pointerSegment } from "../errors.js";
import { camelCase } from "./naming.js";
import { isReservedKey } from "./reserved-names.js";
import { RUNTIME_ERROR_CLASSES } from "./runtime-names.js";
import type { ErrorCodeIr, ErrorDetailIr, OperationErrorCodesIr } from "./model.js";

/** Where the registry lives in the document, and where an operation lists its codes. */
export const ERROR_CODES_EXTENSION = "x-powercontext-error-codes";
/** Per-operation `{ "<status>": [code, ...] }`. */
export const OPERATION_ERRORS_EXTENSION = "x-powercontext-errors";

const CLASS_NAME = /^[A-Z][A-Za-z0-9]*Error$/;

/** The statuses the runtime's retry policy may re-send (docs/retry-classes.md). */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/**
 * The codes that stop a retry: those a wait cannot cure (`transient: false`)
 * that arrive with a status the retry policy re-sends (429, 502, 503, 504).
 * Every descriptor carries these and no others: a transient code changes no
 * retry decision, and a code of another status (400, 404, 409, 500, ...)
 * belongs to a status that is never re-sent, so neither needs to be in an
 * app's bundle.
 */
export function retryStopCodes(rows: readonly ErrorCodeIr[]): ErrorCodeIr[] {
  return rows.filter((row) => !row.transient && RETRYABLE_STATUSES.has(row.status));
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads the document-level registry `x-powercontext-error-codes`
 * (`{ <code>: { status, transient, details?, class? } }`, docs/architecture.md).
 * `details` is a list of member names (each typed `unknown`) or a map of member
 * name to JSON schema; `class` names the error class generated for the code.
 * Sorted by code; empty when the document has no registry.
 *
 * @throws {SpecErrorList} `invalid_extension` naming the pointer of every malformed row
 */
export function readErrorCodes(document: Json): ErrorCodeIr[] {
  const registry = document[ERROR_CODES_EXTENSION];
  if (registry === undefined) return [];
  const base = `/${ERROR_CODES_EXTENSION}`;
  if (!isObject(registry))
    throw new SpecErrorList([
      new SpecError("invalid_extension", { pointer: base }, "expected { <code>: { status, transient, details? } }"),
    ]);
  const issues: SpecError[] = [];
  const rows: ErrorCodeIr[] = [];
  const classes = new Map<string, string>();
  for (const code of Object.keys(registry).sort()) {
    const at = `${base}/${pointerSegment(code)}`;
    const row = registry[code];
    const bad = (where: string, detail: string) =>
      issues.push(new SpecError("invalid_extension", { pointer: `${at}${where}` }, detail));
    if (
      !isObject(row) ||
      !Number.isInteger(row.status) ||
      (row.status as number) < 400 ||
      (row.status as number) > 599 ||
      typeof row.transient !== "boolean"
    ) {
      bad("", `error code "${code}": expected { status: <4xx or 5xx integer>, transient: <boolean> }`);
      continue;
    }
    if (isReservedKey(code)) {
      bad(
        "",
        `error code "${code}" is a member every JavaScript object has; as a key of the generated code table it would break it`,
      );
      continue;
    }
    const details = readDetails(row.details, (detail) => bad("/details", `error code "${code}": ${detail}`));
    const members = new Map<string, string>();
    for (const detail of details) {
      const member = camelCase(detail.name);
      const other = members.get(member);
      if (other !== undefined)
        bad("/details", `error code "${code}": details "${other}" and "${detail.name}" both become member ${member}`);
      members.set(member, detail.name);
    }
    const className = row.class;
    if (className !== undefined && (typeof className !== "string" || !CLASS_NAME.test(className))) {
      bad("/class", `error code "${code}": class must be a PascalCase name ending in Error`);
      continue;
    }
    if (typeof className === "string" && RUNTIME_ERROR_CLASSES.has(className)) {
      bad(
        "/class",
        `error code "${code}": ${className} is a class of the runtime; a contract class needs a name of its own`,
      );
      continue;
    }
    if (typeof className === "string") {
      const owner = classes.get(className);
      if (owner !== undefined) bad("/class", `error codes "${owner}" and "${code}" both name class ${className}`);
      classes.set(className, code);
    }
    rows.push({
      code,
      status: row.status as number,
      transient: row.transient,
      details,
      className: typeof className === "string" ? className : null,
      pointer: at,
    });
  }
  if (issues.length > 0) throw new SpecErrorList(issues);
  return rows;
}

function readDetails(node: unknown, bad: (detail: string) => void): ErrorDetailIr[] {
  if (node === undefined) return [];
  if (Array.isArray(node) && node.every((name) => typeof name === "string" && name !== ""))
    return node.map((name) => ({ name: name as string, schema: null }));
  if (isObject(node) && Object.values(node).every(isObject))
    return Object.entries(node).map(([name, schema]) => ({ name, schema: schema as Json }));
  bad("details must be a list of member names or a map of member name to schema");
  return [];
}

/**
 * Reads an operation's `x-powercontext-errors` against the registry: every
 * status must be a declared response and every code a registry code of that
 * status. Sorted by status, codes in declaration order.
 *
 * @param declared - the operation's declared response statuses
 * @throws {SpecErrorList} `invalid_extension` naming the pointer of each broken entry
 */
export function readOperationErrorCodes(
  op: Json,
  operationPointer: string,
  declared: readonly number[],
  registry: readonly ErrorCodeIr[],
): OperationErrorCodesIr[] {
  const node = op[OPERATION_ERRORS_EXTENSION];
  if (node === undefined) return [];
  const at = `${operationPointer}/${OPERATION_ERRORS_EXTENSION}`;
  if (!isObject(node))
    throw new SpecErrorList([
      new SpecError("invalid_extension", { pointer: at }, `expected { "<status>": [code, ...] }`),
    ]);
  const byCode = new Map(registry.map((row) => [row.code, row]));
  const issues: SpecError[] = [];
  const out: OperationErrorCodesIr[] = [];
  for (const [key, codes] of Object.entries(node)) {
    const where = `${at}/${pointerSegment(key)}`;
    const status = Number(key);
    if (!/^[45]\d\d$/.test(key) || !declared.includes(status)) {
      issues.push(
        new SpecError(
          "invalid_extension",
          { pointer: where },
          `status ${key} is not a declared error response of this operation`,
        ),
      );
      continue;
    }
    if (!Array.isArray(codes) || !codes.every((code) => typeof code === "string")) {
      issues.push(new SpecError("invalid_extension", { pointer: where }, "expected a list of error codes"));
      continue;
    }
    codes.forEach((code, index) => {
      const row = byCode.get(code as string);
      if (row === undefined)
        issues.push(
          new SpecError(
            "invalid_extension",
            { pointer: `${where}/${index}` },
            `error code "${String(code)}" is not in ${ERROR_CODES_EXTENSION}`,
          ),
        );
      else if (row.status !== status)
        issues.push(
          new SpecError(
            "invalid_extension",
            { pointer: `${where}/${index}` },
            `error code "${row.code}" is a ${row.status}, listed under ${key}`,
          ),
        );
      else if (codes.indexOf(code) !== index)
        issues.push(
          new SpecError(
            "invalid_extension",
            { pointer: `${where}/${index}` },
            `error code "${row.code}" is listed twice under ${key}`,
          ),
        );
    });
    out.push({ status, codes: codes as string[] });
  }
  if (issues.length > 0) throw new SpecErrorList(issues);
  return out.sort((a, b) => a.status - b.status);
}
