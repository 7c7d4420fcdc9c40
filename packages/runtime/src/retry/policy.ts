import type { ErrorCodeTable, RetryClass } from "../descriptor.js";
import { backoffDelay, type BackoffOptions } from "./backoff.js";

/** What one failed attempt produced, as far as retrying is concerned. */
export type AttemptOutcome =
  | {
      /** No valid response arrived. */
      kind: "transport";
      /** `connect`: the request provably never left the client. */
      phase: "connect" | "exchange";
      /** The attempt hit its own timeout. */
      timeout: boolean;
    }
  | {
      /** The server answered with an error status. */
      kind: "status";
      /** The HTTP status code. */
      statusCode: number;
      /** The response's `Retry-After` in milliseconds, or null. */
      retryAfterMs: number | null;
      /** The error envelope's code, or null (no envelope). Default null. */
      code?: string | null;
    };

/** Retry settings of a client; delays in milliseconds. */
export interface RetryOptions extends BackoffOptions {
  /** Retries after the first attempt. Default 2 (three attempts in all). */
  maxRetries: number;
  /**
   * Longest `Retry-After` the client waits for, in milliseconds. A response
   * asking for more is not retried: its error (which carries `retryAfterMs`)
   * is surfaced at once. Unset: no cap (the client option defaults it to 30 000).
   */
  maxRetryAfterMs?: number;
}

/** The verdict for one failed attempt. */
export type RetryDecision =
  | {
      /** Send the request again. */
      retry: true;
      /** Milliseconds to wait first. */
      delayMs: number;
      /** Why: `connect_error`, `transport_error`, `timeout` or `status_<code>`. */
      reason: string;
    }
  | {
      /** Stop: the failure is the call's outcome. */
      retry: false;
    };

/** Statuses that say "try again later" without the request having taken effect (runtime README, "Retries"). */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** Classes that may re-send after an uncertain outcome (runtime README, "Retries"). */
const RESENDABLE: ReadonlySet<RetryClass> = new Set(["safe", "replay", "guarded"]);

/** Inputs of {@link decideRetry}. */
export interface RetryInput {
  retryClass: RetryClass;
  outcome: AttemptOutcome;
  /** The attempt that just failed, 1-based. */
  attempt: number;
  options: RetryOptions;
  /** The operation's error-code table; a code it marks non-transient is not re-sent. Default none. */
  errorCodes?: ErrorCodeTable | undefined;
  random?: () => number;
}

/**
 * True when `errorCodes` marks the outcome's envelope code non-transient: no
 * wait cures it (docs/retry-classes.md, "Transient error codes"). An unknown
 * code, no code, or a code that arrives with another status than the
 * registry's (the same rule the error classes follow) is not known to be
 * permanent.
 */
export function isPermanentCode(outcome: AttemptOutcome, errorCodes: ErrorCodeTable | undefined): boolean {
  if (outcome.kind !== "status" || errorCodes === undefined) return false;
  const code = outcome.code;
  if (code === undefined || code === null || !Object.hasOwn(errorCodes, code)) return false;
  const row = errorCodes[code];
  return row !== undefined && row.status === outcome.statusCode && !row.transient;
}

function reasonOf(outcome: AttemptOutcome): string {
  if (outcome.kind === "status") return `status_${outcome.statusCode}`;
  if (outcome.phase === "connect") return "connect_error";
  return outcome.timeout ? "timeout" : "transport_error";
}

/**
 * The retry policy of the runtime README ("Retries"), pure:
 *
 * | class | connect error | other transport failure, timeout, 429, 502, 503, 504 | anything else (404, 409, 500, ...) |
 * | --- | --- | --- | --- |
 * | safe, replay, guarded | retry | retry | stop |
 * | never | retry | stop | stop |
 *
 * A 429/502/503/504 whose envelope code `errorCodes` marks non-transient
 * (`transient: false`) is not retried in any class: no wait cures it. A code
 * the table does not know, or a body without the envelope, is retried as its
 * status says.
 *
 * The delay is the response's `Retry-After` when it has one, else exponential
 * backoff with jitter. Stops once `attempt > maxRetries`, and when the
 * response asks for a `Retry-After` above `maxRetryAfterMs`.
 */
export function decideRetry(input: RetryInput): RetryDecision {
  const { outcome, options } = input;
  if (input.attempt > options.maxRetries) return { retry: false };
  let eligible: boolean;
  if (outcome.kind === "transport") {
    eligible = outcome.phase === "connect" || RESENDABLE.has(input.retryClass);
  } else {
    eligible =
      RESENDABLE.has(input.retryClass) &&
      RETRYABLE_STATUSES.has(outcome.statusCode) &&
      !isPermanentCode(outcome, input.errorCodes);
  }
  if (!eligible) return { retry: false };
  const retryAfter = outcome.kind === "status" ? outcome.retryAfterMs : null;
  if (retryAfter !== null && options.maxRetryAfterMs !== undefined && retryAfter > options.maxRetryAfterMs)
    return { retry: false };
  const delayMs = retryAfter ?? backoffDelay(input.attempt, options, input.random);
  return { retry: true, delayMs, reason: reasonOf(outcome) };
}

/**
 * True when the server may have acted on the attempt although the client saw
 * no success: the exchange failed after the request may have left, or a
 * gateway answered 502/504. Guarded reconciliation keys off this.
 */
export function isUncertainOutcome(outcome: AttemptOutcome): boolean {
  if (outcome.kind === "transport") return outcome.phase === "exchange";
  return outcome.statusCode === 502 || outcome.statusCode === 504;
}
