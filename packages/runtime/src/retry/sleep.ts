import { timerDelay } from "../transport/timer-delay.js";

/**
 * Waits `ms` milliseconds (clamped to 0..2^31-1, see `timerDelay`). When
 * `signal` fires first the timer is cleared and the promise rejects with
 * `onAbort()`; an already aborted signal rejects without arming a timer.
 */
export function sleep(ms: number, signal: AbortSignal | undefined, onAbort: () => Error): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(onAbort());
      return;
    }
    const abort = (): void => {
      clearTimeout(timer);
      reject(onAbort());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, timerDelay(ms));
    signal?.addEventListener("abort", abort, { once: true });
  });
}
