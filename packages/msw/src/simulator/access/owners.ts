import { contractResources } from "../../generated/contract.js";
import type { ContractResource } from "../../contract/types.js";
import { getPath, stableJson, type JsonRecord } from "../members.js";
import type { ResourceWriter } from "../resources/writer.js";
import { accessFacts } from "./facts.js";

/**
 * Who owns what: the release's owner relation, which no binding grants. A record
 * of a resource the policy lists as `owned` belongs to the principal whose request
 * created it (the first version; later versions keep the owner). An operation with
 * `x-powercontext-access-owner: { inherit: R }` hands its new records to the owner
 * of the record of R it changes instead (an approved Candidate's Artifact belongs to
 * the Candidate's proposer). Records written without a request (the default Scope,
 * background work) have no owner, and neither has a record the store never held.
 */

/** A principal as the owner relation names it: `type:id`. */
export type PrincipalKey = string;

/** A record an owner holds: its collection's keys and its id. */
export interface OwnedRecord {
  readonly keys: readonly unknown[];
  readonly id: unknown;
}

/** The owner relation over the resource writer. */
export class OwnerLedger {
  readonly #owners = new Map<string, PrincipalKey>();
  /** What each owner holds, per resource, by the record's key. */
  readonly #held = new Map<PrincipalKey, Map<string, Map<string, OwnedRecord>>>();
  #acting: PrincipalKey | null = null;
  #inherit: string | null = null;

  /** Registers the ledger's hooks on `writer` for every owned resource (before any domain hook). */
  constructor(writer: ResourceWriter) {
    for (const name of accessFacts.policy.owned) {
      const resource = contractResources[name] as ContractResource;
      writer.onWrite(name, {
        before: (record, context) => {
          // The record an inheriting operation changes passes its owner to what the write creates.
          if (context.previous !== null && name === this.#inherit)
            this.#acting =
              this.#owners.get(key(resource, context.keys, getPath(context.previous, resource.id))) ?? null;
          return record;
        },
        after: (record, context) => {
          const id = getPath(record, resource.id);
          const at = key(resource, context.keys, id);
          if (context.previous !== null || this.#acting === null || this.#owners.has(at)) return;
          this.#owners.set(at, this.#acting);
          const byResource = this.#held.get(this.#acting) ?? new Map<string, Map<string, OwnedRecord>>();
          this.#held.set(this.#acting, byResource);
          const held = byResource.get(name) ?? new Map<string, OwnedRecord>();
          byResource.set(name, held);
          held.set(at, { keys: [...context.keys], id });
        },
      });
    }
  }

  /**
   * Starts a request: what it creates belongs to `caller` (null: to no one), or, for
   * an operation that inherits, to the owner of the record of `inherit` it changes.
   */
  begin(caller: PrincipalKey | null, inherit: string | null = null): void {
    this.#acting = caller;
    this.#inherit = inherit;
  }

  /** The owner of record `id` of `name` in the collection `keys`, or null. */
  ownerOf(name: string, keys: readonly unknown[], id: unknown): PrincipalKey | null {
    const resource = contractResources[name] as ContractResource | undefined;
    return resource === undefined ? null : (this.#owners.get(key(resource, keys, id)) ?? null);
  }

  /** The records of `name` that `owner` owns, in the order it came to own them. */
  ownedBy(owner: PrincipalKey, name: string): OwnedRecord[] {
    return [...(this.#held.get(owner)?.get(name)?.values() ?? [])];
  }
}

function key(resource: ContractResource, keys: readonly unknown[], id: unknown): string {
  return `${resource.name}\u0000${stableJson(keys)}\u0000${stableJson(id)}`;
}

/** The owner relation's key of a principal as the wire names it. */
export function principalKey(principal: JsonRecord | { readonly type: string; readonly id: string }): PrincipalKey {
  return `${String(principal.type)}:${String(principal.id)}`;
}
