import { copyJson, stableJson, type JsonRecord } from "../members.js";
import { compareKeys, keyOf, type ListKey, type ListOrder, type ListSource } from "./list-order.js";
import { OrderedIndex } from "./ordered-index.js";

/**
 * The records of every resource family, as json-server keeps its collections:
 * per resource, per collection (the values of its `within` members, such as
 * a scope id and a family), per id. A record keeps every version when its
 * resource has history. Ids and collection keys are compared by their stable
 * JSON text, so an id may be a string, a number or an object (a binding key).
 * Records go in and come out as copies: nothing outside the store holds a
 * stored object. The lists read the records in place instead (`ordered`,
 * `versionsOf`), read-only, so a page copies only what it shows.
 *
 * Every operation costs the same however large the store grows: a write adds
 * one version (the versions of a record are copied only when a caller reads
 * them), and a collection keeps an index per list order once a list asked for
 * it, updated on each write, so a page starts in O(log n).
 */

/** One stored record. */
export interface StoredRecord {
  /** The newest version. */
  readonly current: JsonRecord;
  /** Every version, oldest first (only the current one when the resource keeps no history); copied when first read. */
  readonly versions: readonly JsonRecord[];
  /** The stable text of what the record was created from (compared on a replay). */
  readonly origin: string;
}

interface Entry {
  current: JsonRecord;
  /** Oldest first; only ever appended to (a write without history replaces the array). */
  versions: JsonRecord[];
  origin: string;
  /** Insertion number: ties in list order fall back to it. */
  readonly serial: number;
  /** The entry's place in each list order of its collection (by {@link orderName}). */
  readonly places: Map<string, Place>;
}

/** An entry at its key in one list order. */
interface Place {
  readonly key: ListKey;
  readonly entry: Entry;
}

interface Collection {
  readonly entries: Map<string, Entry>;
  sequence: number;
  /** The list orders asked for so far, each with the collection's entries in it. */
  readonly orders: Map<string, { readonly order: ListOrder; readonly index: OrderedIndex<Place> }>;
}

const byKey = (a: Place, b: Place) => compareKeys(a.key, b.key);

function orderName(order: ListOrder): string {
  return JSON.stringify([order.member, order.id]);
}

/** What an idempotency key was first used for. */
export interface KeyUse {
  /** The stable text of the request that used the key first. */
  readonly request: string;
  readonly keys: readonly unknown[];
  readonly id: unknown;
}

/** The store of all resource records. */
export class ResourceStore {
  readonly #collections = new Map<string, Map<string, Collection>>();
  readonly #keyUses = new Map<string, Map<string, KeyUse>>();
  #serial = 0;

  /** The record `id` of `resource` in the collection `keys`, or undefined. */
  find(resource: string, keys: readonly unknown[], id: unknown): StoredRecord | undefined {
    const entry = this.#collection(resource, keys, false)?.entries.get(stableJson(id));
    return entry === undefined ? undefined : view(entry);
  }

  /** True when the record exists (without copying it). */
  has(resource: string, keys: readonly unknown[], id: unknown): boolean {
    return this.#collection(resource, keys, false)?.entries.has(stableJson(id)) ?? false;
  }

  /** The number of records in a collection. */
  count(resource: string, keys: readonly unknown[]): number {
    return this.#collection(resource, keys, false)?.entries.size ?? 0;
  }

  /** Every record of a collection, in insertion order. */
  records(resource: string, keys: readonly unknown[]): StoredRecord[] {
    return [...(this.#collection(resource, keys, false)?.entries.values() ?? [])].map(view);
  }

  /** Every record of a resource across its collections, in insertion order. */
  everywhere(resource: string): StoredRecord[] {
    const all = [...(this.#collections.get(resource)?.values() ?? [])].flatMap((c) => [...c.entries.values()]);
    return all.sort((a, b) => a.serial - b.serial).map(view);
  }

  /**
   * The current records of a collection in list `order`, read in place (never to be
   * changed): the index of that order is built on the first call, then kept by every write.
   */
  ordered(resource: string, keys: readonly unknown[], order: ListOrder): ListSource {
    const collection = this.#collection(resource, keys, false);
    if (collection === undefined) return { after: () => [], backwards: () => [] };
    const name = orderName(order);
    let kept = collection.orders.get(name);
    if (kept === undefined) {
      kept = { order, index: new OrderedIndex<Place>(byKey) };
      for (const entry of collection.entries.values()) place(entry, name, kept);
      collection.orders.set(name, kept);
    }
    const { index } = kept;
    return {
      *after(key) {
        for (const at of index.after(key === null ? undefined : { key, entry: undefined as never }))
          yield at.entry.current;
      },
      *backwards() {
        for (const at of index.backwards()) yield at.entry.current;
      },
    };
  }

  /** The versions of a record, oldest first, read in place (never to be changed); undefined when there is no such record. */
  versionsOf(resource: string, keys: readonly unknown[], id: unknown): readonly JsonRecord[] | undefined {
    return this.#collection(resource, keys, false)?.entries.get(stableJson(id))?.versions;
  }

  /** The collection keys of a resource that hold at least one record. */
  collectionKeys(resource: string): unknown[][] {
    return [...(this.#collections.get(resource)?.entries() ?? [])]
      .filter(([, c]) => c.entries.size > 0)
      .map(([key]) => JSON.parse(key) as unknown[]);
  }

  /** Stores a new record (replacing nothing: the caller checked the id is free). */
  insert(resource: string, keys: readonly unknown[], id: unknown, record: JsonRecord, origin: string): StoredRecord {
    const entry: Entry = {
      current: copyJson(record),
      versions: [copyJson(record)],
      origin,
      serial: (this.#serial += 1),
      places: new Map(),
    };
    const collection = this.#collection(resource, keys, true)!;
    collection.entries.set(stableJson(id), entry);
    for (const [name, kept] of collection.orders) place(entry, name, kept);
    return view(entry);
  }

  /** Replaces the current version; the old one stays readable when `keepHistory`. */
  update(
    resource: string,
    keys: readonly unknown[],
    id: unknown,
    record: JsonRecord,
    keepHistory: boolean,
  ): StoredRecord {
    return this.#write(resource, keys, id, record, keepHistory ? "append" : "reset");
  }

  /**
   * Rewrites the current version in place (bookkeeping that makes no new
   * version): the earlier versions stay as they were.
   */
  amend(resource: string, keys: readonly unknown[], id: unknown, record: JsonRecord): StoredRecord {
    return this.#write(resource, keys, id, record, "amend");
  }

  /** Stores `record` as the current version: a new one (`append`), the only one (`reset`), or in the current one's place (`amend`). */
  #write(
    resource: string,
    keys: readonly unknown[],
    id: unknown,
    record: JsonRecord,
    versions: "append" | "reset" | "amend",
  ): StoredRecord {
    const collection = this.#collection(resource, keys, false);
    const entry = collection?.entries.get(stableJson(id));
    if (collection === undefined || entry === undefined) throw new Error(`no ${resource} record to update`);
    entry.current = copyJson(record);
    if (versions === "append") entry.versions.push(copyJson(record));
    else if (versions === "reset") entry.versions = [copyJson(record)];
    else entry.versions[entry.versions.length - 1] = copyJson(record);
    for (const [name, kept] of collection.orders) {
      const at = entry.places.get(name) as Place;
      if (compareKeys(at.key, keyOf(entry.current, kept.order)) === 0) continue;
      kept.index.remove(at);
      place(entry, name, kept);
    }
    return view(entry);
  }

  /** Removes a record. @returns whether there was one */
  remove(resource: string, keys: readonly unknown[], id: unknown): boolean {
    const collection = this.#collection(resource, keys, false);
    const text = stableJson(id);
    const entry = collection?.entries.get(text);
    if (collection === undefined || entry === undefined) return false;
    collection.entries.delete(text);
    for (const [name, kept] of collection.orders) kept.index.remove(entry.places.get(name) as Place);
    return true;
  }

  /**
   * Removes the oldest records of a collection (in the order they were inserted) until it
   * holds at most `keep`: each write pays for the one record it pushes out.
   */
  dropOldest(resource: string, keys: readonly unknown[], keep: number): void {
    const collection = this.#collection(resource, keys, false);
    if (collection === undefined) return;
    for (const [text, entry] of collection.entries) {
      if (collection.entries.size <= keep) return;
      collection.entries.delete(text);
      for (const [name, kept] of collection.orders) kept.index.remove(entry.places.get(name) as Place);
    }
  }

  /** The next number of the collection's sequence (1, 2, 3, ...). */
  nextSequence(resource: string, keys: readonly unknown[]): number {
    const collection = this.#collection(resource, keys, true)!;
    collection.sequence += 1;
    return collection.sequence;
  }

  /** What the idempotency `key` of `resource` was first used for, or undefined. */
  keyUse(resource: string, key: unknown): KeyUse | undefined {
    return this.#keyUses.get(resource)?.get(stableJson(key));
  }

  /** Records the first use of an idempotency key. */
  rememberKey(resource: string, key: unknown, use: KeyUse): void {
    let uses = this.#keyUses.get(resource);
    if (uses === undefined) this.#keyUses.set(resource, (uses = new Map()));
    uses.set(stableJson(key), use);
  }

  #collection(resource: string, keys: readonly unknown[], create: boolean): Collection | undefined {
    let byKey = this.#collections.get(resource);
    if (byKey === undefined) {
      if (!create) return undefined;
      this.#collections.set(resource, (byKey = new Map()));
    }
    const key = stableJson(keys);
    let collection = byKey.get(key);
    if (collection === undefined && create)
      byKey.set(key, (collection = { entries: new Map(), sequence: 0, orders: new Map() }));
    return collection;
  }
}

/** Puts `entry` into one list order at its current key. */
function place(
  entry: Entry,
  name: string,
  kept: { readonly order: ListOrder; readonly index: OrderedIndex<Place> },
): void {
  const at: Place = { key: keyOf(entry.current, kept.order), entry };
  entry.places.set(name, at);
  kept.index.add(at);
}

/**
 * A copy of the entry as it stands: the current version now, the versions
 * (as many as there are now) when first read, so a write or a read that does
 * not look at them costs the same however many there are.
 */
function view(entry: Entry): StoredRecord {
  const versions = entry.versions;
  const count = versions.length;
  let copies: JsonRecord[] | undefined;
  return {
    current: copyJson(entry.current),
    get versions() {
      copies ??= versions.slice(0, count).map((v) => copyJson(v));
      return copies;
    },
    origin: entry.origin,
  };
}
