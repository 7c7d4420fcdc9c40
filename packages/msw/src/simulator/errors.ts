/**
 * The error envelope of the contract (`ErrorResponse`, ADR 0001 §5) and the
 * exception the simulator's domain modules throw to produce it.
 */

/** The wire envelope `{"error": {"code", "message", "details"}}`. */
export interface ErrorEnvelope {
  error: { code: string; message: string; details: Record<string, unknown> | null };
}

/**
 * A contract error: thrown inside the simulator, turned into an HTTP status
 * and an {@link ErrorEnvelope} by `sim.handle()`. Messages are fixed phrases:
 * they never echo source text, tokens or request bodies.
 */
export class SimError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | null;
  readonly headers: Readonly<Record<string, string>>;

  /**
   * @param status HTTP status the error maps to (401, 403, 404, 409, 422, 429, 503, 500)
   * @param code stable machine-readable code, e.g. `operation_blocked`
   * @param message fixed human-readable phrase
   * @param details structured facts or null
   * @param headers extra response headers, e.g. `Retry-After`
   */
  constructor(
    status: number,
    code: string,
    message: string,
    details: Record<string, unknown> | null = null,
    headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = "SimError";
    this.status = status;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  /** The envelope body of this error. */
  toEnvelope(): ErrorEnvelope {
    return { error: { code: this.code, message: this.message, details: this.details } };
  }
}

/**
 * `invalid_request` naming the offending field (never its value), in the
 * release's form for the rules its handlers apply themselves: message "The
 * request is invalid.", details `{field, reason}`. Status 422 unless given.
 */
export function invalidRequest(field: string, reason: string, status = 422): SimError {
  return new SimError(status, "invalid_request", "The request is invalid.", { field, reason });
}

/**
 * The released server's refusal of a request its framework cannot validate:
 * `invalid_request` ("The request violates the API contract.") with
 * `details.errors`, the issues in the framework's form. `status` is 422, or 400
 * where the release answers query faults on routes under a path parameter.
 */
export function contractViolation(status: 400 | 422, errors: readonly unknown[]): SimError {
  return new SimError(status, "invalid_request", "The request violates the API contract.", { errors: [...errors] });
}

/**
 * The release's refusal of a body its access layer cannot read (it checks the
 * body against the operation's request model before deciding access):
 * `422 invalid_access_request`, details null, whatever rule the body breaks.
 */
export function invalidAccessRequest(): SimError {
  return new SimError(422, "invalid_access_request", accessMessage("invalid_access_request"), null);
}

const ACCESS_MESSAGES: Readonly<Record<string, string>> = {
  forbidden: "The Principal is not authorized for this operation.",
  access_unavailable: "Access Control is unavailable.",
  invalid_access_request: "The Access request is invalid.",
  access_revoked: "The Principal does not hold the access this work needs.",
};

/** The message the access layer answers a refusal of `code` with. */
export function accessMessage(code: string): string {
  return ACCESS_MESSAGES[code] ?? "The Access request is refused.";
}
