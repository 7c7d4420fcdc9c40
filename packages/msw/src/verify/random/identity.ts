// Ids in random requests, abstracted so both servers get the same logical request.
//
// A request never carries a literal id taken from an answer. It carries an AnswerRef:
// "the value at /items/2/artifact_id of the answer to request 37" (or that answer's
// ETag). Each side resolves it against its own answer to request 37, so the release
// gets its id and the mock its own. A run only refers to ids both sides' answers hold
// (Catalogue); should a side's answer still lack one, the reference falls back to a
// value drawn like a random id and the request is marked as not resolved on that side.
//
// Which members are ids is read from their names, as the contract writes them: a member
// ending in `_id` is an id of the kind named by its last word (`parent_scope_id` and
// `scope_id` are both `scope_id`), `key` and `*_key` are keys (an `idempotency_key` is
// the client's own and always fresh), `*_ids` lists hold ids of one kind. `family` and
// `revision` beside an id are its companions: an artifact id travels with them.
import { isObject, pointerGet, pointerStep } from "./contract.js";

/** Members whose value belongs to the id beside them (an artifact's family and revision). */
export const COMPANIONS: ReadonlySet<string> = new Set(["family", "revision"]);

/** Header parameters whose value is an answer's ETag. */
export const ETAG_HEADER = /^if-(none-)?match$/i;

/** The id kind of a member name, or null when the member is not an id. */
export function idKind(name: string): string | null {
  if (name === "idempotency_key") return null;
  const id = /(?:^|_)([a-z0-9]+_ids?)$/.exec(name);
  if (id) return id[1]!.replace(/_ids$/, "_id");
  if (name === "key" || name.endsWith("_key")) return name;
  return null;
}

/** The kind under which a member's values are collected: its id kind, or a companion's own name. */
export function valueKind(name: string): string | null {
  return idKind(name) ?? (COMPANIONS.has(name) ? name : null);
}

/** A value to be taken from an earlier answer, resolved on each side. */
export class AnswerRef {
  /**
   * @param request index (in the run) of the request whose answer holds the value
   * @param pointer JSON pointer into that answer's body, or `header:etag` for its ETag
   * @param kind the id kind (or companion name) for reports
   * @param fallback what is sent when the answer on a side does not hold the value
   */
  constructor(
    readonly request: number,
    readonly pointer: string,
    readonly kind: string,
    readonly fallback: unknown,
  ) {}

  /** How a reference reads in a report: `<answer 37 /items/2/artifact_id>`. */
  toJSON(): string {
    return `<answer ${this.request} ${this.pointer}>`;
  }
}

/** One side's answer as identity resolution needs it. */
export interface RecordedAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly etag: string | null;
  /** the strings the request carried on this side: an answer repeating one names no id of its own */
  readonly sent?: ReadonlySet<string>;
}

/** Every string in a value (the leaves of a request's parameters and body). */
export function stringsOf(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === "string") out.add(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, out);
  else if (isObject(value)) for (const item of Object.values(value)) stringsOf(item, out);
  return out;
}

/** The value a reference names on one side, or undefined when that side's answer lacks it. */
export function resolveRef(ref: AnswerRef, answers: readonly (RecordedAnswer | undefined)[]): unknown {
  const answer = answers[ref.request];
  if (answer === undefined || answer.status < 200 || answer.status >= 300) return undefined;
  if (ref.pointer === "header:etag") return answer.etag ?? undefined;
  const value = pointerGet(answer.body, ref.pointer);
  return value === null ? undefined : value;
}

/**
 * Replaces every reference in a request part by one side's value (its fallback when the
 * side's answer lacks it), and counts the references that fell back.
 */
export function resolveValue(
  value: unknown,
  answers: readonly (RecordedAnswer | undefined)[],
  missed: AnswerRef[],
): unknown {
  if (value instanceof AnswerRef) {
    const found = resolveRef(value, answers);
    if (found !== undefined) return found;
    missed.push(value);
    return value.fallback;
  }
  if (Array.isArray(value)) return value.map((item) => resolveValue(item, answers, missed));
  if (isObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveValue(v, answers, missed)]));
  return value;
}

/** One member of an answer object that names an id or a companion. */
export interface RecordMember {
  readonly pointer: string;
  /** the value on the side that recorded it (to check it fits the request's schema) */
  readonly value: string | number;
}

/** An object of an answer that holds at least one id, with its id and companion members. */
export interface IdRecord {
  readonly request: number;
  readonly members: ReadonlyMap<string, RecordMember>;
  /** the answer carried an ETag */
  readonly etag: boolean;
}

/** Where the walk of one answer is. */
interface Walk {
  readonly request: number;
  readonly etag: boolean;
  /**
   * true when the other side's answer holds a value of this type at this pointer (and, for
   * an id of `kind`, one that pairs with `value` as the earlier answers paired them)
   */
  readonly holds: (pointer: string, value: unknown, kind: string | null) => boolean;
  /** pairs the id of `kind` at this pointer with the other side's value there, once its record is kept */
  readonly pair: (pointer: string, value: unknown, kind: string) => void;
  /** true when the other side's object at this pointer is the same kind of thing (see {@link sameKind}) */
  readonly alike: (pointer: string, node: Readonly<Record<string, unknown>>) => boolean;
}

/** A short lowercase token: what a role, a state, an action or an event type reads like. */
const TOKEN = /^[a-z][a-z0-9_.:-]{0,63}$/;

/**
 * True when `theirs` is the same kind of thing as `ours`: every member `ours` holds as a
 * short lowercase token (a role, a state, an action, an event type; not an id or a key)
 * that `theirs` holds as a string has the same value there. Lists the two sides order
 * differently (an audit that records other events) would otherwise pair the id of one
 * thing with the id of another, and a later request would act on different records.
 */
export function sameKind(ours: Readonly<Record<string, unknown>>, theirs: unknown): boolean {
  if (!isObject(theirs)) return true;
  return Object.entries(ours).every(([name, value]) => {
    if (typeof value !== "string" || !TOKEN.test(value) || idKind(name) !== null || name.endsWith("_key")) return true;
    const other = (theirs as Record<string, unknown>)[name];
    return typeof other !== "string" || other === value;
  });
}

/**
 * The ids seen so far in 2xx answers, by kind and by distinct value, in the order they
 * were first seen. In a run, an id counts when both sides' answers hold one at the same
 * place: the release's value decides the draws, and a reference to it resolves on each
 * side (an id only one side holds would send the other a random one, and every later
 * request naming it would differ for that one earlier reason). A value an answer merely
 * repeats from its request (a random id echoed back) is no id the server holds, and is
 * left out. Feeding the same answers gives the same catalogue.
 *
 * The sides' ids pair one to one: the first place both hold an id of a kind pairs the
 * two values, and a later place that pairs either with another value is left out. A list
 * ordered by id (Scopes, a report's `scope_ids`) is ordered by values each side draws at
 * random, so the same place there can hold different things on the two sides; without
 * this, the release's default Scope could be paired with a Scope the run created on the
 * mock, and every later request naming it would act on different Scopes.
 */
export class Catalogue {
  readonly records: IdRecord[] = [];
  /** kind -> distinct value -> records holding it, both in first-seen order */
  readonly #byKind = new Map<string, Map<string, IdRecord[]>>();
  readonly #etags: number[] = [];
  /** kind -> the deciding side's id -> the other side's id it was first paired with, and back */
  readonly #pairs = new Map<string, { readonly ours: Map<string, string>; readonly theirs: Map<string, string> }>();

  /** True when `ours` and `theirs` (ids of `kind`) are each new to the pairing, or already paired with each other. */
  #pairable(kind: string, ours: string, theirs: string): boolean {
    const pairs = this.#pairs.get(kind);
    const [mate, back] = [pairs?.ours.get(ours), pairs?.theirs.get(theirs)];
    return mate === undefined && back === undefined ? true : mate === theirs && back === ours;
  }

  /** Pairs `ours` with `theirs` (ids of `kind`) for the answers to come. */
  #pair(kind: string, ours: string, theirs: string): void {
    const pairs = this.#pairs.get(kind) ?? { ours: new Map<string, string>(), theirs: new Map<string, string>() };
    this.#pairs.set(kind, pairs);
    pairs.ours.set(ours, theirs);
    pairs.theirs.set(theirs, ours);
  }

  /**
   * Records every id-holding object of the answer to request `request`.
   *
   * @param answer the answer whose values decide the draws (the release's)
   * @param other the other side's answer to the same request: only members it holds too
   *   (a value of the same JSON type at the same place) are recorded; omitted, all are
   */
  add(request: number, answer: RecordedAnswer, other?: RecordedAnswer): void {
    const success = (a: RecordedAnswer) => a.status >= 200 && a.status < 300;
    if (!success(answer) || (other !== undefined && !success(other))) return;
    const etag = answer.etag !== null && (other === undefined || other.etag !== null);
    if (etag) this.#etags.push(request);
    const echo = (a: RecordedAnswer, value: unknown) => typeof value === "string" && a.sent?.has(value) === true;
    const holds = (pointer: string, value: unknown, kind: string | null) => {
      if (echo(answer, value)) return false;
      if (other === undefined) return true;
      const theirs = pointerGet(other.body, pointer);
      if (typeof theirs !== typeof value || echo(other, theirs)) return false;
      return kind === null || typeof value !== "string" || this.#pairable(kind, value, theirs as string);
    };
    const pair = (pointer: string, value: unknown, kind: string) => {
      const theirs = other === undefined ? undefined : pointerGet(other.body, pointer);
      if (typeof value === "string" && typeof theirs === "string") this.#pair(kind, value, theirs);
    };
    const alike = (pointer: string, node: Readonly<Record<string, unknown>>) =>
      other === undefined || sameKind(node, pointer === "" ? other.body : pointerGet(other.body, pointer));
    this.walk({ request, etag, holds, pair, alike }, answer.body, "", 0);
  }

  private walk(at: Walk, node: unknown, pointer: string, depth: number): void {
    if (depth > 16) return;
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) this.walk(at, item, `${pointer}/${index}`, depth + 1);
      return;
    }
    if (!isObject(node)) return;
    const members = new Map<string, RecordMember>();
    const { request, etag, holds } = at;
    for (const [name, value] of Object.entries(node)) {
      const kind = idKind(name);
      const where = `${pointer}/${pointerStep(name)}`;
      if (kind !== null && name.endsWith("_ids") && Array.isArray(value)) {
        for (const [index, item] of value.entries()) {
          const member = { pointer: `${where}/${index}`, value: item };
          if (typeof item === "string" && item !== "" && holds(member.pointer, item, kind)) {
            at.pair(member.pointer, item, kind);
            this.keep({ request, members: new Map([[kind, member]]), etag });
          }
        }
      } else if ((kind !== null && typeof value === "string" && value !== "") || COMPANIONS.has(name)) {
        if ((typeof value === "string" || typeof value === "number") && holds(where, value, kind))
          members.set(name, { pointer: where, value });
      } else {
        this.walk(at, value, where, depth + 1);
      }
    }
    if ([...members.keys()].some((name) => idKind(name) !== null) && at.alike(pointer, node)) {
      for (const [name, member] of members) {
        const kind = idKind(name);
        if (kind !== null) at.pair(member.pointer, member.value, kind);
      }
      this.keep({ request, members, etag });
    }
  }

  private keep(record: IdRecord): void {
    this.records.push(record);
    for (const [name, member] of record.members) {
      const kind = valueKind(name);
      if (kind === null) continue;
      const values = this.#byKind.get(kind) ?? new Map<string, IdRecord[]>();
      this.#byKind.set(kind, values);
      const key = String(member.value);
      values.set(key, [...(values.get(key) ?? []), record]);
    }
  }

  /** The distinct values of a kind (an id kind or a companion) seen so far, in first-seen order. */
  values(kind: string): readonly string[] {
    return [...(this.#byKind.get(kind)?.keys() ?? [])];
  }

  /** The records that hold `value` as an id of `kind`. */
  recordsOf(kind: string, value: string): readonly IdRecord[] {
    return this.#byKind.get(kind)?.get(value) ?? [];
  }

  /** Requests whose answer carried an ETag. */
  etagAnswers(): readonly number[] {
    return this.#etags;
  }
}

/** The member of a record that answers for a request member: the same name first, else the same kind. */
export function memberFor(record: IdRecord, name: string): RecordMember | undefined {
  const exact = record.members.get(name);
  if (exact !== undefined) return exact;
  const kind = idKind(name);
  if (kind === null) return undefined;
  for (const [other, member] of record.members) if (idKind(other) === kind) return member;
  return undefined;
}
