/**
 * Time source of the simulator. Every timestamp the simulator writes and every
 * lazy state transition (queued -> running -> finished, topic attempts) is read
 * from one injectable clock, so tests can script time exactly.
 */
export interface Clock {
  /** Current time in milliseconds since the Unix epoch. */
  now(): number;
}

/** The wall clock (`Date.now()`); the default of `createPowerContextSimulator`. */
export const systemClock: Clock = { now: () => Date.now() };

/** 2026-01-01T00:00:00.000Z, the default start of a {@link ManualClock}. */
export const MANUAL_CLOCK_EPOCH_MS = Date.UTC(2026, 0, 1);

/**
 * A clock that only moves when told to, for deterministic tests and scripted
 * scenarios.
 *
 * @example
 * const clock = new ManualClock();
 * clock.advance(1_500); // 1.5 s later
 */
export class ManualClock implements Clock {
  #now: number;

  /** @param startMs start time in ms since the epoch; default {@link MANUAL_CLOCK_EPOCH_MS}. */
  constructor(startMs: number = MANUAL_CLOCK_EPOCH_MS) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  /**
   * Moves time forward.
   * @param ms milliseconds to add; must be a finite number >= 0.
   * @throws RangeError when `ms` is negative or not finite (time never goes back).
   */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) {
      throw new RangeError(`a clock only moves forward; got ${ms} ms`);
    }
    this.#now += ms;
  }
}

/** Formats a clock reading (ms since the epoch) as the RFC 3339 `date-time` the wire uses. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
