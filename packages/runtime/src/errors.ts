/**
 * Every error the SDK throws (DESIGN §2 for the Python-compatible hierarchy,
 * §3 for the contract errors, §4 for retries and operations).
 *
 * ```
 * ClientError                      requestId, code
 *   ConfigurationError             bad client options, thrown by the constructor / fromEnv
 *   InvalidRequestError            request rejected before anything was sent
 *   TransportError                 no valid HTTP response (path, cause)
 *     TimeoutError                 attempt timeout or total deadline
 *   AbortError                     the caller's AbortSignal fired
 *   InvalidResponseError           a response that breaks the contract (requestId, statusCode, issues)
 *   ServerResponseError            non-success status (statusCode, code, serverMessage, details)
 *     AuthenticationError 401, PermissionDeniedError 403, NotFoundError 404,
 *     ConflictError 409 > OperationBlockedError, VersionConflictError, ProcessingBlockStaleError,
 *     UnprocessableEntityError 422, RateLimitError 429, InternalServerError 5xx > ServiceUnavailableError 503
 *   OperationPendingError          the deadline passed while the operation was still running
 *   OperationFailedError           the operation ended `failed`
 *   OperationCancelledError        the operation ended `cancelled`
 * ```
 *
 * `code` is stable: for errors raised by the SDK itself it is an
 * `ERR_POWERCONTEXT_*` constant; for `ServerResponseError` it is the server's
 * envelope code (or null when the body was not the envelope), exactly as in the
 * Python client. No error ever holds the bearer token or the request headers.
 */

/** Root of every SDK error. */
export class ClientError extends Error {
  /** Stable class name (class names do not survive minification). */
  override name = "ClientError";
  /** Stable identifier of the error (see the module comment). */
  declare readonly code: string | null;
  /** `X-PowerContext-Request-ID` of the response, when there was one. */
  declare readonly requestId: string | null;

  constructor(message: string, init: { code: string | null; requestId?: string | null; cause?: unknown }) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.requestId = init.requestId ?? null;
  }
}

/** Invalid client options or environment settings; thrown before any request. */
export class ConfigurationError extends ClientError {
  override name = "ConfigurationError";
  constructor(message: string) {
    super(message, { code: "ERR_POWERCONTEXT_CONFIGURATION" });
  }
}

/** The request was refused locally (schema, parameters, headers); nothing was sent. */
export class InvalidRequestError extends ClientError {
  override name = "InvalidRequestError";
  /** Validator issues, as `instancePath: message` strings. */
  declare readonly issues: readonly string[];
  constructor(message: string, issues: readonly string[] = []) {
    super(message, { code: "ERR_POWERCONTEXT_INVALID_REQUEST" });
    this.issues = issues;
  }
}

/** How far a failed exchange got: `connect` means the request provably never left. */
export type TransportPhase = "connect" | "exchange";

/** No valid HTTP response was received. `cause` is a sanitized copy of the underlying error. */
export class TransportError extends ClientError {
  override name = "TransportError";
  /** Request path (no query string), for example `/v1/memory/flush`. */
  declare readonly path: string;
  /** `connect` when the connection was never established (safe to re-send for any retry class). */
  declare readonly phase: TransportPhase;
  constructor(message: string, init: { path: string; phase: TransportPhase; cause?: unknown; code?: string }) {
    super(message, { code: init.code ?? "ERR_POWERCONTEXT_TRANSPORT", cause: init.cause });
    this.path = init.path;
    this.phase = init.phase;
  }
}

/** An attempt exceeded `timeoutMs`, or the call exceeded its total `deadlineMs`. */
export class TimeoutError extends TransportError {
  override name = "TimeoutError";
  /** The limit that fired, in milliseconds. */
  declare readonly timeoutMs: number;
  /** `attempt` for the per-attempt timeout, `deadline` for the total budget. */
  declare readonly limit: "attempt" | "deadline";
  constructor(init: { path: string; timeoutMs: number; limit: "attempt" | "deadline" }) {
    const what = init.limit === "attempt" ? "attempt timed out" : "deadline exceeded";
    super(`PowerContext request to ${init.path}: ${what} after ${init.timeoutMs} ms`, {
      path: init.path,
      phase: "exchange",
      code: "ERR_POWERCONTEXT_TIMEOUT",
    });
    this.timeoutMs = init.timeoutMs;
    this.limit = init.limit;
  }
}

/** The caller's `AbortSignal` fired; the call stopped wherever it was (request, backoff, polling). */
export class AbortError extends ClientError {
  override name = "AbortError";
  declare readonly path: string;
  constructor(path: string) {
    super(`PowerContext request to ${path} was aborted`, { code: "ERR_POWERCONTEXT_ABORTED" });
    this.path = path;
  }
}

/** A response that violates the contract: schema, size cap, unsafe integers, bad Location. */
export class InvalidResponseError extends ClientError {
  override name = "InvalidResponseError";
  declare readonly statusCode: number;
  declare readonly issues: readonly string[];
  constructor(message: string, init: { statusCode: number; requestId: string | null; issues?: readonly string[] }) {
    super(message, { code: "ERR_POWERCONTEXT_INVALID_RESPONSE", requestId: init.requestId });
    this.statusCode = init.statusCode;
    this.issues = init.issues ?? [];
  }
}

/** What the response decoder knows about a non-success response. */
export interface ServerErrorInit {
  statusCode: number;
  /** Envelope `error.code`, or null when the body was not exactly the envelope. */
  code: string | null;
  serverMessage: string | null;
  details: Record<string, unknown> | null;
  requestId: string | null;
  /** Parsed `Retry-After`, in milliseconds, or null when absent or unusable. */
  retryAfterMs: number | null;
  /** The body as text (first 8 KiB, secrets redacted) when it was not the error envelope; null otherwise. Default null. */
  body?: string | null;
}

/** A non-success HTTP status (Python: `ServerResponseError`). */
export class ServerResponseError extends ClientError {
  override name = "ServerResponseError";
  declare readonly statusCode: number;
  declare readonly code: string | null;
  declare readonly serverMessage: string | null;
  declare readonly details: Record<string, unknown> | null;
  /** `Retry-After` of the response in milliseconds, or null. */
  declare readonly retryAfterMs: number | null;
  /**
   * The response body as text, its first 8 KiB, when it was not the error
   * envelope (a proxy's HTML page, a plain-text 502); `code`, `serverMessage`
   * and `details` are then null, as in the Python client. Null for the
   * envelope and for an empty body. Secrets are redacted.
   */
  declare readonly body: string | null;
  constructor(init: ServerErrorInit) {
    const suffix = init.code === null ? "" : `: ${init.code}${init.serverMessage ? `: ${init.serverMessage}` : ""}`;
    super(`PowerContext server responded ${init.statusCode}${suffix}`, { code: init.code, requestId: init.requestId });
    this.statusCode = init.statusCode;
    this.serverMessage = init.serverMessage;
    this.details = init.details;
    this.retryAfterMs = init.retryAfterMs;
    this.body = init.body ?? null;
  }
}

export class AuthenticationError extends ServerResponseError {
  override name = "AuthenticationError";
}
export class PermissionDeniedError extends ServerResponseError {
  override name = "PermissionDeniedError";
}
export class NotFoundError extends ServerResponseError {
  override name = "NotFoundError";
}
export class ConflictError extends ServerResponseError {
  override name = "ConflictError";
}
export class UnprocessableEntityError extends ServerResponseError {
  override name = "UnprocessableEntityError";
}
export class RateLimitError extends ServerResponseError {
  override name = "RateLimitError";
}
export class InternalServerError extends ServerResponseError {
  override name = "InternalServerError";
}
export class ServiceUnavailableError extends InternalServerError {
  override name = "ServiceUnavailableError";
}

/** `409 operation_blocked`: the logical window is held by a failed operation (seed 002). */
export class OperationBlockedError extends ConflictError {
  override name = "OperationBlockedError";
  /** `details.operation_id`: the failed operation to retry or cancel. */
  declare readonly operationId: string | null;
  constructor(init: ServerErrorInit) {
    super(init);
    const id = init.details?.operation_id;
    this.operationId = typeof id === "string" ? id : null;
  }
}

/** `409 version_conflict`: `expected_version` did not match (DESIGN §3, §4 guarded). */
export class VersionConflictError extends ConflictError {
  override name = "VersionConflictError";
  /** `details.current_version` when the server sent it. */
  declare readonly currentVersion: number | null;
  /** The resource as read by reconciliation, or null when it was not read. */
  declare current: unknown;
  /**
   * True when an earlier attempt of this call got no answer (a lost response,
   * a timeout, a gateway 502/504) and the resource read afterwards does not
   * show that this call's change, and only it, took effect: whether the lost
   * attempt was applied is unknown. Read `current` before acting again.
   */
  declare outcomeUnknown: boolean;
  constructor(init: ServerErrorInit) {
    super(init);
    const value = init.details?.current_version;
    this.currentVersion = typeof value === "number" ? value : null;
    this.current = null;
    this.outcomeUnknown = false;
  }

  /**
   * Marks the conflict as following an earlier attempt whose outcome is
   * unknown, records the resource read (null when it could not be read) and
   * says so in the message. Returns this error.
   */
  withUnknownOutcome(current: unknown): this {
    this.current = current;
    this.outcomeUnknown = true;
    const status = typeof current === "object" && current !== null ? (current as Record<string, unknown>).status : undefined;
    const version = typeof current === "object" && current !== null ? (current as Record<string, unknown>).version : undefined;
    const now =
      typeof status === "string" && typeof version === "number" ? `; the resource is now ${status} at version ${version}` : "";
    this.message = `${this.message} (an earlier attempt of this call got no answer and its outcome is unknown${now})`;
    return this;
  }
}

/** `409`: a processing block that was never retried and is no longer current (seed 000). */
export class ProcessingBlockStaleError extends ConflictError {
  override name = "ProcessingBlockStaleError";
}

/** Constructor shape shared by every server error class. */
export type ServerErrorClass = new (init: ServerErrorInit) => ServerResponseError;

/** Status-specific classes; any other 5xx maps to `InternalServerError`. */
export const serverErrorsByStatus: Readonly<Record<number, ServerErrorClass>> = {
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
  503: ServiceUnavailableError,
};

/** Contract error classes by envelope code, each with the status it must arrive with. */
export type ContractErrorTable = Readonly<Record<string, { status: number; errorClass: ServerErrorClass }>>;

/** The contract errors of this SDK by envelope code (DESIGN §3). */
export const contractErrorsByCode: ContractErrorTable = {
  operation_blocked: { status: 409, errorClass: OperationBlockedError },
  version_conflict: { status: 409, errorClass: VersionConflictError },
  topic_memory_block_conflict: { status: 409, errorClass: ProcessingBlockStaleError },
};

/**
 * Picks the class for a non-success response: the contract class when
 * `contractErrors` has the envelope code and the status matches, else the
 * status class (any other 5xx is `InternalServerError`, any other status
 * `ServerResponseError`). Taking the table as an argument lets an application
 * that never meets a contract error leave those classes out of its bundle
 * (see `createCaller`).
 */
export function serverResponseError(init: ServerErrorInit, contractErrors: ContractErrorTable | null): ServerResponseError {
  const byStatus =
    serverErrorsByStatus[init.statusCode] ?? (init.statusCode >= 500 ? InternalServerError : ServerResponseError);
  const byCode = init.code === null || contractErrors === null ? undefined : contractErrors[init.code];
  const errorClass = byCode !== undefined && byCode.status === init.statusCode ? byCode.errorClass : byStatus;
  return new errorClass(init);
}

/** {@link serverResponseError} with every contract error of this SDK: status first, then the envelope code. */
export function createServerResponseError(init: ServerErrorInit): ServerResponseError {
  return serverResponseError(init, contractErrorsByCode);
}

/** Bounded classification of a failed operation (never a message). */
export interface OperationErrorClassification {
  category: string | null;
  code: string | null;
}

/** The total deadline passed while the operation was queued or running; wait again later with its id. */
export class OperationPendingError extends ClientError {
  override name = "OperationPendingError";
  declare readonly operationId: string;
  /** The last Operation resource read, or null when none was read. */
  declare readonly lastKnown: unknown;
  constructor(operationId: string, lastKnown: unknown) {
    super(`PowerContext operation ${operationId} is still pending`, { code: "ERR_POWERCONTEXT_OPERATION_PENDING" });
    this.operationId = operationId;
    this.lastKnown = lastKnown;
  }
}

/** The operation reached `failed`. */
export class OperationFailedError extends ClientError {
  override name = "OperationFailedError";
  declare readonly operationId: string;
  declare readonly error: OperationErrorClassification;
  declare readonly operation: unknown;
  constructor(operationId: string, error: OperationErrorClassification, operation: unknown) {
    const label = [error.category, error.code].filter((part) => part !== null).join("/");
    super(`PowerContext operation ${operationId} failed${label ? ` (${label})` : ""}`, {
      code: "ERR_POWERCONTEXT_OPERATION_FAILED",
    });
    this.operationId = operationId;
    this.error = error;
    this.operation = operation;
  }
}

/** The operation reached `cancelled`. */
export class OperationCancelledError extends ClientError {
  override name = "OperationCancelledError";
  declare readonly operationId: string;
  declare readonly operation: unknown;
  constructor(operationId: string, operation: unknown) {
    super(`PowerContext operation ${operationId} was cancelled`, { code: "ERR_POWERCONTEXT_OPERATION_CANCELLED" });
    this.operationId = operationId;
    this.operation = operation;
  }
}

