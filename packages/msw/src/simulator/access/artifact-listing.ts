import { contractResources } from "../../generated/contract.js";
import type { ContractResource } from "../../contract/types.js";
import { getPath } from "../members.js";
import type { ResourceStore } from "../resources/store.js";
import type { Principal } from "./principals.js";
import { type AccessControl, accessRefusal } from "./decide.js";
import { accessFacts } from "./facts.js";
import { AccessInvalid, type Target } from "./resolve.js";
import { resourceKey } from "./resource-keys.js";
import { validateTarget } from "./targets.js";

/**
 * The Artifacts `list_access_resources` shows a principal for an action (and a family,
 * when the request names one), as the release's built-in provider filters them and its
 * server finds them:
 * - **Named exactly.** Each Artifact a binding of the principal is on, when the binding's
 *   role takes the action; and, when the owner role takes it, each Artifact the principal
 *   owns (of a family the policy has: the release relates no owner to another). Each
 *   must be a target the action is valid on, else the whole listing is `invalid` (an
 *   owned Atomic Memory under `handoff.evidence.inspect`, an action only Handoffs take).
 * - **Under a parent.** A binding on a Scope, or on the server (every Scope the server
 *   holds), whose role's children take the action covers the Artifacts the policy's
 *   `discovery` finds there: a family's current heads (a head merged into another is
 *   not one) that have an owner, whoever it is. A listing without a family walks every
 *   family discovery finds heads of; a family it has no entry for (`prompt`) is
 *   `invalid`, and a Scope the server does not hold (a binding may name any id) cannot be
 *   searched: the listing is `unavailable`. So is one of more resources than the
 *   provider's `max_direct_resource_keys`.
 * Nothing else is checked: an Artifact a parent covers is listed whatever the action.
 */

const policy = accessFacts.policy;
const MAX_KEYS = Number(policy.report.capabilities.max_direct_resource_keys);
const FAMILIES_WITH_HEADS = Object.keys(policy.discovery).filter((family) => policy.discovery[family] === "heads");

type ArtifactTarget = Extract<Target, { kind: "artifact" }>;

/** What a listing reads of the server's records. */
export interface HeldRecords {
  /** The id of every Scope the server holds. */
  readonly scopes: () => string[];
  /** The records (the policy's `artifact_resource` holds the Artifacts, per Scope and family). */
  readonly store: ResourceStore;
}

/**
 * True when an Artifact listing may ask for `action`: of `family`'s actions, mutations and
 * the share action, or, without a family, of any family's.
 */
export function artifactActionListable(action: string, family: string | null): boolean {
  const families = family === null ? Object.keys(policy.families) : [family];
  return families.some((name) => {
    const profile = Object.hasOwn(policy.families, name) ? policy.families[name] : undefined;
    return profile !== undefined && [...profile.actions, ...profile.mutations, policy.share_action].includes(action);
  });
}

/**
 * The Artifacts `principal` may do `action` on, by key (not yet ordered).
 * @throws SimError the policy's `invalid` for a named Artifact the action is not valid on, or a
 *   family discovery has no entry for; its `unavailable` for a Scope the server does not hold, or
 *   too many resources
 */
export function artifactResources(
  principal: Principal,
  action: string,
  family: string | null,
  control: AccessControl,
  held: HeldRecords,
): Map<string, ArtifactTarget> {
  const resources = new Map<string, ArtifactTarget>();
  const parents = new Set<string | null>(); // a Scope id, or null for every Scope the server holds
  const inFamily = (target: ArtifactTarget) => family === null || target.family === family;
  for (const grant of control.grantsOf(principal)) {
    const role = Object.hasOwn(policy.roles, grant.role) ? policy.roles[grant.role] : undefined;
    if (role === undefined || role.on !== grant.resource.type) continue;
    const on = grant.resource;
    if (on.type === "artifact") {
      const { scopeId, family: of, artifactId, entryId } = on;
      const target: ArtifactTarget = { kind: "artifact", scopeId, family: of, artifactId, entryId };
      if (role.actions.includes(action) && inFamily(target)) resources.set(resourceKey(target), target);
    } else if (role.children.includes(action))
      parents.add(on.type === "server" || on.scopeId === "*" ? null : on.scopeId);
  }
  if (policy.roles[policy.owner_role]?.actions.includes(action) === true)
    for (const target of control.ownedArtifacts(principal))
      if (Object.hasOwn(policy.families, target.family) && inFamily(target)) resources.set(resourceKey(target), target);
  if (resources.size > MAX_KEYS) throw accessRefusal(policy.refusals.unavailable);
  try {
    for (const target of resources.values()) validateTarget({ action, target });
  } catch (error) {
    if (error instanceof AccessInvalid) throw accessRefusal(policy.refusals.invalid);
    throw error;
  }
  if (parents.size === 0) return resources;
  const stored = held.scopes();
  const holds = new Set(stored);
  const scopeIds = new Set(parents.has(null) ? stored : []);
  for (const scopeId of parents) if (scopeId !== null) scopeIds.add(scopeId);
  for (const scopeId of scopeIds) {
    for (const name of family === null ? FAMILIES_WITH_HEADS : [family]) {
      const discovery = Object.hasOwn(policy.discovery, name) ? policy.discovery[name] : undefined;
      if (discovery === undefined) throw accessRefusal(policy.refusals.invalid);
      if (discovery === "none") continue;
      if (!holds.has(scopeId)) throw accessRefusal(policy.refusals.unavailable);
      for (const target of ownedHeads(scopeId, name, control, held.store)) resources.set(resourceKey(target), target);
      if (resources.size > MAX_KEYS) throw accessRefusal(policy.refusals.unavailable);
    }
  }
  return resources;
}

/** The current heads of `family` in Scope `scopeId` that have an owner. */
function ownedHeads(scopeId: string, family: string, control: AccessControl, store: ResourceStore): ArtifactTarget[] {
  const out: ArtifactTarget[] = [];
  const resource = contractResources[policy.artifact_resource] as ContractResource;
  for (const { current } of store.records(resource.name, [scopeId, family])) {
    // A head merged into another is kept unlisted (`listed`), as the release's heads leave it out.
    if (current.listed === false) continue;
    const artifactId = String(getPath(current, resource.id));
    const target: ArtifactTarget = { kind: "artifact", scopeId, family, artifactId, entryId: null };
    if (control.ownerOf(target) !== null) out.push(target);
  }
  return out;
}
