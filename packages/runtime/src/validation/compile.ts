import {
  ANY,
  ARRAY,
  BEFORE_ENUM,
  BOOLEAN,
  INTEGER,
  NULL,
  NUMBER,
  OBJECT,
  STRING,
  acceptorOf,
  anything,
  checkOn,
  leafKind,
  membersAcceptor,
} from "./check.js";
import type { Members, Prepared } from "./prepared.js";
import type { SchemaCheck, SchemaNode, SchemaRef } from "./schema-node.js";

/**
 * Prepares the compact form (docs/adr/0031-validators-fast-and-ordered.md):
 * each schema node once, into a record of one shape ({@link Prepared}: its
 * types as bits, its bounds with neutral defaults, its regular expression,
 * its members' records with a name index, the count of required members,
 * and the fast path's closure by the node's shape, `check.ts`). All records
 * share one hidden class, so the ordered path, which reads them, stays
 * monomorphic, without eval; the rarer keywords (handlers), `const`, `$ref`
 * beside other keywords and references back into a cycle are closures too.
 */

/** The bit of each type letter. */
export const TYPE_BITS: Readonly<Record<string, number>> = {
  n: NUMBER,
  s: STRING,
  a: ARRAY,
  o: OBJECT,
  O: OBJECT,
  i: INTEGER,
  b: BOOLEAN,
  z: NULL,
};

const prepared = new WeakMap<object, Prepared | null>();

/** The record of the `false` schema: it admits nothing. */
const NOTHING: Prepared = node({ t: "" });

/** The record of a schema, prepared once per node; null for a schema that admits anything. */
export function prepare(ref: SchemaRef): Prepared | null {
  if (typeof ref === "boolean") return ref ? null : NOTHING;
  let known = prepared.get(ref);
  if (known === undefined) {
    known = node(ref);
    prepared.set(ref, known);
  }
  return known;
}

/** The check of a schema, for the handlers of the rarer keywords: its fast path's closure when `at` is null. */
export function compile(ref: SchemaRef): SchemaCheck {
  const c = prepare(ref);
  return (value, at) => c === null || checkOn(c, value, at);
}

function node(s: SchemaNode): Prepared {
  const values = s.e ?? null;
  let types = s.t === undefined ? ANY : 0;
  for (const letter of s.t ?? "") types |= TYPE_BITS[letter] ?? 0;
  const h: (number | SchemaCheck)[] = [];
  let groups =
    (s.g !== undefined || s.l !== undefined ? NUMBER : 0) |
    (s.n !== undefined || s.x !== undefined || s.p !== undefined ? STRING : 0);
  for (const keyword of s.k ?? []) {
    // When it is checked: first (before enum), after enum (""), or last in the group of a type letter.
    const on = keyword.on === "first" ? BEFORE_ENUM : (TYPE_BITS[keyword.on] ?? 0);
    h.push(on, keyword.check(s));
    if (on > 0) groups |= on;
  }
  const { I: item, minItems = 0, maxItems = Infinity } = s;
  const o = members(s);
  groups |= (item !== undefined || minItems || maxItems !== Infinity ? ARRAY : 0) | (o ? OBJECT : 0);
  const record: { -readonly [K in keyof Prepared]: Prepared[K] } = {
    s,
    t: types,
    // One type bit (types & (types - 1) is 0), and its group among the node's.
    late: types & (types - 1) ? 0 : types & groups,
    k: groups,
    n: s.n ?? 0,
    x: s.x ?? Infinity,
    p: s.p === undefined ? null : new RegExp(s.p, s.pf ?? "u"),
    g: s.g ?? -Infinity,
    l: s.l ?? Infinity,
    e: values,
    h: h.length ? h : null,
    o,
    I: prepare(item ?? true),
    minItems,
    maxItems,
    // Both replaced as soon as the record exists.
    f: 0,
    a: anything,
  };
  record.f = leafKind(record);
  record.a = acceptorOf(record);
  return record;
}

function members(s: SchemaNode): Members | null {
  const { r = [], P: pairs = [], minProperties: min = 0, maxProperties: max = Infinity } = s;
  // The type letter `O`: an object without additional members.
  const additional = s.t?.includes("O") ? false : s.A;
  const names: string[] = [];
  const parts: (Prepared | null)[] = [];
  for (let i = 0; i < pairs.length; i += 2) {
    names.push(pairs[i] as string);
    parts.push(prepare(pairs[i + 1] as SchemaRef));
  }
  const declared = names.length;
  const extra: Prepared | null | false = additional === false ? false : prepare(additional ?? true);
  const order = typeof r === "number" ? names.filter((_, i) => i < 31 && (r >> i) & 1) : r;
  const required = names.map(() => 0);
  for (const name of order) {
    let i = names.indexOf(name);
    if (i < 0) {
      // A required member that is no property: its value is an additional one.
      i = names.push(name) - 1;
      parts.push(extra === false ? NOTHING : extra);
    }
    required[i] = 1;
  }
  // No object keyword at all (additionalProperties absent or true): none to check.
  if (!names.length && extra === null && !min && max === Infinity) return null;
  const keywords = { names, declared, parts, required, order, extra, min, max };
  return { ...keywords, a: membersAcceptor(keywords) };
}
