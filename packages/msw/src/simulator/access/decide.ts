import type { AccessLedger } from "./ledger.js";
import { SimError, accessMessage } from "../errors.js";
import type { Principal } from "./principals.js";
import type { WriteCause } from "../resources/writer.js";
import { type Grant, type BindingIndex, grants } from "./bindings.js";
import { accessFacts, type RefusalFact } from "./facts.js";
import type { OwnerLedger } from "./owners.js";
import type { Check, Target } from "./resolve.js";

/**
 * The decisions of the release's built-in provider: a check is allowed when the
 * action is the policy's self action, when one of the principal's bindings grants
 * it (the principals file's and the Access API's), or when it owns the Artifact and
 * the owner role takes the action, in that order (the reason a decision reports). A check the static bearer is denied on
 * a Scope, for one of its preset's actions (or, on an Artifact, their children),
 * writes the preset there first and is decided again, as the release's cold retry
 * does; `artifact.write` is no such action, so the static bearer writes only what
 * it owns.
 */

const policy = accessFacts.policy;
const preset = policy.static_principal;
const PRESET_ROLES = (preset?.scope_preset ?? []).map((role) => policy.roles[role]).filter((r) => r !== undefined);
const PRESET_SCOPE_ACTIONS = new Set(PRESET_ROLES.flatMap((r) => r.actions));
const PRESET_CHILD_ACTIONS = new Set(PRESET_ROLES.flatMap((r) => r.children));

/** The error of a policy refusal (`denied`, `invalid`, `unavailable`): its status and code, details null. */
export function accessRefusal(refusal: RefusalFact): SimError {
  return new SimError(refusal.status, refusal.code, accessMessage(refusal.code), null);
}

/** A decision: allowed or not, the policy's reason code, and the Access Binding that granted it (null for none). */
export interface Decision {
  readonly allowed: boolean;
  readonly reason: string;
  readonly bindingId: string | null;
}

/** What the decisions read. */
export interface AccessControlDeps {
  readonly bindings: BindingIndex;
  readonly owners: OwnerLedger;
  readonly ledger: AccessLedger;
  readonly now: () => number;
}

/** Decides checks for a principal. */
export class AccessControl {
  constructor(private readonly deps: AccessControlDeps) {}

  /**
   * True when `principal` may do `check` (writing the static bearer's preset first where the
   * release would). With the request's `cause`, the decision goes to the audit, as the
   * release records each decision of a request (the self action excepted).
   */
  allows(principal: Principal, check: Check, cause?: WriteCause): boolean {
    let decision = this.explain(principal, check);
    if (
      !decision.allowed &&
      principal.isStatic &&
      this.#presetCovers(check) &&
      this.deps.ledger.bootstrap((check.target as { scopeId: string }).scopeId, cause)
    )
      decision = this.explain(principal, check);
    if (cause !== undefined && check.action !== policy.self_action)
      this.deps.ledger.decided(cause, principal.wire(), check, decision);
    return decision.allowed;
  }

  /**
   * The decision on `check` as it stands, without writing any preset (what `check_access`
   * answers): allowed or not, and the policy's reason code for it.
   */
  explain(principal: Principal, { action, target }: Check): Decision {
    const reasons = policy.reasons;
    if (action === policy.self_action) return { allowed: true, reason: reasons.self, bindingId: null };
    const grant = this.#held(principal, target).find((g) => grants(g, action, target));
    if (grant !== undefined) return { allowed: true, reason: reasons.binding, bindingId: grant.bindingId ?? null };
    if (target.kind === "artifact" && this.ownerOf(target) === principal.key) {
      const owner = policy.roles[policy.owner_role];
      if (owner?.actions.includes(action) === true) return { allowed: true, reason: reasons.owner, bindingId: null };
    }
    return { allowed: false, reason: reasons.none, bindingId: null };
  }

  /**
   * @throws SimError the policy's `denied` refusal (`403 forbidden`, details null) when any check is not allowed
   */
  require(principal: Principal, checks: readonly Check[], cause?: WriteCause): void {
    for (const check of checks) if (!this.allows(principal, check, cause)) throw accessRefusal(policy.refusals.denied);
  }

  /**
   * The Scope ids a listing of Scopes for `action` shows `principal`: those its bindings
   * name and every one of `stored` when a binding on every Scope or on the server may grant
   * the action there; a Scope of `stored` where the action is allowed, an id outside it
   * only where a binding on that id grants the action.
   */
  scopeCandidates(principal: Principal, action: string, stored: readonly string[]): string[] {
    const named = new Set([
      ...this.deps.bindings.scopesOf(principal.key, this.deps.now()),
      ...principal.bindings.flatMap((b) => (b.scope !== undefined && b.scope !== "*" ? [b.scope] : [])),
    ]);
    const server: Target = { kind: "server", deployment: policy.deployment };
    const everywhere =
      principal.bindings.some((b) => b.scope === "*" || (b.scope === undefined && b.artifact === undefined)) ||
      this.deps.bindings.grantsOn(principal.key, server, this.deps.now()).length > 0;
    // A Scope the server holds is listed when the action is allowed there; an id it does not
    // hold only when a binding on that very id grants the action (never through the server's roles).
    const held = new Set(stored);
    return [...new Set([...named, ...(everywhere ? stored : [])])].filter((scopeId) => {
      const target: Target = { kind: "scope", scopeId };
      if (held.has(scopeId)) return this.explain(principal, { action, target }).allowed;
      return this.#held(principal, target)
        .filter((grant) => grant.resource.type === "scope" && grant.resource.scopeId === scopeId)
        .some((grant) => grants(grant, action, target));
    });
  }

  /** Every grant `principal` holds now: its principals file's, then its Access Bindings'. */
  grantsOf(principal: Principal): Grant[] {
    return [...principal.bindings.map(fileGrant), ...this.deps.bindings.grantsOf(principal.key, this.deps.now())];
  }

  /** The Artifacts `principal` owns (the owner relation; memory entries have none), as targets. */
  ownedArtifacts(principal: Principal): Extract<Target, { kind: "artifact" }>[] {
    return this.deps.owners.ownedBy(principal.key, policy.artifact_resource).map(({ keys, id }) => ({
      kind: "artifact",
      scopeId: String(keys[0]),
      family: String(keys[1]),
      artifactId: String(id),
      entryId: null,
    }));
  }

  /** The grants `principal` holds that may cover `target`: its principals file's, then its Access Bindings'. */
  #held(principal: Principal, target: Target): Grant[] {
    return [
      ...principal.bindings.map(fileGrant),
      ...this.deps.bindings.grantsOn(principal.key, target, this.deps.now()),
    ];
  }

  /** True when `principal` owns record `id` of `resource` in the collection `keys`. */
  owns(principal: Principal, resource: string, keys: readonly unknown[], id: unknown): boolean {
    return this.deps.owners.ownerOf(resource, keys, id) === principal.key;
  }

  /** The owner of the Artifact `target` names, as its principal key, or null. */
  ownerOf(target: Extract<Target, { kind: "artifact" }>): string | null {
    if (target.entryId !== null) return null;
    return this.deps.owners.ownerOf(policy.artifact_resource, [target.scopeId, target.family], target.artifactId);
  }

  #presetCovers({ action, target }: Check): boolean {
    if (target.kind === "scope") return PRESET_SCOPE_ACTIONS.has(action);
    return target.kind === "artifact" && PRESET_CHILD_ACTIONS.has(action);
  }
}

/** A binding of the principals file as a grant. */
function fileGrant(binding: Principal["bindings"][number]): Grant {
  if (binding.artifact !== undefined)
    return {
      role: binding.role,
      resource: {
        type: "artifact",
        scopeId: binding.artifact.scope_id,
        family: binding.artifact.family,
        artifactId: binding.artifact.artifact_id,
        entryId: null,
      },
    };
  if (binding.scope !== undefined) return { role: binding.role, resource: { type: "scope", scopeId: binding.scope } };
  return { role: binding.role, resource: { type: "server" } };
}
