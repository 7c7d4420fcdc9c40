/**
 * The logic behind the generated error-code helpers (`hasErrorCode`, the
 * contract error classes' detail members) and the SDK's `isErrorOf`, so that
 * generated modules hold data and thin declarations.
 */
import type { ErrorCodeTable } from "./descriptor.js";
import { ServerResponseError } from "./errors.js";

/**
 * True when `error` is a server error with envelope code `code`. A code of
 * `table` (the spec's registry) must also arrive with the status the registry
 * gives it; any other code, one the spec does not list, matches at any status.
 * The logic behind the generated `hasErrorCode`.
 */
export function hasServerErrorCode(error: unknown, code: string, table: ErrorCodeTable): error is ServerResponseError {
  const own = serverErrorData(error);
  if (own === null || own.code !== code) return false;
  const known = Object.hasOwn(table, code) ? table[code] : undefined;
  return known === undefined || known.status === own.status;
}

/**
 * True when `error` is one of the errors an operation declares: a server
 * error whose status is one of `statuses` and, when `codes` lists the codes
 * of that status, whose envelope code is one of them (or absent: an answer
 * without the envelope). The logic behind the SDK's `isErrorOf`.
 *
 * @param statuses the operation's declared error statuses (its descriptor's `errorStatuses`).
 * @param codes the codes the operation declares per status (`x-powercontext-errors`), if any.
 */
export function isDeclaredError(
  error: unknown,
  statuses: readonly number[],
  codes: { readonly [status: number]: readonly string[] | undefined } = {},
): error is ServerResponseError {
  const own = serverErrorData(error);
  if (own === null || !statuses.includes(own.status)) return false;
  const listed = Object.hasOwn(codes, own.status) ? codes[own.status] : undefined;
  return listed === undefined || own.code === null || listed.includes(own.code);
}

/**
 * The status and code a `ServerResponseError` carries as its own data, as its
 * constructor sets them: an own integer `statusCode` of an HTTP error status and an
 * own `code` (a string or null). Null for anything else: an object that only
 * borrows the prototype (`Object.create(ServerResponseError.prototype)`), and,
 * never an exception, a value whose reads throw (a hostile proxy), so a guard in
 * a `catch` block cannot replace the error it inspects. Both are read once, so
 * what is decided is what was checked.
 */
function serverErrorData(error: unknown): { readonly status: number; readonly code: string | null } | null {
  try {
    if (!(error instanceof ServerResponseError)) return null;
    const status: unknown = Object.getOwnPropertyDescriptor(error, "statusCode")?.value;
    const code: unknown = Object.getOwnPropertyDescriptor(error, "code")?.value;
    const valid =
      typeof status === "number" &&
      Number.isInteger(status) &&
      status >= 400 &&
      status <= 599 &&
      (code === null || typeof code === "string");
    return valid ? { status, code } : null;
  } catch {
    return null;
  }
}

/**
 * A member of an error envelope's `details` when it has the JSON type `type`
 * (an integer for `integer`), else null: how a generated contract error class
 * reads its declared details (`VersionConflictError.currentVersion`), since
 * the server's `details` are not validated.
 */
export function detailMember<T>(
  details: Record<string, unknown> | null,
  name: string,
  type: "string" | "integer" | "number" | "boolean",
): T | null {
  const value = details?.[name];
  const ok = type === "integer" ? Number.isInteger(value) : typeof value === type;
  return ok ? (value as T) : null;
}
