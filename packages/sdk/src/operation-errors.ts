import { isDeclaredError, type ServerResponseError } from "@powercontext/runtime";
import {
  declaredErrorCodes,
  type CodedServerError,
  type DeclaredErrorCodes,
  type ErrorCode,
} from "./generated/error-codes.js";
import { operations, type OperationId, type OperationTypes } from "./generated/operations.js";

/** The codes operation `K` declares for status `S` (`x-powercontext-errors`), or never. */
type CodesAt<K extends OperationId, S> = K extends keyof DeclaredErrorCodes
  ? S extends keyof DeclaredErrorCodes[K]
    ? DeclaredErrorCodes[K][S]
    : never
  : never;

/** The status member of a declared error. */
interface StatusOf<S> {
  /** The declared error status. */
  readonly statusCode: S;
}

/** A server error at status `S` without a code of its own. */
type StatusError<S> = Omit<ServerResponseError, "statusCode"> & {
  /** The declared error status. */
  readonly statusCode: S;
};

/** An error at status `S` that carries no envelope code (a gateway's page, a bare answer). */
type UncodedError<S> = Omit<ServerResponseError, "statusCode" | "code" | "details"> & {
  /** The declared error status. */
  readonly statusCode: S;
  /** No envelope code. */
  readonly code: null;
  /** No envelope details. */
  readonly details: null;
};

/**
 * The errors operation `K` declares, as a union: per declared error status
 * (the statuses of `ErrorOf<K>`), the server error at that status; where the
 * spec lists the status's codes, one member per code with its typed
 * `details` (and one without a code, for an answer without the envelope).
 */
export type OperationError<K extends OperationId> = {
  [S in keyof OperationTypes[K]["errors"]]: [CodesAt<K, S>] extends [never]
    ? StatusError<S>
    : (CodedServerError<CodesAt<K, S> & ErrorCode> & StatusOf<S>) | UncodedError<S>;
}[keyof OperationTypes[K]["errors"]];

/**
 * True when `error` is one of the errors `operationId` declares: a
 * `ServerResponseError` at one of its declared error statuses and, where the
 * spec lists the codes of that status, with one of them (or none at all).
 * Narrows `error` to {@link OperationError}: checking `statusCode`, then
 * `code` types `details` (a status whose codes the spec does not list may
 * carry any code, so the status comes first).
 *
 * ```ts
 * try {
 *   await client.cancelOperation({ operation_id, expected_version: 3 });
 * } catch (error) {
 *   if (isErrorOf("cancel_operation", error) && error.statusCode === 409 && error.code === "version_conflict") {
 *     console.log(error.details?.current_version);
 *   }
 * }
 * ```
 */
export function isErrorOf<K extends OperationId>(operationId: K, error: unknown): error is OperationError<K> {
  // Own members only: an id such as "constructor" or "toString" names no operation.
  if (typeof operationId !== "string" || !Object.hasOwn(operations, operationId)) return false;
  const declared = declaredErrorCodes as { readonly [id: string]: { readonly [status: number]: readonly string[] } };
  return isDeclaredError(
    error,
    operations[operationId].errorStatuses,
    Object.hasOwn(declared, operationId) ? declared[operationId] : undefined,
  );
}
