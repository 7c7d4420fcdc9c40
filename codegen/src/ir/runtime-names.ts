/**
 * The error classes `@powercontext/runtime` exports. A generated contract class
 * may not take one of these names: it would shadow the runtime class it imports
 * (`class ConflictError extends ConflictError` does not compile), or take the
 * brand of one it does not import, so that an unrelated error would pass
 * `instanceof` for it. `codegen/test/ir/runtime-names.test.ts` checks the list
 * against the runtime's exports.
 */
export const RUNTIME_ERROR_CLASSES: ReadonlySet<string> = new Set([
  "AbortError",
  "AuthenticationError",
  "ClientError",
  "ConfigurationError",
  "ConflictError",
  "ForbiddenResponseError",
  "GuardedConflictError",
  "InternalServerError",
  "InvalidRequestError",
  "InvalidResponseError",
  "MiddlewareError",
  "NotFoundError",
  "OperationCancelledError",
  "OperationFailedError",
  "OperationNotServedError",
  "OperationPendingError",
  "PermissionDeniedError",
  "RateLimitError",
  "ServerResponseError",
  "ServiceUnavailableError",
  "TimeoutError",
  "TransportError",
  "UnauthorizedResponseError",
  "UnavailableResponseError",
  "UnprocessableEntityError",
]);
