import { contractResources } from "../../generated/contract.js";
import type { ContractResource } from "../../contract/types.js";
import { copyJson, getPath, type JsonRecord } from "../members.js";
import type { ServerValues } from "./records.js";
import type { ResourceStore } from "./store.js";

/**
 * Stores resource records the way the release writes them: server-assigned
 * members first (ids, versions, sequence numbers, digests, times), then the
 * domain's write hooks. The generic engine writes through it when it answers
 * a request; the domain modules (Sources, Atomic Memory, Artifact lineage)
 * write through it too, so every write of a resource runs the same hooks.
 */

/** What the writer reads and writes. */
export interface WriterDeps {
  readonly store: ResourceStore;
  readonly values: ServerValues;
  /** Server values of writes the clock decides (a flush's extraction), from a sequence of their own. */
  readonly background: ServerValues;
}

/** What a write hook learns besides the record. */
export interface WriteContext {
  /** The collection keys of the record. */
  readonly keys: readonly unknown[];
  /** The version being replaced, or null for a new record. */
  readonly previous: JsonRecord | null;
  /** The write is bookkeeping of another domain write: hooks add no further records (no journal entry). */
  readonly quiet: boolean;
  /** The request behind the write, when one is: its operation and its caller's Principal as the wire names it. */
  readonly cause?: WriteCause;
}

/** The request a write answers: its operationId, its caller (null when anonymous) and its request id. */
export interface WriteCause {
  readonly operation: string;
  readonly caller: JsonRecord | null;
  /** The request id the answer carries (`X-PowerContext-Request-ID`), when known. */
  readonly requestId?: string;
}

/** Options of {@link ResourceWriter.insert}. */
export interface InsertOptions {
  /** The stable text a replay is compared with (see `StoredRecord.origin`). */
  readonly origin?: string;
  /** See {@link WriteContext.quiet}. */
  readonly quiet?: boolean;
  /**
   * The write happens when the clock decides, not when a request asks (a
   * flush's extraction): its ids come from their own seeded sequence, so the
   * ids requests get do not depend on timing.
   */
  readonly background?: boolean;
  /** See {@link WriteContext.cause}. */
  readonly cause?: WriteCause;
  /**
   * The server values of a domain's own records (a seeded sequence of their
   * own), so that records a domain adds beside a request do not move the ids
   * requests get; overrides `background`.
   */
  readonly values?: ServerValues;
}

/**
 * Domain behaviour around the writes of one resource: `check` may refuse the
 * write (it runs on the members written, before any server-assigned value is
 * drawn and before any hook stores anything), `before` shapes the record about
 * to be stored (and may store other records), `after` sees the stored record.
 * Hooks are registered by the domain modules, keyed by the resource's name in
 * `x-powercontext-resources`.
 */
export interface WriteHooks {
  readonly check?: (record: JsonRecord, context: Pick<WriteContext, "keys" | "previous">) => void;
  readonly before?: (record: JsonRecord, context: WriteContext) => JsonRecord;
  readonly after?: (record: JsonRecord, context: WriteContext) => void;
}

/** The writer of every resource record. */
export class ResourceWriter {
  readonly #hooks = new Map<string, WriteHooks[]>();

  constructor(private readonly deps: WriterDeps) {}

  /** Keeps only the newest `keep` records of a collection of `name` ({@link ResourceStore.dropOldest}). */
  dropOldest(name: string, keys: readonly unknown[], keep: number): void {
    this.deps.store.dropOldest(name, keys, keep);
  }

  /** Adds domain hooks around the writes of resource `name`. */
  onWrite(name: string, hooks: WriteHooks): void {
    this.#hooks.set(name, [...(this.#hooks.get(name) ?? []), hooks]);
  }

  /**
   * Stores a new record of `name` the way a creation does (server-assigned
   * members, then the write hooks), for domain modules.
   * @returns the stored record
   */
  insert(name: string, keys: readonly unknown[], fields: JsonRecord, options: InsertOptions = {}): JsonRecord {
    const resource = contractResources[name] as ContractResource;
    this.check(resource, keys, null, () => ({ ...fields, ...identityOf(resource, keys) }));
    const values = options.values ?? (options.background === true ? this.deps.background : this.deps.values);
    const record = values.created(
      resource,
      { ...fields, ...identityOf(resource, keys) },
      () => this.deps.store.nextSequence(resource.name, keys),
      (id) => this.deps.store.has(resource.name, keys, id),
    );
    return this.write(resource, keys, record, {
      previous: null,
      origin: options.origin ?? "",
      quiet: options.quiet ?? false,
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
  }

  /**
   * Stores the next version of a record with `changes` merged over it (version
   * +1, then the write hooks), for domain modules; `quiet` as for {@link insert}.
   * @returns the stored record
   */
  update(
    name: string,
    keys: readonly unknown[],
    current: JsonRecord,
    changes: JsonRecord,
    options: { readonly quiet?: boolean } = {},
  ): JsonRecord {
    const resource = contractResources[name] as ContractResource;
    this.check(resource, keys, current, () => ({ ...current, ...changes }));
    return this.write(resource, keys, this.deps.values.changed(resource, current, changes), {
      previous: current,
      origin: "",
      quiet: options.quiet ?? false,
    });
  }

  /**
   * Runs the `check` hooks of `resource` on the members about to be written (the new
   * record's, or the next version's: `members`, built only when a hook checks), before any
   * value is drawn for it: {@link insert} and {@link update} call it, and so must a caller
   * of {@link write}.
   * @throws what a check throws
   */
  check(
    resource: ContractResource,
    keys: readonly unknown[],
    previous: JsonRecord | null,
    members: () => JsonRecord,
  ): void {
    const checks = (this.#hooks.get(resource.name) ?? []).filter((hooks) => hooks.check !== undefined);
    if (checks.length === 0) return;
    const record = members();
    for (const hooks of checks) hooks.check?.(record, { keys, previous });
  }

  /** The current version of record `id` of `name`, or undefined. */
  find(name: string, keys: readonly unknown[], id: unknown): JsonRecord | undefined {
    return this.deps.store.find(name, keys, id)?.current;
  }

  /** The versions of record `id` of `name`, oldest first (never to be changed), or undefined. */
  versions(name: string, keys: readonly unknown[], id: unknown): readonly JsonRecord[] | undefined {
    return this.deps.store.versionsOf(name, keys, id);
  }

  /** Every current record of a collection of `name`, in insertion order. */
  records(name: string, keys: readonly unknown[]): JsonRecord[] {
    return this.deps.store.records(name, keys).map((r) => r.current);
  }

  /**
   * Stores `changes` over a record as it is, for domain bookkeeping: no new
   * version, no hooks, and its earlier versions stay readable.
   */
  revise(name: string, keys: readonly unknown[], current: JsonRecord, changes: JsonRecord): JsonRecord {
    const resource = contractResources[name] as ContractResource;
    return this.deps.store.amend(name, keys, getPath(current, resource.id), { ...current, ...changes }).current;
  }

  /**
   * Stores `record` between the hooks (a new record when `write.previous` is null), once
   * {@link check} has passed. @returns the stored record
   */
  write(
    resource: ContractResource,
    keys: readonly unknown[],
    record: JsonRecord,
    write: { previous: JsonRecord | null; origin: string; quiet: boolean; cause?: WriteCause },
  ): JsonRecord {
    const hooks = this.#hooks.get(resource.name) ?? [];
    const { previous, origin, quiet } = write;
    const context: WriteContext = {
      keys,
      previous,
      quiet,
      ...(write.cause === undefined ? {} : { cause: write.cause }),
    };
    const shapedRecord = hooks.reduce((r, h) => (h.before === undefined ? r : h.before(r, context)), record);
    const id = getPath(shapedRecord, resource.id);
    const stored =
      previous === null
        ? this.deps.store.insert(resource.name, keys, id, shapedRecord, origin).current
        : this.deps.store.update(resource.name, keys, id, shapedRecord, resource.history).current;
    for (const h of hooks) h.after?.(copyJson(stored), context);
    return stored;
  }
}

/** The `within` members of a record, from its collection keys. */
export function identityOf(resource: ContractResource, keys: readonly unknown[]): JsonRecord {
  const out: JsonRecord = {};
  resource.within.forEach((w, index) => {
    if (keys[index] !== undefined) out[w.member] = keys[index];
  });
  return out;
}
