import { accessFacts } from "./facts.js";
import { AccessInvalid, type Check, type Target } from "./resolve.js";
import { validId } from "./text.js";

/**
 * The rules every resolved target meets before any check is decided, from
 * `x-powercontext-access-policy`: ids are valid texts of their kind's length
 * (`ids`), a server target names the policy's deployment, an Artifact target's
 * family is one of the policy's `families`, names a memory entry exactly when its
 * family's selector asks for one, and the action is one its kind of target takes (an
 * Artifact's: its family's actions and mutations, and the share action).
 */

const policy = accessFacts.policy;

/** @throws AccessInvalid for a target or action the release's access layer refuses */
export function validateTarget(check: Check): void {
  const target = check.target;
  switch (target.kind) {
    case "server":
      if (!validId(target.deployment, policy.ids.deployment) || target.deployment !== policy.deployment)
        throw new AccessInvalid("deployment");
      if (!policy.actions.server.includes(check.action)) throw new AccessInvalid("action-resource");
      return;
    case "scope":
      if (!validId(target.scopeId, policy.ids.scope)) throw new AccessInvalid("resource");
      if (!policy.actions.scope.includes(check.action)) throw new AccessInvalid("action-resource");
      return;
    case "artifact": {
      if (!validId(target.scopeId, policy.ids.scope)) throw new AccessInvalid("resource");
      if (!validId(target.family, policy.ids.family) || !validId(target.artifactId, policy.ids.artifact))
        throw new AccessInvalid("artifact-identity");
      if (target.entryId !== null && !validId(target.entryId, policy.ids.entry))
        throw new AccessInvalid("memory-entry-selector");
      const profile = Object.hasOwn(policy.families, target.family) ? policy.families[target.family] : undefined;
      if (profile === undefined) throw new AccessInvalid("artifact-family");
      if ((profile.selector === "memory_entry") !== (target.entryId !== null)) throw new AccessInvalid("selector");
      const takes = [...profile.actions, ...profile.mutations, policy.share_action];
      if (!takes.includes(check.action)) throw new AccessInvalid("action-resource");
    }
  }
}

/** The Scope a target lies in (its own for a Scope, its Scope for an Artifact), or null for the server. */
export function scopeOf(target: Target): string | null {
  return target.kind === "server" ? null : target.scopeId;
}
