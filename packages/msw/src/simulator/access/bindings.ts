import type { JsonRecord } from "../members.js";
import type { ResourceWriter } from "../resources/writer.js";
import { accessFacts } from "./facts.js";
import { principalKey, type PrincipalKey } from "./owners.js";
import type { Target } from "./resolve.js";

/**
 * Role bindings and what they grant, as the release's built-in provider decides:
 * a binding grants its role's `actions` on exactly its resource and its role's
 * `children` on that resource's children (a Scope's Artifacts; for a server
 * binding, every Scope and every Artifact). Roles are not hierarchical: a role
 * grants what the policy lists and nothing else.
 */

/** A binding as the access layer decides with it: a role on a resource (a Scope id of `"*"` is every Scope). */
export interface Grant {
  readonly role: string;
  /** the Access Binding that holds the grant (absent for a principals file's own) */
  readonly bindingId?: string;
  readonly resource:
    | { readonly type: "server" }
    | { readonly type: "scope"; readonly scopeId: string }
    | {
        readonly type: "artifact";
        readonly scopeId: string;
        readonly family: string;
        readonly artifactId: string;
        readonly entryId: string | null;
      };
}

const policy = accessFacts.policy;

/** True when `grant` allows `action` on `target`. */
export function grants(grant: Grant, action: string, target: Target): boolean {
  const role = Object.hasOwn(policy.roles, grant.role) ? policy.roles[grant.role] : undefined;
  if (role === undefined || role.on !== grant.resource.type) return false;
  const on = grant.resource;
  switch (on.type) {
    case "server":
      return target.kind === "server" ? role.actions.includes(action) : role.children.includes(action);
    case "scope": {
      if (target.kind === "server" || (on.scopeId !== "*" && on.scopeId !== target.scopeId)) return false;
      return target.kind === "scope" ? role.actions.includes(action) : role.children.includes(action);
    }
    case "artifact":
      return (
        target.kind === "artifact" &&
        target.scopeId === on.scopeId &&
        target.family === on.family &&
        target.artifactId === on.artifactId &&
        target.entryId === on.entryId &&
        role.actions.includes(action)
      );
  }
  return false;
}

/** A stored binding's resource as a {@link Grant}'s, or null for a form no check can match. */
function grantResource(resource: unknown): Grant["resource"] | null {
  const r = resource as JsonRecord | null;
  if (r === null || typeof r !== "object") return null;
  if (r.type === "server") return r.deployment_id === policy.deployment ? { type: "server" } : null;
  if (r.type === "scope" && typeof r.scope_id === "string") return { type: "scope", scopeId: r.scope_id };
  const identity = r.identity as JsonRecord | undefined;
  if (r.type === "artifact" && typeof r.scope_id === "string" && identity !== undefined) {
    const selector = r.selector as JsonRecord | null | undefined;
    return {
      type: "artifact",
      scopeId: r.scope_id,
      family: String(identity.family),
      artifactId: String(identity.artifact_id),
      entryId: typeof selector?.entry_id === "string" ? selector.entry_id : null,
    };
  }
  return null;
}

/** The key of a grant's resource, as {@link grantsOn} looks grants up. */
function resourceKey(resource: Grant["resource"]): string {
  if (resource.type === "server") return "server";
  if (resource.type === "scope") return `scope\u0000${resource.scopeId}`;
  return `artifact\u0000${resource.scopeId}\u0000${resource.family}\u0000${resource.artifactId}`;
}

/** The resource keys whose grants may cover `target`: the server, its Scope (and `*`), itself. */
export function coveringKeys(target: Target): string[] {
  if (target.kind === "server") return ["server"];
  const keys = ["server", "scope\u0000*", `scope\u0000${target.scopeId}`];
  if (target.kind === "artifact")
    keys.push(`artifact\u0000${target.scopeId}\u0000${target.family}\u0000${target.artifactId}`);
  return keys;
}

interface Stored {
  readonly grant: Grant;
  readonly record: JsonRecord;
}

/** True when a stored binding is active and not expired at `nowMs`. */
function active(record: JsonRecord, nowMs: number): boolean {
  if (record.state !== "active") return false;
  const expires = typeof record.expires_at === "string" ? Date.parse(record.expires_at) : Number.NaN;
  return Number.isNaN(expires) || expires > nowMs;
}

/**
 * The bindings the Access API stores, by subject and resource, kept current through
 * the writer's hooks on the binding resource: a revoked or expired binding grants
 * nothing. A check looks only at the bindings on the resources that may cover its
 * target, so its cost does not grow with the number of Scopes.
 */
export class BindingIndex {
  readonly #bySubject = new Map<PrincipalKey, Map<string, Map<string, Stored>>>();

  /** Follows every write of `resource` (the Access Binding records) on `writer`. */
  constructor(writer: ResourceWriter, resource: string) {
    writer.onWrite(resource, {
      after: (binding) => {
        const subject = binding.subject as JsonRecord | undefined;
        const on = grantResource(binding.resource);
        if (subject === undefined || subject.type === "group" || on === null) return;
        const key = principalKey(subject);
        const byResource = this.#bySubject.get(key) ?? new Map<string, Map<string, Stored>>();
        this.#bySubject.set(key, byResource);
        const at = resourceKey(on);
        const bindings = byResource.get(at) ?? new Map<string, Stored>();
        byResource.set(at, bindings);
        bindings.set(String(binding.binding_id), {
          grant: { role: String(binding.role), resource: on, bindingId: String(binding.binding_id) },
          record: binding,
        });
      },
    });
  }

  /** The Scope ids `subject` holds an active, unexpired binding on at `nowMs`. */
  scopesOf(subject: PrincipalKey, nowMs: number): string[] {
    const out: string[] = [];
    for (const [key, bindings] of this.#bySubject.get(subject) ?? []) {
      if (!key.startsWith("scope\u0000")) continue;
      for (const { grant, record } of bindings.values()) {
        if (grant.resource.type === "scope" && active(record, nowMs)) {
          out.push(grant.resource.scopeId);
          break;
        }
      }
    }
    return out;
  }

  /** Every active, unexpired binding of `subject` at `nowMs`, as grants. */
  grantsOf(subject: PrincipalKey, nowMs: number): Grant[] {
    const out: Grant[] = [];
    for (const bindings of this.#bySubject.get(subject)?.values() ?? [])
      for (const { grant, record } of bindings.values()) if (active(record, nowMs)) out.push(grant);
    return out;
  }

  /** The active, unexpired bindings of `subject` at `nowMs` that may cover `target`, as grants. */
  grantsOn(subject: PrincipalKey, target: Target, nowMs: number): Grant[] {
    const byResource = this.#bySubject.get(subject);
    if (byResource === undefined) return [];
    const out: Grant[] = [];
    for (const key of coveringKeys(target)) {
      for (const { grant, record } of byResource.get(key)?.values() ?? []) if (active(record, nowMs)) out.push(grant);
    }
    return out;
  }
}
