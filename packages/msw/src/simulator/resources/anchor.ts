import { contractResources } from "../../generated/contract.js";
import type { ContractResource } from "../../contract/types.js";
import type { SimOperation } from "../contract/operation-table.js";
import { getPath, type JsonRecord } from "../members.js";
import { refuse } from "./refusals.js";
import type { ResourceStore } from "./store.js";

/**
 * The anchor check: before an operation runs, every record of the anchor
 * resource (the Scope) its request names must exist, else the resource's
 * `not_found` (`404 scope_not_found`), as the release looks the Scope up
 * first. Where the request names it comes from the contract
 * (`ContractOperation.anchor`); a path ending in `[]` names a list of ids.
 * {@link checkAnchorFirst} is the lookup the release makes before its handler
 * runs (the anchor's `first` member).
 */

/** @throws SimError the anchor resource's `not_found` for a named record that does not exist */
export function checkAnchor(op: SimOperation, flat: unknown, store: ResourceStore): void {
  if (op.anchor === null || typeof flat !== "object" || flat === null) return;
  const resource = contractResources[op.anchor.resource] as ContractResource;
  for (const path of op.anchor.requests) {
    const value = getPath(flat as JsonRecord, path.replace(/\[\]$/, ""));
    const ids = path.endsWith("[]") ? (Array.isArray(value) ? value : []) : [value];
    for (const id of ids) {
      if (typeof id === "string" && !store.has(resource.name, [], id)) throw refuse(resource.notFound);
    }
  }
}

/**
 * The lookup the release makes once the request is validated and access decided,
 * before its handler checks anything: the anchor's `first` member (the Scope of an
 * operation whose body names it, `x-powercontext-scope-mode: current`).
 * @throws SimError the anchor resource's `not_found` when that record does not exist
 */
export function checkAnchorFirst(op: SimOperation, flat: unknown, store: ResourceStore): void {
  const first = op.anchor?.first ?? null;
  if (first === null || op.anchor === null || typeof flat !== "object" || flat === null) return;
  const resource = contractResources[op.anchor.resource] as ContractResource;
  const id = getPath(flat as JsonRecord, first);
  if (typeof id === "string" && !store.has(resource.name, [], id)) throw refuse(resource.notFound);
}
