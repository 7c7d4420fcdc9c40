import { AuthenticationError, ClientError, PermissionDeniedError, ServiceUnavailableError } from "@powercontext/runtime";

/**
 * The error classes under the names the 1.4.1 Python client gives them, so
 * code ported from Python reads the same. Each name is the same class as ours
 * (not a copy), so `instanceof` holds for either name:
 * `error instanceof UnauthorizedResponseError === error instanceof AuthenticationError`.
 */

/** 401: no credential, or one the server does not accept. Same class as {@link AuthenticationError}. */
export const UnauthorizedResponseError = AuthenticationError;
/** 401: no credential, or one the server does not accept. Same class as {@link AuthenticationError}. */
export type UnauthorizedResponseError = AuthenticationError;

/** 403: the caller lacks the permission. Same class as {@link PermissionDeniedError}. */
export const ForbiddenResponseError = PermissionDeniedError;
/** 403: the caller lacks the permission. Same class as {@link PermissionDeniedError}. */
export type ForbiddenResponseError = PermissionDeniedError;

/** 503: something the operation needs is unavailable. Same class as {@link ServiceUnavailableError}. */
export const UnavailableResponseError = ServiceUnavailableError;
/** 503: something the operation needs is unavailable. Same class as {@link ServiceUnavailableError}. */
export type UnavailableResponseError = ServiceUnavailableError;

/**
 * `request(operationId, ...)` was given a name that is not an operation of the
 * contract. Thrown before anything is sent; `code` is `unknown_operation`.
 */
export class UnknownOperationError extends ClientError {
  override name = "UnknownOperationError";
  /** The name that was given. */
  readonly operationId: string;

  constructor(operationId: string) {
    super(`${JSON.stringify(operationId.slice(0, 128))} is not an operation of the PowerContext contract`, { code: "unknown_operation" });
    this.operationId = operationId;
  }
}
