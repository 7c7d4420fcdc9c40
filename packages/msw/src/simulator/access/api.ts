import type { Principal } from "./principals.js";
import { fromBase64Url, toBase64Url } from "../resources/base64url.js";
import { seal } from "../resources/cursor.js";
import { isRecord, type JsonRecord } from "../members.js";
import { type AccessControl, accessRefusal } from "./decide.js";
import { accessFacts } from "./facts.js";
import { AccessInvalid, type Check, type Target } from "./resolve.js";
import { validateTarget } from "./targets.js";
import { artifactActionListable, artifactResources, type HeldRecords } from "./artifact-listing.js";
import { compareResourceKeys, resourceKey, resourceWire } from "./resource-keys.js";

/**
 * The Access API's answers that are the policy itself or a decision on it, as the
 * release's built-in provider gives them:
 * - `get_access_principal`: the caller, the access mode, the kinds of resources,
 *   the provider's capabilities and each Artifact family's profile;
 * - `list_access_roles`: the roles a binding may name (and the owner relation), each
 *   with its actions, cardinality, subject types and Artifact families, narrowed by
 *   resource type and family;
 * - `check_access`: each requirement decided as it stands (no preset is written),
 *   with its reason code, and the answer under `match` (`all` or `any`);
 * - `list_access_resources`: the resources of a type the caller may do the action on:
 *   the server, the Scopes its bindings name (every stored one when a binding on every
 *   Scope or on the server may grant it), each decided, or the Artifacts its bindings
 *   and the owner relation name and those its Scope and server bindings cover
 *   (`artifact-listing.ts`); ordered by resource key (`resource-keys.ts`), paged with a
 *   cursor bound to the caller, the action, type and family.
 */

const policy = accessFacts.policy;
const DEFAULT_SUBJECTS = ["group", "service", "user"] as const;
const RESOURCE_KINDS = ["server", "scope", "artifact"] as const;

/** `get_access_principal` for `principal`. */
export function accessPrincipal(principal: Principal): JsonRecord {
  return {
    principal: principal.wire(),
    mode: policy.report.mode,
    resource_kinds: [...RESOURCE_KINDS],
    provider_capabilities: { ...policy.report.capabilities },
    artifact_families: Object.entries(policy.families).map(([family, profile]) => ({
      family,
      enabled: true,
      share_unit: profile.selector === "memory_entry" ? "memory_entry" : "artifact",
      actions: [...profile.actions].sort(),
      grantable_roles: [...profile.grantable].sort(),
    })),
  };
}

/**
 * `list_access_roles` for the request's `resource_type` and `family`.
 * @throws SimError the policy's `invalid` for a family no profile has, or one given with another resource type
 */
export function accessRoles(request: JsonRecord): JsonRecord {
  const type = typeof request.resource_type === "string" ? request.resource_type : null;
  const family = typeof request.family === "string" ? request.family : null;
  if (family !== null && (!Object.hasOwn(policy.families, family) || (type !== null && type !== "artifact")))
    throw accessRefusal(policy.refusals.invalid);
  const families = Object.keys(policy.families);
  const items: JsonRecord[] = [];
  for (const [role, fact] of Object.entries(policy.roles)) {
    if (type !== null && fact.on !== type) continue;
    let of: string[] = [];
    if (fact.on === "artifact") {
      of = families.filter((f) => fact.system === true || policy.families[f]?.grantable.includes(role) === true);
      if (family !== null) of = of.filter((f) => f === family);
      if (of.length === 0) continue;
    }
    items.push({
      role,
      resource_type: fact.on,
      cardinality: fact.cardinality ?? "many_per_resource",
      actions: [...fact.actions].sort(),
      artifact_families: of,
      assignable_subject_types: fact.system === true ? [] : [...(fact.subjects ?? DEFAULT_SUBJECTS)].sort(),
      system_managed: fact.system === true,
    });
  }
  return { items };
}

/** The target an Access API resource names. @throws AccessInvalid for a resource of no known form */
export function targetOf(resource: unknown): Target {
  if (!isRecord(resource)) throw new AccessInvalid("resource");
  if (resource.type === "server") return { kind: "server", deployment: String(resource.deployment_id) };
  if (resource.type === "scope") return { kind: "scope", scopeId: String(resource.scope_id) };
  const identity = resource.identity;
  if (resource.type !== "artifact" || !isRecord(identity)) throw new AccessInvalid("resource");
  const selector = resource.selector;
  return {
    kind: "artifact",
    scopeId: String(resource.scope_id),
    family: String(identity.family),
    artifactId: String(identity.artifact_id),
    entryId: isRecord(selector) ? String(selector.entry_id) : null,
  };
}

/**
 * `check_access`: each requirement decided for `principal` as it stands.
 * @throws SimError the policy's `invalid` when a requirement names no valid target for its action
 */
export function checkAccess(principal: Principal, request: JsonRecord, control: AccessControl): JsonRecord {
  const requirements = Array.isArray(request.requirements) ? request.requirements : [];
  let checks: Check[];
  try {
    checks = requirements.map((item) => {
      const requirement = isRecord(item) ? item : {};
      const check = { action: String(requirement.action), target: targetOf(requirement.resource) };
      validateTarget(check);
      return check;
    });
  } catch (error) {
    if (error instanceof AccessInvalid) throw accessRefusal(policy.refusals.invalid);
    throw error;
  }
  const decisions = checks.map((check) => {
    const { allowed, reason } = control.explain(principal, check);
    return { allowed, reason_code: reason };
  });
  const allowed = request.match === "any" ? decisions.some((d) => d.allowed) : decisions.every((d) => d.allowed);
  return { allowed, decisions };
}

/** The cursor of a page that ends at key `last`: opaque, and bound to the caller and the action, type and family listed. */
function cursorAfter(last: string, bound: readonly (string | null)[], key: string): string {
  const listed = JSON.stringify([...bound, last]);
  return toBase64Url(JSON.stringify([...bound, last, seal(key, listed)]));
}

/**
 * The key a cursor names, or null for the start (no cursor).
 * @throws SimError the policy's `invalid` for a cursor this list did not hand out to this caller for this
 *   action, type and family, or one changed since
 */
function afterCursor(cursor: unknown, bound: readonly (string | null)[], key: string): string | null {
  if (cursor === undefined || cursor === null) return null;
  let parts: unknown;
  try {
    parts = typeof cursor === "string" ? JSON.parse(fromBase64Url(cursor)) : null;
  } catch {
    parts = null;
  }
  const last: unknown = Array.isArray(parts) ? parts[bound.length] : undefined;
  // Only the text this list wrote for this action, type and family, seal included: anything else was changed by hand.
  if (typeof last !== "string" || cursorAfter(last, bound, key) !== cursor)
    throw accessRefusal(policy.refusals.invalid);
  return last;
}

/**
 * `list_access_resources` for `principal`: the resources it may do the action on, ordered by key, paged.
 * @param held - the Scopes and the records the simulator holds
 * @param key - the key its cursors are sealed with
 * @throws SimError the policy's `invalid` for an action its resource type (or family) does not take, a family
 *   with another type, an Artifact listing the release refuses ({@link artifactResources}), or a cursor it did
 *   not hand out; its `unavailable` for an Artifact listing the release cannot filter
 */
export function accessResources(
  principal: Principal,
  request: JsonRecord,
  control: AccessControl,
  held: HeldRecords,
  key: string,
): JsonRecord {
  const action = String(request.action);
  const type = String(request.resource_type);
  const family = typeof request.family === "string" ? request.family : null;
  const limit = typeof request.limit === "number" ? request.limit : 100;
  const takes =
    type === "server"
      ? policy.actions.server.includes(action)
      : type === "scope"
        ? policy.actions.scope.includes(action)
        : type === "artifact" && artifactActionListable(action, family);
  if (!takes || (family !== null && type !== "artifact")) throw accessRefusal(policy.refusals.invalid);
  let targets: Target[];
  if (type === "server") {
    const server: Target = { kind: "server", deployment: policy.deployment };
    targets = control.explain(principal, { action, target: server }).allowed ? [server] : [];
  } else if (type === "scope")
    targets = control
      .scopeCandidates(principal, action, held.scopes())
      .map((scopeId): Target => ({ kind: "scope", scopeId }));
  else targets = [...artifactResources(principal, action, family, control, held).values()];
  const ordered = targets
    .map((target) => ({ key: resourceKey(target), target }))
    .sort((a, b) => compareResourceKeys(a.key, b.key));
  // A cursor another caller was handed is one this caller never was (the release binds it to the subject).
  const bound = [principal.key, action, type, family];
  const after = afterCursor(request.cursor, bound, key);
  const from = after === null ? ordered : ordered.filter((item) => compareResourceKeys(item.key, after) > 0);
  const page = from.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map((item) => resourceWire(item.target)),
    total: ordered.length,
    next_cursor: from.length > page.length && last !== undefined ? cursorAfter(last.key, bound, key) : null,
  };
}
