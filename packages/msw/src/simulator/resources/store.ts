import { copyJson, stableJson, type JsonRecord } from "../members.js";

/**
 * The records of every resource family, as json-server keeps its collections:
 * per resource, per collection (the values of its `within` members, such as
 * a scope id and a family), per id. A record keeps every version when its
 * resource has history. Ids and collection keys are compared by their stable
 * JSON text, so an id may be a string, a number or an object (a binding key).
 * Records go in and come out as copies: nothing outside the store holds a
 * stored object.
 */

/** One stored record. */
export interface StoredRecord {
  /** The newest version. */
  readonly current: JsonRecord;
  /** Every version, oldest first (only the current one when the resource keeps no history). */
  readonly versions: readonly JsonRecord[];
  /** The stable text of what the record was created from (compared on a replay). */
  readonly origin: string;
}

interface Entry {
  current: JsonRecord;
  versions: JsonRecord[];
  origin: string;
  /** Insertion number: ties in list order fall back to it. */
  readonly serial: number;
}

interface Collection {
  readonly entries: Map<string, Entry>;
  sequence: number;
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
    };
    this.#collection(resource, keys, true)!.entries.set(stableJson(id), entry);
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
    const entry = this.#collection(resource, keys, false)?.entries.get(stableJson(id));
    if (entry === undefined) throw new Error(`no ${resource} record to update`);
    entry.current = copyJson(record);
    entry.versions = keepHistory ? [...entry.versions, copyJson(record)] : [copyJson(record)];
    return view(entry);
  }

  /**
   * Rewrites the current version in place (bookkeeping that makes no new
   * version): the earlier versions stay as they were.
   */
  amend(resource: string, keys: readonly unknown[], id: unknown, record: JsonRecord): StoredRecord {
    const entry = this.#collection(resource, keys, false)?.entries.get(stableJson(id));
    if (entry === undefined) throw new Error(`no ${resource} record to amend`);
    entry.current = copyJson(record);
    entry.versions = [...entry.versions.slice(0, -1), copyJson(record)];
    return view(entry);
  }

  /** Removes a record. @returns whether there was one */
  remove(resource: string, keys: readonly unknown[], id: unknown): boolean {
    return this.#collection(resource, keys, false)?.entries.delete(stableJson(id)) ?? false;
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
    if (collection === undefined && create) byKey.set(key, (collection = { entries: new Map(), sequence: 0 }));
    return collection;
  }
}

function view(entry: Entry): StoredRecord {
  return { current: copyJson(entry.current), versions: entry.versions.map((v) => copyJson(v)), origin: entry.origin };
}
