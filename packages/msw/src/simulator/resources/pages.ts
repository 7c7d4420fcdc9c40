import { foldKey } from "@powercontext/runtime/rules";
import type { ContractResource, ContractResourceUse } from "../../contract/types.js";
import { decodeCursor, encodeCursor, requestDigest, type CursorPosition } from "./cursor.js";
import { getPath, stableJson, valuesAt, type JsonRecord } from "../members.js";
import { refuse } from "./refusals.js";

/**
 * One page of a resource list: the records the operation's filters keep, in
 * the resource's order (its `order` member, else its id; the versions of a
 * record newest first), `limit` of them after the cursor's position, and the
 * cursor of the next page, null on the last one. A list ends: the last page
 * has no cursor, and a page that is exactly full has none either when
 * nothing follows it. A cursor is opaque and bound to the request, or, where
 * the operation says `cursor: last_id`, the last record's id as text (the
 * list must then be ordered by id). A list with a `bound` member pins, at its
 * first page, the highest value of that member among the records it keeps;
 * its cursors carry that bound and later pages leave out the records above
 * it, so a list followed while records keep being written still ends, as the
 * release's does.
 */

/** A page and the cursor of the one after it. */
export interface Page {
  readonly page: readonly JsonRecord[];
  readonly next: string | null;
}

/**
 * Refuses a cursor this list did not hand out for this request, or one changed
 * since (`key` checks its seal), before anything else is looked up, as the
 * release does.
 * @throws SimError the operation's `bad_cursor` refusal
 */
export function checkCursor(use: ContractResourceUse, flat: JsonRecord, key: string): void {
  if (use.page === null || use.badCursor === null || use.cursor === "last_id") return;
  const raw = getPath(flat, use.page.cursor);
  if (typeof raw === "string" && raw !== "" && decodeCursor(raw, digestOf(use, flat), key) === null)
    throw refuse(use.badCursor);
}

function digestOf(use: ContractResourceUse, flat: JsonRecord): string {
  const request = { ...flat };
  if (use.page !== null) delete request[use.page.cursor];
  return requestDigest(stableJson(request));
}

/**
 * Filters, orders and cuts `records` for the request `flat`; `key` seals the cursors
 * (see `cursor.ts`).
 * @throws SimError the operation's `bad_cursor` refusal for a cursor this list did not hand out for this request
 */
export function listPage(
  use: ContractResourceUse,
  resource: ContractResource,
  flat: JsonRecord,
  records: readonly JsonRecord[],
  newestFirst: boolean,
  key: string,
): Page {
  const applied = use.filters.filter((filter) =>
    Object.entries(filter.when).every(([member, value]) => {
      const actual = getPath(flat, member) ?? null;
      return Array.isArray(value) ? value.includes(actual as never) : actual === value;
    }),
  );
  const wanted = applied
    .map((filter) => ({ filter, value: getPath(flat, filter.request) ?? filter.default }))
    .filter(({ value }) => value !== undefined && value !== null);
  const kept = records.filter((record) => keeps(record, wanted));
  const orderMember = newestFirst ? (resource.version?.member ?? resource.id) : (resource.order ?? resource.id);
  const position = (record: JsonRecord): CursorPosition => ({
    order: getPath(record, orderMember) ?? null,
    id: stableJson(getPath(record, resource.id)),
  });
  const sign = newestFirst ? -1 : 1;
  const sorted = [...kept].sort((a, b) => sign * compare(position(a), position(b)));
  const cursorMember = use.page?.cursor;
  const digest = digestOf(use, flat);
  let start = 0;
  let bound = use.bound === null ? undefined : highest(sorted, use.bound);
  let listed: readonly JsonRecord[] = sorted;
  const raw = cursorMember === undefined ? undefined : getPath(flat, cursorMember);
  if (typeof raw === "string" && raw !== "") {
    // A `last_id` cursor is the id of the last record shown: any text pages after it.
    const after: CursorPosition | null =
      use.cursor === "last_id" ? { order: raw, id: JSON.stringify(raw) } : decodeCursor(raw, digest, key);
    if (after === null) {
      if (use.badCursor !== null) throw refuse(use.badCursor);
    } else {
      bound = after.bound;
      listed = bounded(sorted, use.bound, bound);
      const index = listed.findIndex((record) => sign * compare(position(record), after) > 0);
      start = index === -1 ? listed.length : index;
    }
  }
  const limitValue = use.limit === null ? listed.length : getPath(flat, use.limit.request);
  const limit = typeof limitValue === "number" && limitValue > 0 ? limitValue : (use.limit?.default ?? listed.length);
  const page = listed.slice(start, start + limit);
  const last = page[page.length - 1];
  const more = last !== undefined && start + page.length < listed.length;
  const next = !more
    ? null
    : use.cursor === "last_id"
      ? String(getPath(last, resource.id))
      : encodeCursor(bound === undefined ? position(last) : { ...position(last), bound }, digest, key);
  return { page, next };
}

/** The highest value of `member` among `records`, undefined when none has one. */
function highest(records: readonly JsonRecord[], member: string): unknown {
  let top: unknown;
  for (const record of records) {
    const value = getPath(record, member);
    if (value !== undefined && (top === undefined || compareValues(value, top) > 0)) top = value;
  }
  return top;
}

/** The records whose `member` is not above `bound` (all of them when the list has no bound). */
function bounded(records: readonly JsonRecord[], member: string | null, bound: unknown): readonly JsonRecord[] {
  if (member === null || bound === undefined) return records;
  return records.filter((record) => compareValues(getPath(record, member), bound) <= 0);
}

type Filter = ContractResourceUse["filters"][number];

/**
 * Whether `record` matches every filter the request gives a value for. Filters
 * that read through the same list (`name[]`) must match on one of its items
 * together, as a search for a reference of one kind holding one text does.
 */
function keeps(record: JsonRecord, wanted: readonly { filter: Filter; value: unknown }[]): boolean {
  const lists = new Map<string, { rest: string; filter: Filter; value: unknown }[]>();
  for (const { filter, value } of wanted) {
    const cut = filter.member.indexOf("[]");
    if (cut === -1) {
      if (!matches(valuesAt(record, filter.member), filter, value)) return false;
      continue;
    }
    const list = filter.member.slice(0, cut + 2);
    lists.set(list, [...(lists.get(list) ?? []), { rest: filter.member.slice(cut + 3), filter, value }]);
  }
  for (const [list, group] of lists) {
    const items = valuesAt(record, list);
    const one = items.some((item) =>
      group.every(({ rest, filter, value }) => matches(rest === "" ? [item] : valuesAt(item, rest), filter, value)),
    );
    if (!one) return false;
  }
  return true;
}

/**
 * Whether one of `found` (the values at a filter's member) matches the
 * request's value: equal to it (or, for a requested list, holding each of its
 * values, or being one of them), or containing it as a substring (`contains`);
 * `folded` compares strings after NFC and case folding.
 */
function matches(found: readonly unknown[], filter: Filter, wanted: unknown): boolean {
  const key = (value: unknown) =>
    filter.match === "folded" && typeof value === "string" ? foldKey(value) : stableJson(value);
  return found.some((actual) => {
    if (filter.match === "contains") return typeof actual === "string" && actual.includes(String(wanted));
    if (Array.isArray(wanted))
      return Array.isArray(actual)
        ? wanted.every((w) => actual.some((a) => key(a) === key(w)))
        : wanted.some((w) => key(w) === key(actual));
    return key(actual) === key(wanted);
  });
}

function compare(a: CursorPosition, b: CursorPosition): number {
  const byOrder = compareValues(a.order, b.order);
  return byOrder !== 0 ? byOrder : compareValues(a.id, b.id);
}

function compareValues(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  const left = typeof a === "string" ? a : stableJson(a);
  const right = typeof b === "string" ? b : stableJson(b);
  return left < right ? -1 : left > right ? 1 : 0;
}
