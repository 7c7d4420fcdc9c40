/**
 * Every error the SDK throws (docs/compatibility.md for the Python-compatible hierarchy,
 * §3 for the contract errors, §4 for retries and operations).
 *
 * ```
 * ClientError                      requestId, code
 *   ConfigurationError             bad client options, thrown by the constructor / fromEnv
 *   InvalidRequestError            request rejected before anything was sent
 *   TransportError                 no valid HTTP response (path, cause)
 *     TimeoutError                 attempt timeout or total deadline
 *   AbortError                     the caller's AbortSignal fired
 *   MiddlewareError                a middleware hook threw or tried to set Authorization
 *   InvalidResponseError           a response that breaks the contract (requestId, statusCode, issues)
 *   ServerResponseError            non-success status (statusCode, code, serverMessage, details)
 *     AuthenticationError 401, PermissionDeniedError 403, NotFoundError 404,
 *     ConflictError 409 > GuardedConflictError (guarded-conflict-error.ts)
 *     UnprocessableEntityError 422, RateLimitError 429, InternalServerError 5xx > ServiceUnavailableError 503
 *   OperationPendingError          the deadline passed while the operation was still running
 *   OperationFailedError           the operation ended `failed`
 *   OperationCancelledError        the operation ended `cancelled` (these three: operations/operation-errors.ts)
 * ```
 *
 * The contract error classes (one per error code the spec gives a class, such
 * as `VersionConflictError` for `409 version_conflict`) are generated from the
 * spec's `x-powercontext-error-codes` beside the operation table, and reach the
 * runtime as a {@link ContractErrorTable} (docs/adr/0014-generated-contract-errors.md).
 *
 * `code` is stable: for errors raised by the SDK itself it is an
 * `ERR_POWERCONTEXT_*` constant; for `ServerResponseError` it is the server's
 * envelope code (or null when the body was not the envelope), exactly as in the
 * Python client. No error ever holds the bearer token or the request headers.
 *
 * `instanceof` works across installed copies of this runtime: every class has a
 * static `brand` (`Symbol.for("@powercontext/runtime/<ClassName>")`) and
 * `ClientError[Symbol.hasInstance]` compares brands, not constructors
 * (`error-brand.ts`).
 */
import { declareErrorClass, errorBrand, hasBrand } from "./error-brand.js";

/** Root of every SDK error. */
export class ClientError extends Error {
  /**
   * This class's brand, the same symbol in every installed copy of the runtime.
   * Every error class has its own, set with its name by `declareErrorClass`.
   */
  static get brand(): symbol {
    return errorBrand("ClientError");
  }
  static {
    declareErrorClass(ClientError, "ClientError");
  }

  /**
   * `value instanceof ThisClass`, by brand: true for an error of this class or a
   * subclass made by any installed copy of the runtime.
   */
  static [Symbol.hasInstance]<T>(this: abstract new (...args: never[]) => T, value: unknown): value is T {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the subclass the check runs on
    return hasBrand(this, value);
  }

  /** Stable class name, such as `NotFoundError` (class names do not survive minification). */
  declare name: string;
  /** Stable identifier of the error (see the module comment). */
  declare readonly code: string | null;
  /** `X-PowerContext-Request-ID` of the response, when there was one. */
  declare readonly requestId: string | null;
  /**
   * Present (true) when the retry policy would have re-sent the request but
   * the client's retry budget was empty; the message then says so too.
   */
  declare readonly retryBudgetExhausted?: true;

  constructor(message: string, init: { code: string | null; requestId?: string | null; cause?: unknown }) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    // An own member, as a class field would make it: the class's stable name (class names do not survive minification).
    this.name = new.target.prototype.name;
    this.code = init.code;
    this.requestId = init.requestId ?? null;
  }
}

/** Invalid client options or environment settings; thrown before any request. */
export class ConfigurationError extends ClientError {
  static {
    declareErrorClass(ConfigurationError, "ConfigurationError");
  }
  constructor(message: string) {
    super(message, { code: "ERR_POWERCONTEXT_CONFIGURATION" });
  }
}

/** The request was refused locally (schema, parameters, headers); nothing was sent. */
export class InvalidRequestError extends ClientError {
  static {
    declareErrorClass(InvalidRequestError, "InvalidRequestError");
  }
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
  static {
    declareErrorClass(TransportError, "TransportError");
  }
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
  static {
    declareErrorClass(TimeoutError, "TimeoutError");
  }
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

/**
 * The caller's `AbortSignal` fired; the call stopped wherever it was (request,
 * backoff, polling). `cause` is the signal's `reason`, as the caller gave it.
 */
export class AbortError extends ClientError {
  static {
    declareErrorClass(AbortError, "AbortError");
  }
  /** Request path (no query string). */
  declare readonly path: string;
  /**
   * @param path request path (no query string).
   * @param reason the caller's abort reason (`signal.reason`), kept as `cause`
   *   unchanged: the value given to `controller.abort(reason)`, or the
   *   `DOMException` a signal makes when none was given. It is the caller's
   *   own value, never taken from an answer.
   */
  constructor(path: string, reason?: unknown) {
    super(`PowerContext request to ${path} was aborted`, { code: "ERR_POWERCONTEXT_ABORTED", cause: reason });
    this.path = path;
  }
}

/** A middleware hook threw, or tried to set `Authorization`; the call stops and is not retried. */
export class MiddlewareError extends ClientError {
  static {
    declareErrorClass(MiddlewareError, "MiddlewareError");
  }
  /**
   * @param message what failed, naming the hook (`onRequest`, `onResponse`).
   * @param cause a sanitized copy of what the hook threw, or null.
   */
  constructor(message: string, cause: unknown) {
    super(message, { code: "ERR_POWERCONTEXT_MIDDLEWARE", cause: cause ?? undefined });
  }
}

/** A response that violates the contract: schema, size cap, unsafe integers, bad Location. */
export class InvalidResponseError extends ClientError {
  static {
    declareErrorClass(InvalidResponseError, "InvalidResponseError");
  }
  /** HTTP status of the offending response. */
  declare readonly statusCode: number;
  /** What is wrong, as `instancePath message` strings. */
  declare readonly issues: readonly string[];
  constructor(message: string, init: { statusCode: number; requestId: string | null; issues?: readonly string[] }) {
    super(message, { code: "ERR_POWERCONTEXT_INVALID_RESPONSE", requestId: init.requestId });
    this.statusCode = init.statusCode;
    this.issues = init.issues ?? [];
  }
}

/** What the response decoder knows about a non-success response. */
export interface ServerErrorInit {
  /** HTTP status code. */
  statusCode: number;
  /** Envelope `error.code`, or null when the body was not exactly the envelope. */
  code: string | null;
  /** Envelope `error.message` (token removed), or null. */
  serverMessage: string | null;
  /** Envelope `error.details` (token removed), or null. */
  details: Record<string, unknown> | null;
  /** `X-PowerContext-Request-ID` of the response, or null. */
  requestId: string | null;
  /** Parsed `Retry-After`, in milliseconds, or null when absent or unusable. */
  retryAfterMs: number | null;
  /** The body as text (first 8 KiB, secrets redacted) when it was not the error envelope; null otherwise. Default null. */
  body?: string | null;
}

/** A non-success HTTP status (Python: `ServerResponseError`). */
export class ServerResponseError extends ClientError {
  static {
    declareErrorClass(ServerResponseError, "ServerResponseError");
  }
  /** HTTP status code of the response. */
  declare readonly statusCode: number;
  /** Envelope `error.code`, or null when the body was not exactly the envelope. */
  declare readonly code: string | null;
  /** Envelope `error.message` with the token removed, or null (Python: `server_message`). */
  declare readonly serverMessage: string | null;
  /** Envelope `error.details` with the token removed, or null. */
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

/** 401: the token is missing, wrong or expired (Python: `UnauthorizedResponseError`). */
export class AuthenticationError extends ServerResponseError {
  static {
    declareErrorClass(AuthenticationError, "AuthenticationError");
  }
}
/** 403: the token lacks the operation's permission (Python: `ForbiddenResponseError`). */
export class PermissionDeniedError extends ServerResponseError {
  static {
    declareErrorClass(PermissionDeniedError, "PermissionDeniedError");
  }
}
/** 404: the resource does not exist. */
export class NotFoundError extends ServerResponseError {
  static {
    declareErrorClass(NotFoundError, "NotFoundError");
  }
}
/** 409 without a contract error class of its own (or raised without the contract error table). */
export class ConflictError extends ServerResponseError {
  static {
    declareErrorClass(ConflictError, "ConflictError");
  }
}
/** 422: the server refused the request's content. */
export class UnprocessableEntityError extends ServerResponseError {
  static {
    declareErrorClass(UnprocessableEntityError, "UnprocessableEntityError");
  }
}
/** 429: too many requests; `retryAfterMs` says when to try again. */
export class RateLimitError extends ServerResponseError {
  static {
    declareErrorClass(RateLimitError, "RateLimitError");
  }
}
/** A 5xx status other than 503. */
export class InternalServerError extends ServerResponseError {
  static {
    declareErrorClass(InternalServerError, "InternalServerError");
  }
}
/** 503: the server cannot serve now (Python: `UnavailableResponseError`). */
export class ServiceUnavailableError extends InternalServerError {
  static {
    declareErrorClass(ServiceUnavailableError, "ServiceUnavailableError");
  }
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

/**
 * Contract error classes by envelope code, each with the status it must arrive
 * with. The generator writes it from the spec (`contractErrorsByCode` beside the
 * operation table); the runtime has none of its own.
 */
export type ContractErrorTable = Readonly<
  Record<
    string,
    {
      /** The status the code must arrive with. */
      status: number;
      /** The class raised for it. */
      errorClass: ServerErrorClass;
    }
  >
>;

/**
 * Picks the class for a non-success response: the contract class when
 * `contractErrors` has the envelope code and the status matches, else the
 * status class (any other 5xx is `InternalServerError`, any other status
 * `ServerResponseError`). Taking the table as an argument lets an application
 * that never meets a contract error leave those classes out of its bundle
 * (see `createCaller`).
 */
export function serverResponseError(
  init: ServerErrorInit,
  contractErrors: ContractErrorTable | null,
): ServerResponseError {
  const byStatus =
    serverErrorsByStatus[init.statusCode] ?? (init.statusCode >= 500 ? InternalServerError : ServerResponseError);
  const byCode = init.code === null || contractErrors === null ? undefined : contractErrors[init.code];
  const errorClass = byCode !== undefined && byCode.status === init.statusCode ? byCode.errorClass : byStatus;
  return new errorClass(init);
}

/** The Python client's name (1.4.1) for a 401: the same class as {@link AuthenticationError}, so `instanceof` works with either name. */
export const UnauthorizedResponseError = AuthenticationError;
/** The Python client's name (1.4.1) for a 401; see {@link AuthenticationError}. */
export type UnauthorizedResponseError = AuthenticationError;
/** The Python client's name (1.4.1) for a 403: the same class as {@link PermissionDeniedError}. */
export const ForbiddenResponseError = PermissionDeniedError;
/** The Python client's name (1.4.1) for a 403; see {@link PermissionDeniedError}. */
export type ForbiddenResponseError = PermissionDeniedError;
/** The Python client's name (1.4.1) for a 503: the same class as {@link ServiceUnavailableError}. */
export const UnavailableResponseError = ServiceUnavailableError;
/** The Python client's name (1.4.1) for a 503; see {@link ServiceUnavailableError}. */
export type UnavailableResponseError = ServiceUnavailableError;
