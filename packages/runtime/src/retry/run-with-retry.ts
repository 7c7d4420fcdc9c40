import { abortReason } from "../transport/abort-reason.js";
import type { ErrorCodeTable, RetryClass } from "../descriptor.js";
import { AbortError, ClientError, ServerResponseError, TimeoutError, TransportError } from "../errors.js";
import type { RetryBudget } from "./budget.js";
import { decideRetry, isUncertainOutcome, type AttemptOutcome, type RetryOptions } from "./policy.js";
import { sleep } from "./sleep.js";

/** Reported before every retry wait; holds no request data and never the token. */
export interface RetryEvent {
  /** Wire operationId, such as `flush_memory`. */
  operationId: string;
  /** The attempt that failed, 1-based. */
  attempt: number;
  /** `connect_error`, `transport_error`, `timeout` or `status_<code>`. */
  reason: string;
  /** Milliseconds the client waits before the next attempt. */
  waitMs: number;
  /** Status of the failed attempt's response, or null when there was none. */
  statusCode: number | null;
  /** `X-PowerContext-Request-ID` of that response, or null. */
  requestId: string | null;
  /** Tokens left in the client's retry budget after this retry paid for itself; null without a budget. */
  budgetRemaining: number | null;
}

/** What an attempt function is told about its budget. */
interface AttemptBudget {
  /** 1-based attempt number. */
  attempt: number;
  /** Milliseconds left of the total deadline (Infinity without one). */
  remainingMs: number;
}

/** Inputs of {@link runWithRetry}. */
export interface RetryLoopInput<T> {
  operationId: string;
  path: string;
  retryClass: RetryClass;
  options: RetryOptions;
  /** The operation's error-code table (its descriptor's `errorCodes`); without it a code never stops a retry. */
  errorCodes?: ErrorCodeTable | undefined;
  /** Absolute time (ms, same clock as `now`) when the whole call must end, or null. */
  deadlineAt: number | null;
  signal?: AbortSignal | undefined;
  /** Sends one attempt; throws a ClientError on failure. */
  attempt: (budget: AttemptBudget) => Promise<T>;
  /**
   * Called with a failure that the policy will not retry. `earlierUncertain`
   * is true when an earlier attempt of this call may have taken effect. Return
   * a value to end the call with it, or undefined to throw the error.
   */
  recover?: ((error: unknown, earlierUncertain: boolean) => Promise<T | undefined>) | undefined;
  onRetry?: ((event: RetryEvent) => void) | undefined;
  /** The client's retry budget; null or absent: retries are bounded by `maxRetries` alone. */
  budget?: RetryBudget | null | undefined;
  random?: () => number;
  now?: () => number;
}

/** Maps a thrown error to a policy outcome; null for errors that are never retried. */
export function outcomeOf(error: unknown): AttemptOutcome | null {
  if (error instanceof AbortError) return null;
  if (error instanceof TransportError) {
    if (error instanceof TimeoutError && error.limit === "deadline") return null;
    return { kind: "transport", phase: error.phase, timeout: error instanceof TimeoutError };
  }
  if (error instanceof ServerResponseError) {
    return { kind: "status", statusCode: error.statusCode, retryAfterMs: error.retryAfterMs, code: error.code };
  }
  return null;
}

/** Why a retry the policy allowed was not sent; appended to the error's message. */
const BUDGET_EXHAUSTED = "not retried: the client's retry budget is empty";

/** Marks `error` as ended by an empty retry budget (`retryBudgetExhausted`, and its message says so). */
function markBudgetExhausted(error: unknown): void {
  if (!(error instanceof ClientError)) return;
  Object.defineProperty(error, "retryBudgetExhausted", { value: true, enumerable: true });
  error.message = `${error.message} (${BUDGET_EXHAUSTED})`;
}

/**
 * The retry loop (runtime README, "Retries"): runs `attempt` until it succeeds, the policy
 * stops, the total deadline leaves no room for the next wait, the retry
 * budget cannot pay for the next retry, or the caller aborts. Every retry
 * spends from the budget and is reported to `onRetry` first; a success
 * refunds the budget (see `RetryBudget`). The wait is abortable and leaves no
 * timer behind.
 *
 * @throws the last attempt's error (with `retryBudgetExhausted: true` when
 *   the budget stopped the retry); `TimeoutError` (limit `deadline`) when the
 *   deadline passed before an attempt could start; `AbortError` on abort.
 */
export async function runWithRetry<T>(input: RetryLoopInput<T>): Promise<T> {
  const now = input.now ?? Date.now;
  const budget = input.budget ?? null;
  let earlierUncertain = false;
  let lastCost = 0;
  for (let attempt = 1; ; attempt += 1) {
    const remainingMs = input.deadlineAt === null ? Infinity : input.deadlineAt - now();
    if (remainingMs <= 0) {
      throw new TimeoutError({ path: input.path, timeoutMs: Math.max(0, remainingMs), limit: "deadline" });
    }
    let result: T;
    try {
      result = await input.attempt({ attempt, remainingMs });
    } catch (error) {
      const outcome = outcomeOf(error);
      const decision =
        outcome === null
          ? ({ retry: false } as const)
          : decideRetry({
              retryClass: input.retryClass,
              outcome,
              attempt,
              options: input.options,
              errorCodes: input.errorCodes,
              random: input.random,
            });
      const left = input.deadlineAt === null ? Infinity : input.deadlineAt - now();
      let cost: number | null = 0;
      if (decision.retry && decision.delayMs < left && budget !== null) {
        cost = budget.spend(outcome?.kind === "transport" && outcome.timeout);
        if (cost === null) markBudgetExhausted(error);
      }
      if (!decision.retry || decision.delayMs >= left || cost === null) {
        if (input.recover !== undefined) {
          const recovered = await input.recover(error, earlierUncertain);
          if (recovered !== undefined) return recovered;
        }
        throw error;
      }
      lastCost = cost;
      if (outcome !== null && isUncertainOutcome(outcome)) earlierUncertain = true;
      const server = error instanceof ServerResponseError ? error : null;
      try {
        input.onRetry?.({
          operationId: input.operationId,
          attempt,
          reason: decision.reason,
          waitMs: decision.delayMs,
          statusCode: server?.statusCode ?? null,
          requestId: server?.requestId ?? null,
          budgetRemaining: budget === null ? null : budget.available,
        });
      } catch {
        // A failing hook must not change the call's outcome.
      }
      await sleep(decision.delayMs, input.signal, () => new AbortError(input.path, abortReason(input.signal)));
      continue;
    }
    budget?.succeeded(lastCost);
    return result;
  }
}
