import { contractOperations, contractResources } from "../../generated/contract.js";
import type { ContractRefusal, ContractResource, ContractResourceUse } from "../../contract/types.js";
import { noneMatch } from "../contract/conditional.js";
import { headerValue, flatRequest } from "../contract/request-check.js";
import type { SimOperation } from "../contract/operation-table.js";
import type { HandlerResult, SimRequest } from "../types.js";
import { withDefaults } from "./defaults.js";
import { atPointer, copyJson, deletePath, getPath, placeAt, setPath, stableJson, type JsonRecord } from "../members.js";
import { newestFirst, versionOf, type ListSource } from "./list-order.js";
import { joinedView } from "./joins.js";
import { checkCursor, listPage } from "./pages.js";
import { cursorKey } from "./cursor.js";
import { shaped } from "./project.js";
import { etagOf, freshRecord, recordFromRequest, type ServerValues, withoutCleared } from "./records.js";
import { refuse } from "./refusals.js";
import type { ResourceStore, StoredRecord } from "./store.js";
import { identityOf, type ResourceWriter, type WriteCause } from "./writer.js";

/**
 * The one generic engine behind every operation that declares
 * `x-powercontext-resource`: create, read, list, change, put (create or
 * change), remove, and the revisions of a resource that keeps them, over the
 * records of {@link ResourceStore}. Everything that differs per resource or
 * per operation (ids, collection keys, versions, ETags, refusals, filters,
 * paging) comes from the generated contract facts; no operation is named
 * here. Bodies are the stored record shaped by the operation's response
 * schema (`project.ts`).
 */

/** What the engine reads and writes. */
export interface EngineDeps {
  readonly store: ResourceStore;
  readonly writer: ResourceWriter;
  readonly values: ServerValues;
  /** Seed of sampled members a record does not have. */
  readonly seed: number;
}

/** One request as the engine sees it: the operation's facts and the flat request. */
interface Call {
  readonly op: SimOperation;
  /** The request's operationId and its caller's Principal as the wire names it (`stamp: caller`); null when unknown. */
  readonly cause: WriteCause | null;
  readonly use: ContractResourceUse;
  readonly resource: ContractResource;
  readonly flat: JsonRecord;
  readonly request: SimRequest;
  readonly keys: readonly unknown[];
}

/** The engine: `handle` answers one request of a resource operation. */
export class ResourceEngine {
  /** Seals the cursors of every list (`cursor.ts`). */
  readonly #cursorKey: string;

  constructor(private readonly deps: EngineDeps) {
    this.#cursorKey = cursorKey(deps.seed);
  }

  /** True when `op` declares a resource use the engine answers. */
  serves(op: SimOperation): boolean {
    return op.resource !== null;
  }

  /**
   * Answers one request (credentials, validation and access already passed);
   * `cause` names its operationId and its caller's Principal as the wire names it.
   * @throws SimError the resource's refusals: not found, stale version or ETag, idempotency conflicts, bad cursors
   */
  handle(op: SimOperation, request: SimRequest, cause: WriteCause | null = null): HandlerResult {
    const use = op.resource as ContractResourceUse;
    const resource = contractResources[use.name] as ContractResource;
    const raw = flatRequest(op, request);
    const flat = (typeof raw === "object" && raw !== null && !Array.isArray(raw) ? raw : {}) as JsonRecord;
    const keys = resource.within.map((w) => this.#value(use, flat, w.member));
    const call: Call = { op, cause, use, resource, flat, request, keys };
    if (use.action === "list" || use.action === "revisions") checkCursor(use, flat, this.#cursorKey);
    this.#checkParents(call);
    if (!(use.requiresLast && use.action === "change")) this.#checkRequires(call);
    switch (use.action) {
      case "create":
        return this.#create(call);
      case "read":
        return this.#read(call);
      case "list":
        return this.#list(
          call,
          this.deps.store.ordered(resource.name, keys, { member: resource.order ?? resource.id, id: resource.id }),
          false,
        );
      case "revisions":
        return this.#list(
          call,
          newestFirst(this.#versions(call), { member: resource.version?.member ?? resource.id, id: resource.id }),
          true,
        );
      case "revision":
        return this.#revision(call);
      case "change":
        return this.#change(call, this.#find(call));
      case "put":
        return this.#put(call);
      case "remove":
        return this.#remove(call);
    }
  }

  /** The request's value for a record member (through `from` when the operation maps it). */
  #value(use: ContractResourceUse, flat: JsonRecord, member: string): unknown {
    const mapped = use.from.find((f) => f.member === member);
    return getPath(flat, mapped?.request ?? member);
  }

  /** Each `within` member that names another resource must name one of its records (the anchor is checked before, by `anchor.ts`). */
  #checkParents(call: Call): void {
    call.resource.within.forEach((w, index) => {
      if (w.resource !== null && !(contractResources[w.resource] as ContractResource).anchor)
        this.#locate(w.resource, call.flat, call.keys[index], null);
    });
  }

  #checkRequires(call: Call): void {
    for (const { request, resource } of call.use.requires) {
      const value = getPath(call.flat, request);
      if (value !== undefined && value !== null) this.#locate(resource, call.flat, value, request);
    }
  }

  /** The record `id` of `name`, its collection keys read from the request; a version member the request also names must be one of its versions. */
  #locate(name: string, flat: JsonRecord, id: unknown, via: string | null): StoredRecord {
    const resource = contractResources[name] as ContractResource;
    const keys = resource.within.map((w) => getPath(flat, w.member));
    const found = this.deps.store.find(resource.name, keys, id);
    if (found === undefined) throw refuse(resource.notFound);
    const version = resource.version?.member;
    const wanted = via !== null && version !== undefined ? getPath(flat, version) : undefined;
    if (
      wanted !== undefined &&
      versionOf(this.deps.store.versionsOf(resource.name, keys, id) ?? [], version as string, wanted) === undefined
    )
      throw refuse(resource.notFound);
    return found;
  }

  /** The versions of the request's record, oldest first, read in place (never to be changed). */
  #versions(call: Call): readonly JsonRecord[] {
    const { resource, keys, use, flat } = call;
    const versions = this.deps.store.versionsOf(resource.name, keys, this.#value(use, flat, resource.id));
    if (versions === undefined) throw refuse(use.notFound ?? resource.notFound);
    return versions;
  }

  #find(call: Call): StoredRecord {
    const found = this.deps.store.find(
      call.resource.name,
      call.keys,
      this.#value(call.use, call.flat, call.resource.id),
    );
    if (found === undefined) throw refuse(call.use.notFound ?? call.resource.notFound);
    return found;
  }

  #create(call: Call): HandlerResult {
    const { use, resource, flat, keys, op } = call;
    const { store, values } = this.deps;
    const origin = withoutCleared(
      resource,
      recordFromRequest(
        use,
        flat,
        op.parameters.header.map((p) => p.name),
      ),
    );
    // Compared as the release compares requests: with the members left out at their defaults.
    const originText = stableJson(recordFromRequest(use, withDefaults(op, flat), headerNames(op)));
    const replayed = this.#replayed(call, resource.name, this.#createdStatus(op));
    if (replayed !== null) return replayed;
    // A singleton's creation names the fixed id its member selects, or takes it from the request
    // member the selector names (own keys only: never a prototype member).
    const fixed = use.fixedId === null ? undefined : fixedIdOf(use.fixedId, flat);
    if (fixed !== undefined) {
      if (store.find(resource.name, keys, fixed.id) !== undefined) throw refuse(fixed.conflict);
      setPath(origin, resource.id, fixed.id);
    }
    const id = getPath(origin, resource.id);
    if (id !== undefined) {
      const existing = store.find(resource.name, keys, id);
      if (existing !== undefined) {
        if (use.replay === null || existing.origin !== originText)
          throw refuse(use.replay?.conflict ?? { status: 409, code: "idempotency_conflict", details: null });
        return this.#respond(call, existing.current, this.#createdStatus(op));
      }
    }
    this.deps.writer.check(resource, keys, null, () => ({ ...origin, ...identityOf(resource, keys) }));
    const record = values.created(
      resource,
      { ...origin, ...this.#stamps(call), ...identityOf(resource, keys) },
      () => store.nextSequence(resource.name, keys),
      (taken) => store.has(resource.name, keys, taken),
    );
    const stored = this.deps.writer.write(resource, keys, record, {
      previous: null,
      origin: originText,
      quiet: false,
      ...(call.cause === null ? {} : { cause: call.cause }),
    });
    this.#remember(call, resource.name, stored);
    return this.#respond(call, stored, this.#createdStatus(op));
  }

  #read(call: Call): HandlerResult {
    const { use, resource, keys, flat } = call;
    const id = this.#value(use, flat, resource.id);
    const found = this.deps.store.find(resource.name, keys, id);
    if (found === undefined && !use.fresh) throw refuse(use.notFound ?? resource.notFound);
    if (found !== undefined) this.#checkRepeated(call, found.current);
    const record = found?.current ?? this.#fresh(call);
    const etag = etagOf(resource, record);
    if (etag !== null && call.op.responses.some((r) => r.status === 304) && noneMatch(call.request.headers, etag)) {
      return { status: 304, body: null, headers: { ETag: etag } };
    }
    return this.#respond(call, record, this.#plainStatus(call.op));
  }

  #revision(call: Call): HandlerResult {
    const member = call.resource.version?.member as string;
    const version = versionOf(this.#versions(call), member, getPath(call.flat, member));
    if (version === undefined) throw refuse(call.use.notFound ?? call.resource.notFound);
    return this.#respond(call, version, this.#plainStatus(call.op));
  }

  #list(call: Call, source: ListSource, newest: boolean): HandlerResult {
    // A list's `set` constants are what it lists every record as (scopes listed as Access resources of type scope).
    const constants = Object.entries(call.use.set);
    const view =
      constants.length === 0
        ? undefined
        : (record: JsonRecord) => {
            const listed = copyJson(record);
            for (const [member, value] of constants) setPath(listed, member, value);
            return listed;
          };
    const joined = joinedView(call.use, call.resource.id, this.deps.store);
    const { page, next } = listPage(call.use, call.resource, call.flat, source, newest, this.#cursorKey, view, joined);
    const body: JsonRecord = {};
    body[call.use.items as string] = page.map((record) => placeAt(call.use.recordAt, record));
    if (call.use.page !== null) body[call.use.page.nextCursor] = next;
    return this.#answer(call, body, this.#plainStatus(call.op), {});
  }

  #change(call: Call, found: StoredRecord): HandlerResult {
    const replayed = this.#replayed(call, changeKeys(call), this.#plainStatus(call.op));
    if (replayed !== null) return replayed;
    const terminal = call.use.terminal;
    const state = terminal === null ? undefined : getPath(found.current, terminal.member);
    if (terminal?.values.includes(state as never)) {
      // A request `keep` names leaves the final record as it is (from the final states it lists), and is answered with it.
      const keep = terminal.keep;
      if (
        keep?.values.includes(getPath(call.flat, keep.request) as never) &&
        (keep.states.length === 0 || keep.states.includes(state as never))
      )
        return this.#respond(call, found.current, this.#plainStatus(call.op));
      throw refuse(terminal.refusal, terminal.details, { current: state });
    }
    this.#checkPreconditions(call, found.current);
    if (call.use.requiresLast) this.#checkRequires(call);
    const { resource, keys, use, flat, op } = call;
    // A replacement stores what the request leaves out at its defaults; a change merges the request over the record.
    const changes = {
      ...recordFromRequest(use, use.replace ? withDefaults(op, flat) : flat, headerNames(op)),
      ...this.#stamps(call),
    };
    this.deps.writer.check(resource, keys, found.current, () => ({ ...found.current, ...changes }));
    const next = this.deps.values.changed(resource, found.current, changes);
    const version = resource.version?.member;
    if (use.sameVersion && version !== undefined) setPath(next, version, getPath(found.current, version));
    const stored = this.deps.writer.write(resource, keys, next, {
      previous: found.current,
      origin: "",
      quiet: false,
      ...(call.cause === null ? {} : { cause: call.cause }),
    });
    this.#remember(call, changeKeys(call), stored);
    return this.#respond(call, stored, this.#plainStatus(op));
  }

  /**
   * The answer again when the request's idempotency key (`idempotency`) was used
   * before under `keysOf` (a resource's creations, or one changing operation):
   * the key's record as it stands, with `status`; the same key with another request
   * is the conflict. Null when the operation is not keyed, the key is new, or its
   * record is gone.
   */
  #replayed(call: Call, keysOf: string, status: number): HandlerResult | null {
    const { use, resource, flat } = call;
    if (use.idempotency === null) return null;
    const earlier = this.deps.store.keyUse(keysOf, getPath(flat, use.idempotency.request));
    if (earlier === undefined) return null;
    if (earlier.request !== stableJson(withDefaults(call.op, flat))) throw refuse(use.idempotency.conflict);
    const record = this.deps.store.find(resource.name, earlier.keys, earlier.id);
    return record === undefined ? null : this.#respond(call, record.current, status);
  }

  /** Records the first use of the request's idempotency key under `keysOf`, for the record `stored`. */
  #remember(call: Call, keysOf: string, stored: JsonRecord): void {
    const { use, resource, flat, keys } = call;
    if (use.idempotency === null) return;
    this.deps.store.rememberKey(keysOf, getPath(flat, use.idempotency.request), {
      request: stableJson(withDefaults(call.op, flat)),
      keys,
      id: getPath(stored, resource.id),
    });
  }

  #put(call: Call): HandlerResult {
    const { resource, keys, use, flat } = call;
    const found = this.deps.store.find(resource.name, keys, this.#value(use, flat, resource.id));
    if (found !== undefined) {
      this.#checkRepeated(call, found.current);
      return this.#change(call, found);
    }
    // No write made the record yet: an If-Match (or an expectation on a member) names the fresh record a read answers.
    if (use.ifMatch !== null || use.expect?.member != null) this.#checkPreconditions(call, this.#fresh(call));
    if (use.expect !== null && use.expect.member === null && getPath(flat, use.expect.request) !== use.expect.absent) {
      throw refuse(use.expect.conflict, use.expect.details, {
        expected: getPath(flat, use.expect.request),
        current: use.expect.absent,
      });
    }
    return this.#create(call);
  }

  #remove(call: Call): HandlerResult {
    const { resource, keys, use, flat } = call;
    const found = this.deps.store.find(resource.name, keys, this.#value(use, flat, resource.id));
    if (found === undefined) {
      if (use.flag === null) throw refuse(use.notFound ?? resource.notFound);
      return this.#answer(call, { [use.flag]: false }, this.#plainStatus(call.op), {});
    }
    if (Object.keys(use.set).length > 0) return this.#change(call, found);
    this.#checkPreconditions(call, found.current);
    this.deps.store.remove(resource.name, keys, getPath(found.current, resource.id));
    if (use.flag !== null) return this.#answer(call, { [use.flag]: true }, this.#plainStatus(call.op), {});
    return this.#respond(call, found.current, this.#plainStatus(call.op));
  }

  /** The record a read of an id no write made answers: its identity and `initial`, with the members the request must `repeat`. */
  #fresh(call: Call): JsonRecord {
    const { resource, keys, use, flat } = call;
    const record = freshRecord(resource, keys, this.#value(use, flat, resource.id));
    for (const member of use.repeat?.members ?? []) setPath(record, member, copyJson(this.#value(use, flat, member)));
    return record;
  }

  /** `repeat`: a stored record's members the request must name again as they are. */
  #checkRepeated(call: Call, current: JsonRecord): void {
    const repeat = call.use.repeat;
    if (repeat === null) return;
    for (const member of repeat.members)
      if (stableJson(getPath(current, member) ?? null) !== stableJson(this.#value(call.use, call.flat, member) ?? null))
        throw refuse(repeat.conflict);
  }

  /** `expect` against the version member (or the expectation's own `member`) and `if_match` against the ETag. */
  #checkPreconditions(call: Call, current: JsonRecord): void {
    const { use, resource, flat, request } = call;
    if (use.expect !== null) {
      const expected = getPath(flat, use.expect.request);
      const actual = getPath(current, use.expect.member ?? resource.version?.member ?? "");
      const same = use.expect.member === null ? expected === actual : stableJson(expected) === stableJson(actual);
      if (!same) throw refuse(use.expect.conflict, use.expect.details, { expected, current: actual });
    }
    if (use.ifMatch !== null) {
      const provided = headerValue(request.headers, "If-Match");
      const etag = etagOf(resource, current);
      if (provided === undefined && use.ifMatch.missing !== null) throw refuse(use.ifMatch.missing);
      if (provided !== etag)
        throw refuse(use.ifMatch.stale, use.ifMatch.details, { provided: provided ?? null, current: etag });
    }
  }

  /** The members `stamp` sets at this write: the clock's time or the caller. */
  #stamps(call: Call): JsonRecord {
    const out: JsonRecord = {};
    for (const { member, value } of call.use.stamp)
      setPath(out, member, value === "now" ? this.deps.values.time() : copyJson(call.cause?.caller ?? null));
    return out;
  }

  /** The record shaped into the success body, with its ETag and, for a creation, the `Location` of its read. */
  #respond(call: Call, record: JsonRecord, status: number): HandlerResult {
    const headers: Record<string, string> = {};
    const declared = call.op.responses.find((r) => r.status === status);
    const etag = etagOf(call.resource, record);
    if (etag !== null && declared?.headers.some((h) => h.toLowerCase() === "etag")) headers.ETag = etag;
    if (declared?.headers.some((h) => h.toLowerCase() === "location")) {
      const location = locationOf(call.resource, record);
      if (location !== null) headers.Location = location;
    }
    const answered = call.use.answerMember === null ? record : getPath(record, call.use.answerMember);
    const answer = this.#answer(call, placeAt(call.use.recordAt, answered), status, headers);
    const omit = call.use.omit;
    if (omit === null || answer.body === null || typeof answer.body !== "object") return answer;
    const { unlessHeader } = omit;
    if (unlessHeader !== null && headerValue(call.request.headers, unlessHeader.name) === unlessHeader.value)
      return answer;
    const body = answer.body as JsonRecord;
    const at = atPointer(body, call.use.recordAt);
    if (typeof at === "object" && at !== null) for (const member of omit.members) deletePath(at as JsonRecord, member);
    return answer;
  }

  #answer(call: Call, value: unknown, status: number, headers: Record<string, string>): HandlerResult {
    return shaped(call.op, { status, body: copyJson(value), headers }, this.deps.seed);
  }

  #plainStatus(op: SimOperation): number {
    return op.successStatuses.find((s) => s !== op.acceptedStatus) ?? (op.successStatuses[0] as number);
  }

  #createdStatus(op: SimOperation): number {
    return op.successStatuses.find((s) => s === 201) ?? this.#plainStatus(op);
  }
}

/** The path of the resource's read operation with the record's members filled in, or null when it has none. */
function locationOf(resource: ContractResource, record: JsonRecord): string | null {
  const read = Object.values(contractOperations).find(
    (op) => op.resource?.name === resource.name && op.resource.action === "read",
  );
  if (read === undefined) return null;
  let missing = false;
  const path = read.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const value = getPath(record, name);
    if (value === undefined || value === null) missing = true;
    return encodeURIComponent(String(value));
  });
  return missing ? null : path;
}

/** The operation's header parameters, which a record never stores. */
function headerNames(op: SimOperation): string[] {
  return op.parameters.header.map((p) => p.name);
}

/** The store's name for the idempotency keys of one changing operation of a resource. */
function changeKeys(call: Call): string {
  return `${call.resource.name} ${call.op.method} ${call.op.path}`;
}

/**
 * The fixed id a creation names (`fixed_id`): the one its selector member picks, or the request member it
 * names, with the refusal of a second creation (the selector's own `conflicts` entry, else `conflict`);
 * else undefined.
 */
function fixedIdOf(
  fixedId: NonNullable<ContractResourceUse["fixedId"]>,
  flat: unknown,
): { readonly id: string; readonly conflict: ContractRefusal } | undefined {
  const selector = getPath(flat, fixedId.member);
  if (typeof selector !== "string") return undefined;
  const named = Object.hasOwn(fixedId.idMembers, selector)
    ? getPath(flat, fixedId.idMembers[selector] as string)
    : undefined;
  const id = Object.hasOwn(fixedId.ids, selector) ? fixedId.ids[selector] : named;
  if (typeof id !== "string") return undefined;
  return {
    id,
    conflict: Object.hasOwn(fixedId.conflicts, selector)
      ? (fixedId.conflicts[selector] as ContractRefusal)
      : fixedId.conflict,
  };
}
