/**
 * A timer wheel for lazy simulation: keys scheduled at a due time (ms),
 * taken in due order (ties in scheduling order), so that moving the clock
 * forward touches only what is due, never every scope or Operation the
 * simulator holds. A binary heap with lazy removal: rescheduling or
 * cancelling a key leaves its old entry in the heap, skipped when it surfaces,
 * and the heap is rebuilt when such stale entries outnumber live ones.
 */

interface Entry<K> {
  readonly at: number;
  readonly seq: number;
  readonly key: K;
}

/** Min-queue of keys by due time. */
export class DueQueue<K> {
  #heap: Entry<K>[] = [];
  /** The live entry per scheduled key. */
  readonly #live = new Map<K, Entry<K>>();
  #seq = 0;

  /** Number of keys scheduled. */
  get size(): number {
    return this.#live.size;
  }

  /**
   * Schedules `key` at `atMs`, replacing any earlier schedule of it. A
   * non-finite time (e.g. an attempt that never ends by itself) cancels it.
   */
  schedule(key: K, atMs: number): void {
    if (!Number.isFinite(atMs)) {
      this.cancel(key);
      return;
    }
    const entry = { at: atMs, seq: (this.#seq += 1), key };
    this.#live.set(key, entry);
    this.#push(entry);
    if (this.#heap.length > 2 * this.#live.size + 64) this.#compact();
  }

  /** Removes `key`'s schedule, if any. */
  cancel(key: K): void {
    this.#live.delete(key);
  }

  /** The due time of `key`, or undefined when it is not scheduled. */
  dueAt(key: K): number | undefined {
    return this.#live.get(key)?.at;
  }

  /** Unschedules and returns the earliest key due at or before `nowMs`, or undefined when none is. */
  takeDue(nowMs: number): K | undefined {
    for (let top = this.#heap[0]; top !== undefined && top.at <= nowMs; top = this.#heap[0]) {
      this.#pop();
      if (this.#live.get(top.key) !== top) continue;
      this.#live.delete(top.key);
      return top.key;
    }
    return undefined;
  }

  /** Every scheduled key, in no particular order. */
  keys(): K[] {
    return [...this.#live.keys()];
  }

  #compact(): void {
    const live = this.#heap.filter((entry) => this.#live.get(entry.key) === entry);
    this.#heap = [];
    for (const entry of live) this.#push(entry);
  }

  #push(entry: Entry<K>): void {
    const heap = this.#heap;
    heap.push(entry);
    for (let i = heap.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i] as Entry<K>, heap[parent] as Entry<K>)) break;
      [heap[i], heap[parent]] = [heap[parent] as Entry<K>, heap[i] as Entry<K>];
      i = parent;
    }
  }

  #pop(): void {
    const heap = this.#heap;
    const last = heap.pop();
    if (last === undefined || heap.length === 0) return;
    heap[0] = last;
    for (let i = 0; ; ) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < heap.length && before(heap[left] as Entry<K>, heap[smallest] as Entry<K>)) smallest = left;
      if (right < heap.length && before(heap[right] as Entry<K>, heap[smallest] as Entry<K>)) smallest = right;
      if (smallest === i) return;
      [heap[i], heap[smallest]] = [heap[smallest] as Entry<K>, heap[i] as Entry<K>];
      i = smallest;
    }
  }
}

function before<K>(a: Entry<K>, b: Entry<K>): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}
