import type { Json } from "../domain/types.js";
import { SpecError, SpecErrorList, pointerSegment } from "../errors.js";
import { camelCase } from "./naming.js";
import { RUNTIME_ERROR_CLASSES } from "./runtime-names.js";
import type { ErrorCodeIr, ErrorDetailIr, OperationErrorCodesIr } from "./model.js";
import { readFact } from "../facts/read-fact.js";
import type { ErrorCodesFact } from "../facts/generated/fact-types.js";

/** Where the registry lives in the document, and where an operation lists its codes. */
export const ERROR_CODES_EXTENSION = "x-powercontext-error-codes";
/** Per-operation `{ "<status>": [code, ...] }`. */
export const OPERATION_ERRORS_EXTENSION = "x-powercontext-errors";

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

/**
 * Reads the document-level registry `x-powercontext-error-codes` (docs/extensions.md,
 * `error-code`), whose shape the loader checked. `details` become a list of members
 * (a listed name has no schema). Sorted by code; empty when the document has no
 * registry.
 *
 * @throws {SpecErrorList} `invalid_extension` for a class the runtime has or another
 *   code names, and for two details that become the same camelCase member
 */
export function readErrorCodes(document: Json): ErrorCodeIr[] {
  const registry = document[ERROR_CODES_EXTENSION];
  if (registry === undefined) return [];
  const base = `/${ERROR_CODES_EXTENSION}`;
  const issues: SpecError[] = [];
  const classes = new Map<string, string>();
  const rows = (readFact("error-codes", registry) as ErrorCodesFact)
    .map(
      (row): ErrorCodeIr => ({
        ...row,
        details: readDetails(row.details),
        pointer: `${base}/${pointerSegment(row.code)}`,
      }),
    )
    .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  for (const row of rows) {
    const bad = (where: string, detail: string) =>
      issues.push(
        new SpecError(
          "invalid_extension",
          { pointer: `${row.pointer}${where}` },
          `error code "${row.code}": ${detail}`,
        ),
      );
    const members = new Map<string, string>();
    for (const detail of row.details) {
      const member = camelCase(detail.name);
      const other = members.get(member);
      if (other !== undefined) bad("/details", `details "${other}" and "${detail.name}" both become member ${member}`);
      members.set(member, detail.name);
    }
    if (row.className === null) continue;
    if (RUNTIME_ERROR_CLASSES.has(row.className))
      bad("/class", `${row.className} is a class of the runtime; a contract class needs a name of its own`);
    const owner = classes.get(row.className);
    if (owner !== undefined)
      issues.push(
        new SpecError(
          "invalid_extension",
          { pointer: `${row.pointer}/class` },
          `error codes "${owner}" and "${row.code}" both name class ${row.className}`,
        ),
      );
    classes.set(row.className, row.code);
  }
  if (issues.length > 0) throw new SpecErrorList(issues);
  return rows;
}

/** `details` as written (names, or a map of name to schema) as a list of members. */
function readDetails(node: unknown): ErrorDetailIr[] {
  if (node === null || node === undefined) return [];
  if (Array.isArray(node)) return node.map((name) => ({ name: String(name), schema: null }));
  return Object.entries(node as Json).map(([name, schema]) => ({ name, schema: schema as Json }));
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
  const node = op[OPERATION_ERRORS_EXTENSION] as Record<string, string[]> | undefined;
  if (node === undefined) return [];
  const at = `${operationPointer}/${OPERATION_ERRORS_EXTENSION}`;
  const byCode = new Map(registry.map((row) => [row.code, row]));
  const issues: SpecError[] = [];
  const bad = (pointer: string, detail: string) => issues.push(new SpecError("invalid_extension", { pointer }, detail));
  for (const [key, codes] of Object.entries(node)) {
    const where = `${at}/${pointerSegment(key)}`;
    if (!declared.includes(Number(key))) bad(where, `status ${key} is not a declared error response of this operation`);
    else
      codes.forEach((code, index) => {
        const row = byCode.get(code);
        if (row === undefined) bad(`${where}/${index}`, `error code "${code}" is not in ${ERROR_CODES_EXTENSION}`);
        else if (String(row.status) !== key)
          bad(`${where}/${index}`, `error code "${code}" is a ${row.status}, listed under ${key}`);
      });
  }
  if (issues.length > 0) throw new SpecErrorList(issues);
  return Object.entries(node)
    .map(([key, codes]) => ({ status: Number(key), codes }))
    .sort((a, b) => a.status - b.status);
}
