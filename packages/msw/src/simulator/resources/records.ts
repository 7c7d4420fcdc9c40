import type { ContractResource, ContractResourceUse } from "../../contract/types.js";
import { isoTime } from "../clock.js";
import type { SeededRandom } from "../random.js";
import {
  copyJson,
  deletePath,
  emptyRecord,
  getPath,
  meetsWhen,
  setPath,
  stableJson,
  type JsonRecord,
} from "../members.js";
import { sha256Hex } from "../digest/sha256.js";

/**
 * How a stored record is made from a request and what the server adds to it,
 * all read from the resource's contract facts: request members are stored
 * under their own names (or where `from` puts them), minus the operation's
 * control members and header parameters; `set` adds constants, and `set_when`
 * those whose condition the request meets; the server
 * assigns the id, the version, the sequence number, the digests and the
 * times.
 */

/** The request members an operation stores, shaped as the record (no server-assigned member yet). */
export function recordFromRequest(
  use: ContractResourceUse,
  flat: JsonRecord,
  headerParameters: readonly string[],
): JsonRecord {
  const record = copyJson(flat);
  for (const name of [...use.controls, ...headerParameters]) deletePath(record, name);
  for (const { member, request } of use.from) {
    const value = getPath(flat, request);
    if (request !== member && !request.includes(".")) deletePath(record, request);
    if (value !== undefined) setPath(record, member, copyJson(value));
  }
  for (const [member, value] of Object.entries(use.set)) setPath(record, member, value);
  for (const { when, set } of use.setWhen)
    if (meetsWhen(flat, when)) for (const [member, value] of Object.entries(set)) setPath(record, member, value);
  return record;
}

/**
 * `record` (written from a request) with null for the members the server never stores
 * from one (the resource's `cleared`); a dotted member only where its parent object is.
 * Changes `record` in place and returns it.
 */
export function withoutCleared(resource: ContractResource, record: JsonRecord): JsonRecord {
  for (const member of resource.cleared) {
    const cut = member.lastIndexOf(".");
    const parent = cut === -1 ? record : getPath(record, member.slice(0, cut));
    if (typeof parent === "object" && parent !== null && !Array.isArray(parent)) setPath(record, member, null);
  }
  return record;
}

/** Server-side values of the records: ids, times and digests. */
export class ServerValues {
  constructor(
    private readonly random: SeededRandom,
    private readonly now: () => number,
  ) {}

  /** The clock's time as the release writes times (ISO 8601, UTC). */
  time(): string {
    return isoTime(this.now());
  }

  /** A fresh id `<prefix>_<32 hex digits>` from the seeded sequence. */
  id(prefix: string): string {
    let hex = "";
    while (hex.length < 32) hex += this.random.int(0x10000).toString(16).padStart(4, "0");
    return `${prefix}_${hex}`;
  }

  /**
   * Sets what a new record gets: its id (unless the request named it; never one
   * `taken` says is in use), version start, sequence number, digests and times.
   */
  created(
    resource: ContractResource,
    record: JsonRecord,
    sequence: () => number,
    taken: (id: string) => boolean = () => false,
  ): JsonRecord {
    const out = withInitial(resource, copyJson(record));
    if (getPath(out, resource.id) === undefined && resource.prefix !== null) {
      let id = this.id(resource.prefix);
      while (taken(id)) id = this.id(resource.prefix);
      setPath(out, resource.id, id);
    }
    if (resource.version !== null) setPath(out, resource.version.member, resource.version.start);
    if (resource.sequence !== null) setPath(out, resource.sequence, sequence());
    const time = isoTime(this.now());
    if (resource.created !== null) setPath(out, resource.created, time);
    if (resource.updated !== null) setPath(out, resource.updated, time);
    return withDigests(resource, out);
  }

  /** The next version of `current` with `changes` merged over it: version +1, update time (and a revision's own creation time), digests again. */
  changed(resource: ContractResource, current: JsonRecord, changes: JsonRecord): JsonRecord {
    const out = copyJson(current);
    const fixed = new Set([resource.id, ...resource.within.map((w) => w.member)]);
    for (const [member, value] of Object.entries(changes)) if (!fixed.has(member)) out[member] = copyJson(value);
    // A member inside an object (`target.artifact_id`) that is the record's id, a collection key or one of its
    // initial members stays, though a change replaced that object with one the request shaped.
    for (const member of [...fixed, ...Object.keys(resource.initial)]) {
      const kept = getPath(current, member);
      if (member.includes(".") && kept !== undefined && getPath(out, member) === undefined)
        setPath(out, member, copyJson(kept));
    }
    if (resource.version !== null)
      setPath(
        out,
        resource.version.member,
        Number(getPath(current, resource.version.member) ?? resource.version.start) + 1,
      );
    const time = isoTime(this.now());
    if (resource.updated !== null) setPath(out, resource.updated, time);
    if (resource.history && resource.created !== null) setPath(out, resource.created, time);
    return withDigests(resource, out);
  }
}

function withDigests(resource: ContractResource, record: JsonRecord): JsonRecord {
  for (const { member, of, object, bare } of resource.digests) {
    let text: string;
    if (object) {
      const digested: JsonRecord = {};
      for (const name of of) digested[name] = getPath(record, name) ?? null;
      text = stableJson(digested);
    } else {
      const value = getPath(record, of[0] as string);
      text = typeof value === "string" ? value : stableJson(value);
    }
    setPath(record, member, `${bare ? "" : "sha256:"}${sha256Hex(text)}`);
  }
  return record;
}

/** `record` over the resource's `initial` members: what it has that they do not name stays, what it lacks they give. */
function withInitial(resource: ContractResource, record: JsonRecord): JsonRecord {
  for (const [member, value] of Object.entries(resource.initial))
    if (getPath(record, member) === undefined) setPath(record, member, copyJson(value));
  return record;
}

/**
 * The record a resource has before any write made it: its identity (id and
 * collection keys), its `initial` members and the digests of those. A read
 * with `fresh` answers it for an unknown id, and a put under `If-Match`
 * compares with its ETag.
 */
export function freshRecord(resource: ContractResource, keys: readonly unknown[], id: unknown): JsonRecord {
  return withDigests(resource, withInitial(resource, identity(resource, keys, id)));
}

/** The record's ETag as sent (quoted), from the resource's template; null when it has none. */
export function etagOf(resource: ContractResource, record: JsonRecord): string | null {
  if (resource.etag === null) return null;
  return `"${resource.etag.replace(/\{([^}]+)\}/g, (_m, member: string) => {
    const value = getPath(record, member);
    return typeof value === "string" ? value : stableJson(value);
  })}"`;
}

/** A record holding only the members that identify it (id and collection keys), for reads that answer a fresh record. */
export function identity(resource: ContractResource, keys: readonly unknown[], id: unknown): JsonRecord {
  const out = emptyRecord();
  resource.within.forEach((w, index) => {
    setPath(out, w.member, keys[index]);
  });
  setPath(out, resource.id, id);
  return out;
}
