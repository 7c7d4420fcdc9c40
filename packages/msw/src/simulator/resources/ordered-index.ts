/**
 * Values kept in the order of a comparator, as a skip list: adding, removing
 * and finding where to start are O(log n) expected, and walking on from there
 * costs only the values walked. What the resource lists page through, so that
 * a page costs the same in a collection of ten records as in one of a million
 * (issue 33: a simulator serving long runs must not slow down as it grows).
 *
 * The levels are drawn from a generator of its own with a fixed seed, so the
 * index neither consumes nor depends on the simulator's seeded ids.
 */

const MAX_LEVEL = 24;

interface Node<T> {
  readonly value: T | undefined;
  readonly next: (Node<T> | null)[];
  /** The node before this one on the lowest level (for walking backwards), null for the first. */
  previous: Node<T> | null;
}

/** A comparator: negative when `a` comes first, 0 for the same place, positive when `b` does. */
export type Comparator<T> = (a: T, b: T) => number;

/** The values of a collection in comparator order. */
export class OrderedIndex<T> {
  readonly #compare: Comparator<T>;
  readonly #head: Node<T> = { value: undefined, next: new Array(MAX_LEVEL).fill(null), previous: null };
  #tail: Node<T> | null = null;
  #level = 1;
  #size = 0;
  #random = 0x9e3779b9;

  constructor(compare: Comparator<T>) {
    this.#compare = compare;
  }

  /** How many values the index holds. */
  get size(): number {
    return this.#size;
  }

  /** Adds `value` after every value that compares equal to it. */
  add(value: T): void {
    const update = this.#path(value, true);
    const level = this.#randomLevel();
    if (level > this.#level) {
      for (let i = this.#level; i < level; i += 1) update[i] = this.#head;
      this.#level = level;
    }
    const node: Node<T> = { value, next: new Array(level).fill(null), previous: null };
    for (let i = 0; i < level; i += 1) {
      const before = update[i] as Node<T>;
      node.next[i] = before.next[i] ?? null;
      before.next[i] = node;
    }
    const before = update[0] as Node<T>;
    node.previous = before === this.#head ? null : before;
    const after = node.next[0];
    if (after) after.previous = node;
    else this.#tail = node;
    this.#size += 1;
  }

  /** Removes `value` (the same value, found by the comparator and then by identity). @returns whether it was there */
  remove(value: T): boolean {
    const update = this.#path(value, false);
    let node = (update[0] as Node<T>).next[0] ?? null;
    while (node !== null && node.value !== value && this.#compare(node.value as T, value) === 0) {
      for (let i = 0; i < this.#level; i += 1) if ((update[i] as Node<T>).next[i] === node) update[i] = node;
      node = node.next[0] ?? null;
    }
    if (node === null || node.value !== value) return false;
    for (let i = 0; i < node.next.length; i += 1) {
      const before = update[i] as Node<T>;
      if (before.next[i] === node) before.next[i] = node.next[i] ?? null;
    }
    const after = node.next[0];
    if (after) after.previous = node.previous;
    else this.#tail = node.previous;
    while (this.#level > 1 && this.#head.next[this.#level - 1] === null) this.#level -= 1;
    this.#size -= 1;
    return true;
  }

  /** The values that come after `key` (all of them when `key` is undefined), in order. */
  *after(key: T | undefined): Generator<T> {
    let node = key === undefined ? this.#head.next[0] : (this.#path(key, true)[0] as Node<T>).next[0];
    for (; node; node = node.next[0]) yield node.value as T;
  }

  /** Every value from the last to the first. */
  *backwards(): Generator<T> {
    for (let node = this.#tail; node !== null; node = node.previous) yield node.value as T;
  }

  /**
   * For each level, the last node before where `value` goes: before the first
   * equal value (`after` false), or after the last one (`after` true).
   */
  #path(value: T, after: boolean): Node<T>[] {
    const update = new Array<Node<T>>(MAX_LEVEL);
    let node = this.#head;
    for (let i = this.#level - 1; i >= 0; i -= 1) {
      for (let next = node.next[i]; next; next = node.next[i]) {
        const order = this.#compare(next.value as T, value);
        if (order < 0 || (after && order === 0)) node = next;
        else break;
      }
      update[i] = node;
    }
    return update;
  }

  /** A level from 1 up, each one half as likely as the one below (xorshift32). */
  #randomLevel(): number {
    let level = 1;
    for (;;) {
      let x = this.#random;
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      this.#random = x >>> 0;
      if ((this.#random & 1) === 0 || level >= MAX_LEVEL) return level;
      level += 1;
    }
  }
}
