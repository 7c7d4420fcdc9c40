import { numberOption } from "../number-option.js";

/**
 * Settings of a {@link RetryBudget}, in tokens. The defaults are those of the
 * AWS SDKs' standard retry strategy: a full bucket pays for 100 ordinary
 * retries (50 after timeouts), and a client that keeps succeeding refills it.
 */
export interface RetryBudgetOptions {
  /** Tokens in a full bucket; the bucket starts full. Default 500. */
  capacity: number;
  /** Tokens one retry costs. Default 5. */
  retryCost: number;
  /** Tokens a retry after a timeout costs (a timeout holds the server longer). Default 10. */
  timeoutRetryCost: number;
  /** Tokens a call that succeeded at its first attempt puts back. Default 1. */
  successRefund: number;
}

/** Defaults of {@link RetryBudgetOptions}. */
export const DEFAULT_RETRY_BUDGET: Readonly<RetryBudgetOptions> = {
  capacity: 500,
  retryCost: 5,
  timeoutRetryCost: 10,
  successRefund: 1,
};

/**
 * A client-wide token bucket that bounds how many retries a client sends
 * (docs/adr/0007-retry-budget.md). Every retry spends tokens first; when the
 * bucket cannot pay, the call ends with its last error instead of retrying.
 * A success puts tokens back: the cost of the retry that led to it, or
 * `successRefund` when it needed none. So while a server fails everything, a
 * client sends its calls plus at most `capacity / retryCost` retries in all,
 * not `maxRetries` more per call; once the server recovers, retries come back
 * as successes refill the bucket.
 *
 * One budget serves every call of the client it is given to; pass the same
 * instance to several clients or callers to share it.
 */
export class RetryBudget {
  readonly #options: RetryBudgetOptions;
  #tokens: number;

  /** @throws ConfigurationError when a setting is not a non-negative finite number (capacity: positive). */
  constructor(options: Partial<RetryBudgetOptions> = {}) {
    const resolved = { ...DEFAULT_RETRY_BUDGET };
    for (const name of Object.keys(resolved) as (keyof RetryBudgetOptions)[]) {
      resolved[name] = numberOption(
        `retryBudget.${name}`,
        options[name],
        resolved[name],
        name === "capacity",
        "tokens",
      );
    }
    this.#options = resolved;
    this.#tokens = resolved.capacity;
  }

  /** Tokens in the bucket now. */
  get available(): number {
    return this.#tokens;
  }

  /** Tokens in a full bucket. */
  get capacity(): number {
    return this.#options.capacity;
  }

  /**
   * Takes the cost of one retry (`timeoutRetryCost` after a timeout, else
   * `retryCost`).
   *
   * @returns the tokens taken, or null (nothing taken) when the bucket holds fewer.
   */
  spend(afterTimeout: boolean): number | null {
    const cost = afterTimeout ? this.#options.timeoutRetryCost : this.#options.retryCost;
    if (cost > this.#tokens) return null;
    this.#tokens -= cost;
    return cost;
  }

  /**
   * Records a successful call: puts back `lastRetryCost` (what the retry that
   * succeeded spent), or `successRefund` when the call needed no retry; never
   * above `capacity`.
   */
  succeeded(lastRetryCost: number): void {
    const refund = lastRetryCost > 0 ? lastRetryCost : this.#options.successRefund;
    this.#tokens = Math.min(this.#options.capacity, this.#tokens + refund);
  }
}
