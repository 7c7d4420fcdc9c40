/**
 * Seeded pseudo-random numbers (mulberry32). The simulator draws every
 * server-assigned id (operations, blocks, attempts, memory entries) from one
 * instance, so the same seed and the same request sequence give the same ids.
 * Not cryptographic: the ids only need to be unique and reproducible.
 */
/** The largest seed: seeds are 32-bit, so 0 and 2^32 would give the same ids. */
export const MAX_SEED = 2 ** 32 - 1;

/** @throws RangeError unless `seed` is an integer from 0 to {@link MAX_SEED} */
export function checkSeed(seed: number): void {
  if (!Number.isInteger(seed) || seed < 0 || seed > MAX_SEED)
    throw new RangeError(`seed must be an integer from 0 to ${MAX_SEED}, not ${String(seed)}`);
}

export class SeededRandom {
  #state: number;

  /**
   * @param seed an integer from 0 to {@link MAX_SEED}. Default 1.
   * @throws RangeError for any other value (a larger seed would be cut to 32 bits and repeat a smaller one's ids)
   */
  constructor(seed: number = 1) {
    checkSeed(seed);
    this.#state = seed >>> 0;
  }

  /**
   * An independent sequence for one consumer, named `name`, from the same seed.
   * Work that draws ids at times the clock decides (Topic Memory attempts) has
   * its own sequence, so the ids requests draw do not depend on timing.
   */
  static stream(seed: number, name: string): SeededRandom {
    let h = 0x811c9dc5 ^ (seed >>> 0);
    for (let i = 0; i < name.length; i += 1) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
    return new SeededRandom(h);
  }

  /** Next float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Next integer in [0, bound). @throws RangeError when `bound` is not a positive integer. */
  int(bound: number): number {
    if (!Number.isInteger(bound) || bound <= 0) throw new RangeError(`bad bound ${bound}`);
    return Math.floor(this.next() * bound);
  }

  /**
   * A fresh identifier: `prefix` + `_` + 16 lowercase hex digits. Always within
   * the printable-ASCII id pattern of the contract (`^[\x21-\x7E]+$`).
   */
  id(prefix: string): string {
    let hex = "";
    for (let i = 0; i < 4; i += 1) {
      hex += this.int(0x10000).toString(16).padStart(4, "0");
    }
    return `${prefix}_${hex}`;
  }
}
