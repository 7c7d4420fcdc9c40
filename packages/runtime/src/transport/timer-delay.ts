/** The longest delay a timer can hold: 2^31-1 ms, about 24.8 days. Node and browsers fire a longer one at once. */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/**
 * A delay that `setTimeout` honours: `ms` clamped to 0..{@link MAX_TIMER_DELAY_MS}.
 * A timeout or wait longer than about 24.8 days becomes that long instead of
 * firing immediately.
 */
export function timerDelay(ms: number): number {
  return ms <= 0 ? 0 : Math.min(ms, MAX_TIMER_DELAY_MS);
}
