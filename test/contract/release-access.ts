// The installed release's access model, read at test time by running its own code:
// the role and family tables, the static principal, its server bindings and Scope
// preset, the id rules (found by asking its constructors which lengths they accept),
// the actions each kind of target takes, and the answers of its access layer.
// Nothing of it is written into the repository.
import { execFileSync } from "node:child_process";
import { venvPython } from "../../scripts/contract/release.mjs";
import { repoRoot } from "../real/tools.js";

const READ_POLICY = `
import asyncio, json, os
for key in list(os.environ):
    if key.startswith("POWERCONTEXT_"):
        del os.environ[key]
from powercontext.server.authz import models as m, profiles as p, service, composition
from powercontext.server.authz.errors import AccessInvalidRequestError, AccessDeniedError
from powercontext.server.app import _map_access_error
from powercontext.server.factory import _resolve_security_providers
from powercontext.server.settings import ServerSettings

def longest(build):
    ok = 0
    for n in range(1, 600):
        try:
            build("a" * n)
            ok = n
        except (AccessInvalidRequestError, ValueError):
            break
    return ok

deployment = m.DEFAULT_DEPLOYMENT_ID
ids = {
    "scope": longest(lambda t: m.ResourceRef.scope(t)),
    "family": longest(lambda t: m.ArtifactIdentity(family=t, artifact_id="a")),
    "artifact": longest(lambda t: m.ArtifactIdentity(family="f", artifact_id=t)),
    "entry": longest(lambda t: m.MemoryEntrySelector(entry_id=t)),
    "deployment": longest(lambda t: m.ResourceRef.server(t)),
}
def takes(kind, resource):
    out = []
    for action in m.AccessAction:
        try:
            p.validate_action_resource(action, resource, deployment_id=deployment)
            out.append(action.value)
        except AccessInvalidRequestError:
            pass
    return sorted(out)
static = _resolve_security_providers(
    ServerSettings(auth={"enabled": True, "token": "pc-contract-token-0123456789"}),
    access_control=None, authentication_provider=None)[0]
bound = []
class Repository:
    async def create_binding(self, binding):
        bound.append([binding.role.value, binding.resource.type.value, binding.reason])
asyncio.run(composition._bootstrap_server_roles(Repository(), [static], deployment_id=deployment))
roles = {}
for role, resource_type in m.ROLE_RESOURCE_TYPES.items():
    roles[role.value] = {
        "on": getattr(resource_type, "value", resource_type),
        "actions": sorted(a.value for a in m.ROLE_ACTIONS.get(role, ())),
        "children": sorted(a.value for a in m.ROLE_CHILD_ACTIONS.get(role, ())),
        "cardinality": m.ROLE_CARDINALITIES[role].value,
        "subjects": sorted(m.ROLE_SUBJECT_TYPES[role]),
    }
families = {
    name: {
        "selector": profile.selector,
        "actions": sorted(a.value for a in profile.actions),
        "mutations": sorted(a.value for a in profile.mutation_semantics),
        "grantable": sorted(r.value for r in profile.grantable_roles),
    }
    for name, profile in p.ARTIFACT_FAMILY_PROFILES.items() if profile.enabled
}
invalid = _map_access_error(AccessInvalidRequestError("resource"))
denied = _map_access_error(AccessDeniedError.__new__(AccessDeniedError))
print(json.dumps({
    "deployment": deployment,
    "self_actions": sorted(a.value for a in m.AccessAction if a not in m.PUBLIC_ACCESS_ACTIONS),
    "ids": ids,
    "whitespace": [c for c in range(0x110000) if chr(c).strip() == ""],
    "actions": {"server": takes("server", m.ResourceRef.server(deployment)), "scope": takes("scope", m.ResourceRef.scope("s"))},
    "roles": roles,
    "role_order": [r.value for r in m.ROLE_ACTIONS],
    "family_order": [name for name, profile in p.ARTIFACT_FAMILY_PROFILES.items() if profile.enabled],
    "share_action": m.AccessAction.ARTIFACT_SHARE.value,
    "owner_role": m.AccessRole.ARTIFACT_OWNER.value,
    "families": families,
    "static_principal": {"type": static.type, "id": static.id, "description": static.description},
    "server_bindings": bound,
    "scope_preset": [r.value for r in service._STATIC_SCOPE_ROLES],
    "refusals": {"invalid": list(invalid[:2]), "denied": list(denied[:2])},
}))
`;

/** The release's access policy, in the terms of `x-powercontext-access-policy`. */
export interface ReleasePolicy {
  readonly deployment: string;
  /** Actions every authenticated principal holds (those the release keeps off its public list). */
  readonly self_actions: readonly string[];
  readonly ids: Readonly<Record<string, number>>;
  readonly whitespace: readonly number[];
  readonly actions: { readonly server: readonly string[]; readonly scope: readonly string[] };
  readonly roles: Readonly<
    Record<string, { on: string; actions: string[]; children: string[]; cardinality: string; subjects: string[] }>
  >;
  /** The roles and the families in the release's order (its role listing and its principal's families follow it). */
  readonly role_order: readonly string[];
  readonly family_order: readonly string[];
  readonly share_action: string;
  readonly owner_role: string;
  readonly families: Readonly<
    Record<string, { selector: string; actions: string[]; mutations: string[]; grantable: string[] }>
  >;
  readonly static_principal: { readonly type: string; readonly id: string; readonly description: string };
  /** The static principal's bindings at start: role, resource type, reason. */
  readonly server_bindings: readonly (readonly [string, string, string])[];
  readonly scope_preset: readonly string[];
  readonly refusals: { readonly invalid: readonly [number, string]; readonly denied: readonly [number, string] };
}

/**
 * The installed release's access policy.
 * @throws {Error} when the venv's python is missing or the release cannot be imported
 */
export function readReleasePolicy(): ReleasePolicy {
  const text = execFileSync(venvPython(repoRoot), ["-c", READ_POLICY], {
    encoding: "utf8",
    maxBuffer: 32 * 1024 * 1024,
  });
  return JSON.parse(text) as ReleasePolicy;
}

// Runs the release's own access resolution on payloads: for each case, the checks its
// resolver gives for the operation's access rule, every one of them validated as its
// access layer validates them before deciding, or "invalid" where it refuses.
const RESOLVE = `
import json, sys
from powercontext.http._generated import operations as o
from powercontext.server.app import _resolve_access_requirements
from powercontext.server.authz.errors import AccessInvalidRequestError
from powercontext.server.authz.profiles import validate_action_resource
from powercontext.server.authz.models import DEFAULT_DEPLOYMENT_ID

OPS = {v.operation_id: v for v in vars(o).values() if isinstance(v, o.Operation)}
def target(resource):
    identity = resource.identity
    return {
        "type": resource.type.value,
        "scope_id": resource.scope_id,
        "deployment": resource.deployment_id,
        "family": identity.family if identity else None,
        "artifact_id": identity.artifact_id if identity else None,
        "entry_id": resource.selector.entry_id if resource.selector else None,
    }
out = []
for case in json.load(sys.stdin):
    try:
        checks = _resolve_access_requirements(OPS[case["operation"]].access, case["payload"], deployment_id=DEFAULT_DEPLOYMENT_ID)
        for action, resource in checks:
            validate_action_resource(action, resource, deployment_id=DEFAULT_DEPLOYMENT_ID)
        out.append([dict(action=action.value, **target(resource)) for action, resource in checks])
    except AccessInvalidRequestError:
        out.append("invalid")
print(json.dumps(out))
`;

/** One resolved check, as both sides are compared. */
export interface ResolvedCheck {
  readonly action: string;
  readonly type: string;
  readonly scope_id: string | null;
  readonly deployment: string | null;
  readonly family: string | null;
  readonly artifact_id: string | null;
  readonly entry_id: string | null;
}

/**
 * The release's access resolution of each `{ operation, payload }` case: its checks, or
 * `"invalid"` where its access layer refuses the payload.
 * @throws {Error} when the venv's python is missing or the release cannot be imported
 */
export function resolveWithRelease(
  cases: readonly { operation: string; payload: unknown }[],
): (ResolvedCheck[] | "invalid")[] {
  const text = execFileSync(venvPython(repoRoot), ["-c", RESOLVE], {
    encoding: "utf8",
    input: JSON.stringify(cases),
    maxBuffer: 256 * 1024 * 1024,
  });
  return JSON.parse(text) as (ResolvedCheck[] | "invalid")[];
}
