import { foldKey } from "@powercontext/runtime/rules";
import type { ContractResource, ContractResourceUse } from "../../contract/types.js";
import { decodeCursor, encodeCursor, requestDigest, type CursorPosition } from "./cursor.js";
import { compareValues, keyOf, type ListOrder, type ListSource } from "./list-order.js";
import { getPath, meetsWhen, stableJson, valuesAt, type JsonRecord } from "../members.js";
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
 * release does; an empty cursor is one it never hands out.
 * @throws SimError the operation's `bad_cursor` refusal
 */
export function checkCursor(use: ContractResourceUse, flat: JsonRecord, key: string): void {
  if (use.page === null || use.badCursor === null || use.cursor === "last_id") return;
  const raw = getPath(flat, use.page.cursor);
  // An empty cursor is no cursor this list handed out: the release refuses it too.
  if (typeof raw === "string" && decodeCursor(raw, digestOf(use, flat), key) === null) throw refuse(use.badCursor);
}

/**
 * The request a cursor is bound to: the list (its resource and action, so a
 * cursor of one list is none of another taking the same members) and every
 * request member but the cursor.
 */
function digestOf(use: ContractResourceUse, flat: JsonRecord): string {
  const request = { ...flat };
  if (use.page !== null) delete request[use.page.cursor];
  return requestDigest(stableJson([use.name, use.action, request]));
}

/**
 * One page of `source` (the records in the list's order, read in place) for the
 * request `flat`: from the cursor's place, the records the filters keep (each seen
 * as `view` makes it, and filtered with the related records `joinedView` adds, read
 * only when a filter the request gives reads them), `limit` of them, and whether one
 * more follows. Costs what the page walks, never the whole list (the place is found by
 * the source's index), beside reading a joined resource once (`joins.ts`).
 * `key` seals the cursors (see `cursor.ts`).
 * @throws SimError the operation's `bad_cursor` refusal for a cursor this list did not hand out for this request
 */
export function listPage(
  use: ContractResourceUse,
  resource: ContractResource,
  flat: JsonRecord,
  source: ListSource,
  newestFirst: boolean,
  key: string,
  view: (record: JsonRecord) => JsonRecord = (record) => record,
  joinedView: (record: JsonRecord) => JsonRecord = (record) => record,
): Page {
  const applied = use.filters.filter((filter) => meetsWhen(flat, filter.when));
  const wanted = applied
    .map((filter) => ({ filter, value: filterValue(flat, filter) }))
    .filter(({ value }) => value !== undefined && value !== null);
  // The related records are read only for a filter of the request that reads them.
  const readsJoin = wanted.some(({ filter }) => use.joins.some((j) => filter.member.startsWith(`${j.name}[]`)));
  const joined = readsJoin ? joinedView : (record: JsonRecord) => record;
  const order: ListOrder = {
    member: newestFirst ? (resource.version?.member ?? resource.id) : (resource.order ?? resource.id),
    id: resource.id,
  };
  const cursorMember = use.page?.cursor;
  const digest = digestOf(use, flat);
  let after: CursorPosition | null = null;
  const raw = cursorMember === undefined ? undefined : getPath(flat, cursorMember);
  if (typeof raw === "string" && (raw !== "" || use.cursor !== "last_id")) {
    // A `last_id` cursor is the id of the last record shown: any text pages after it.
    after = use.cursor === "last_id" ? { order: raw, id: JSON.stringify(raw) } : decodeCursor(raw, digest, key);
    if (after === null && use.badCursor !== null) throw refuse(use.badCursor);
  }
  const bound =
    use.bound === null
      ? undefined
      : after !== null
        ? after.bound
        : highest(source, use.bound, order, (stored) => joined(view(stored)), wanted);
  const limitValue = use.limit === null ? undefined : getPath(flat, use.limit.request);
  const limit =
    typeof limitValue === "number" && limitValue > 0 ? limitValue : (use.limit?.default ?? Number.POSITIVE_INFINITY);
  const page: JsonRecord[] = [];
  let more = false;
  for (const stored of source.after(after === null ? null : { order: after.order, id: after.id })) {
    const record = view(stored);
    if (!keeps(joined(record), wanted)) continue;
    if (bound !== undefined && compareValues(getPath(record, use.bound as string), bound) > 0) continue;
    if (page.length === limit) {
      more = true;
      break;
    }
    page.push(record);
  }
  const last = page[page.length - 1];
  const next =
    !more || last === undefined
      ? null
      : use.cursor === "last_id"
        ? String(getPath(last, resource.id))
        : encodeCursor(bound === undefined ? keyOf(last, order) : { ...keyOf(last, order), bound }, digest, key);
  return { page, next };
}

/**
 * The highest value of `member` among the records the filters keep, undefined when
 * none has one: the last such record when the list is ordered by that member (as
 * a list of Sources by position is), else the highest found walking them all.
 */
function highest(
  source: ListSource,
  member: string,
  order: ListOrder,
  view: (record: JsonRecord) => JsonRecord,
  wanted: readonly { filter: Filter; value: unknown }[],
): unknown {
  let top: unknown;
  for (const stored of source.backwards()) {
    const record = view(stored);
    if (!keeps(record, wanted)) continue;
    const value = getPath(record, member);
    if (value !== undefined && (top === undefined || compareValues(value, top) > 0)) top = value;
    if (top !== undefined && member === order.member) return top;
  }
  return top;
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
  if (filter.match === "range") {
    const [since, until] = wanted as [unknown, unknown];
    return found.some(
      (actual) =>
        (since === null || compareBounds(actual, since) >= 0) && (until === null || compareBounds(actual, until) < 0),
    );
  }
  return found.some((actual) => {
    if (filter.match === "contains") return typeof actual === "string" && actual.includes(String(wanted));
    if (Array.isArray(wanted))
      return Array.isArray(actual)
        ? wanted.every((w) => actual.some((a) => key(a) === key(w)))
        : wanted.some((w) => key(w) === key(actual));
    return key(actual) === key(wanted);
  });
}

/**
 * The request's value for a filter: its member's value, else the filter's default;
 * for a `range`, the pair of its bounds, or null when the request names neither.
 */
function filterValue(flat: JsonRecord, filter: Filter): unknown {
  const given = getPath(flat, filter.request) ?? filter.default;
  const value = typeof given === "string" && Object.hasOwn(filter.values, given) ? filter.values[given] : given;
  if (filter.match !== "range") return value;
  const until = filter.until === null ? null : (getPath(flat, filter.until) ?? null);
  return (value ?? null) === null && until === null ? null : [value ?? null, until];
}

/** Orders two bounds of a range: as instants when both read as times, else in list order. */
function compareBounds(a: unknown, b: unknown): number {
  const [ta, tb] = [Date.parse(String(a)), Date.parse(String(b))];
  return Number.isNaN(ta) || Number.isNaN(tb) ? compareValues(a, b) : ta - tb;
}
