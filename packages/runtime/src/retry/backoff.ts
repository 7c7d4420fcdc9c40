/** Jitter strategy: `full` draws from [0, d), `equal` from [d/2, d), `none` uses d. */
export type Jitter = "full" | "equal" | "none";

/** Backoff settings, all in milliseconds. */
export interface BackoffOptions {
  /** Delay before the first retry, before jitter. Default 250 ms. */
  baseDelayMs: number;
  /** Cap on the exponential delay, before jitter. Default 8 000 ms. */
  maxDelayMs: number;
  /** Default `full`. */
  jitter: Jitter;
}

/** Defaults used when the caller passes no `retry` options. */
export const DEFAULT_BACKOFF: Readonly<BackoffOptions> = { baseDelayMs: 250, maxDelayMs: 8000, jitter: "full" };

/**
 * Exponential backoff with jitter: `min(maxDelayMs, baseDelayMs × 2^(retry-1))`,
 * then jittered.
 *
 * @param retry 1 for the first retry, 2 for the second, ...
 * @param random source of uniform numbers in [0, 1), injectable for tests.
 * @returns a whole number of milliseconds, never negative.
 */
export function backoffDelay(retry: number, options: BackoffOptions, random: () => number = Math.random): number {
  const exponent = Math.max(0, Math.min(retry - 1, 30));
  const capped = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** exponent);
  const draw = Math.min(Math.max(random(), 0), 1);
  const jitter = options.jitter;
  return Math.floor(jitter === "full" ? capped * draw : jitter === "equal" ? capped / 2 + (capped / 2) * draw : capped);
}
