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

/** `422 invalid_request` naming the offending field (never its value). */
export function invalidRequest(field: string, reason: string): SimError {
  return new SimError(422, "invalid_request", `The request is invalid: ${field} ${reason}.`, {
    field,
    reason,
  });
}
