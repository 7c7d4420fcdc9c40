import { getPath, stableJson, type JsonRecord } from "../members.js";

/**
 * The order resource lists keep: by a record's order member (its `order`, else
 * its id; the versions of a record by their version member), then by the stable
 * text of its id, so no two records of a collection share a place.
 */

/** A record's place in its list: its order value and the stable text of its id. */
export interface ListKey {
  readonly order: unknown;
  readonly id: string;
}

/** The members a list is ordered by. */
export interface ListOrder {
  /** The member holding the order value. */
  readonly member: string;
  /** The member holding the record's id. */
  readonly id: string;
}

/** The place of `record` in a list ordered by `order`. */
export function keyOf(record: JsonRecord, order: ListOrder): ListKey {
  return { order: getPath(record, order.member) ?? null, id: stableJson(getPath(record, order.id)) };
}

/** Compares two places: by order value, then by id text. */
export function compareKeys(a: ListKey, b: ListKey): number {
  const byOrder = compareValues(a.order, b.order);
  return byOrder !== 0 ? byOrder : compareValues(a.id, b.id);
}

/** Compares two values: numbers as numbers, strings as they are, anything else by its stable JSON text. */
export function compareValues(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  const left = typeof a === "string" ? a : stableJson(a);
  const right = typeof b === "string" ? b : stableJson(b);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Records in list order, read as they are stored (never to be changed), from a place on. */
export interface ListSource {
  /** The records after `key` in list order (all of them when `key` is null). */
  after(key: ListKey | null): Iterable<JsonRecord>;
  /** Every record from the last to the first. */
  backwards(): Iterable<JsonRecord>;
}

/**
 * The versions of one record, newest first: `versions` is oldest first and
 * in version order (each write of a resource that keeps history raises its
 * version), so the place after a key is found by bisection.
 */
export function newestFirst(versions: readonly JsonRecord[], order: ListOrder): ListSource {
  return {
    *after(key) {
      // The first index (oldest first) whose version comes at or after `key`: the page starts below it.
      let low = 0;
      let high = versions.length;
      if (key !== null) {
        while (low < high) {
          const mid = (low + high) >> 1;
          if (compareKeys(keyOf(versions[mid] as JsonRecord, order), key) < 0) low = mid + 1;
          else high = mid;
        }
      }
      for (let i = (key === null ? versions.length : low) - 1; i >= 0; i -= 1) yield versions[i] as JsonRecord;
    },
    *backwards() {
      yield* versions;
    },
  };
}

/**
 * The version of a record whose `member` is `wanted`, read in place: found by
 * bisection, as `versions` (oldest first) rise in that member; by a walk when they
 * do not (a version written without raising it). Undefined when there is none.
 */
export function versionOf(versions: readonly JsonRecord[], member: string, wanted: unknown): JsonRecord | undefined {
  let low = 0;
  let high = versions.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (compareValues(getPath(versions[mid] as JsonRecord, member), wanted) < 0) low = mid + 1;
    else high = mid;
  }
  const at = versions[low];
  if (at !== undefined && getPath(at, member) === wanted) return at;
  return versions.find((v) => getPath(v, member) === wanted);
}
