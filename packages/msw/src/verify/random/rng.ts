// Seeded random numbers for the random differential run. Every draw comes from a stream
// named by the run's seed and a label (an operation and an index, a round, ...), so one
// request's draws never depend on how many draws another request made: the same seed
// gives the same schedule and, given the same ids seen so far, the same requests.
// The generator is pure-rand's xoroshiro128+ (independent of the mock's own generator,
// which the mock is free to change without changing what this instrument sends).
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import type { RandomGenerator } from "pure-rand/types/RandomGenerator";

/**
 * A 32-bit seed for one named stream: FNV-1a over the seed's digits and the labels, then
 * murmur3's finalizer, so labels that differ in one character (`k` 3 and 4) give
 * unrelated seeds, not neighbouring ones.
 */
function streamSeed(seed: number, labels: readonly (string | number)[]): number {
  let hash = 0x811c9dc5;
  for (const char of `${seed}\u0000${labels.join("\u0000")}`)
    hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 0x01000193) >>> 0;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash | 0;
}

/** Outputs dropped from a fresh generator: xoroshiro128+'s first outputs follow its seed closely. */
const WARM_UP = 8;

/** One stream of seeded draws. */
export class Random {
  readonly #generator: RandomGenerator;

  private constructor(generator: RandomGenerator) {
    this.#generator = generator;
  }

  /**
   * The stream named `labels` under `seed`: the same arguments always give the same draws.
   *
   * @param seed any integer (reduced to 32 bits)
   * @param labels names of the stream, e.g. `["request", "create_scope", 3]`
   */
  static stream(seed: number, ...labels: (string | number)[]): Random {
    const generator = xoroshiro128plus(streamSeed(seed, labels));
    for (let i = 0; i < WARM_UP; i++) generator.next();
    return new Random(generator);
  }

  /** An integer in [low, high] (both included). @throws {RangeError} when high < low */
  int(low: number, high: number): number {
    if (!(high >= low)) throw new RangeError(`empty range [${low}, ${high}]`);
    return uniformInt(this.#generator, low, high);
  }

  /** A float in [0, 1). */
  float(): number {
    return uniformInt(this.#generator, 0, 0x3fffffff) / 0x40000000;
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.float() < p;
  }

  /** One element of a non-empty list. @throws {RangeError} for an empty list */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError("pick from an empty list");
    return items[this.int(0, items.length - 1)] as T;
  }

  /** A new list with the same elements in a seeded order (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  }
}
