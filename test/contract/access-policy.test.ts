// openapi.yaml's x-powercontext-access-policy holds the release's access tables: its
// roles and what each grants, its Artifact family profiles, the id rules of its targets,
// the static bearer's principal, server bindings and Scope preset, and the answers of its
// access layer. Each is read from the installed release at test time (its own code run,
// nothing of it kept) and compared with the fact the mock decides by.
import { describe, expect, it } from "vitest";
import { loadOurs, releaseAvailable, type JsonObject } from "./documents.js";
import { readReleasePolicy } from "./release-access.js";

const run = releaseAvailable("access policy facts against the release");

interface Policy {
  deployment: string;
  self_action: string;
  ids: Record<string, number>;
  whitespace: number[];
  actions: { server: string[]; scope: string[] };
  roles: Record<
    string,
    { on: string; actions: string[]; children: string[]; cardinality?: string; subjects?: string[]; system?: boolean }
  >;
  owner_role: string;
  families: Record<string, { selector: string; actions: string[]; mutations: string[]; grantable: string[] }>;
  share_action: string;
  static_principal: {
    principal: { type: string; id: string; description: string };
    server_roles: string[];
    scope_preset: string[];
    preset_reason: string;
  };
  refusals: { invalid: { status: number; code: string }; denied: { status: number; code: string } };
}

const sorted = (list: readonly string[]) => [...list].sort();

describe.runIf(run)("x-powercontext-access-policy against the installed release", () => {
  const policy = (loadOurs() as JsonObject)["x-powercontext-access-policy"] as unknown as Policy;
  // The describe body runs at collection even when the suite is skipped: read the release only when it is there.
  const release = run ? readReleasePolicy() : (null as never);

  it("has the release's roles in its order, each on its kind of resource with its actions, its children's, its cardinality and subject types", () => {
    const ours = Object.fromEntries(
      Object.entries(policy.roles).map(([name, r]) => [
        name,
        {
          on: r.on,
          actions: sorted(r.actions),
          children: sorted(r.children),
          cardinality: r.cardinality ?? "many_per_resource",
          subjects: sorted(r.subjects ?? ["group", "service", "user"]),
        },
      ]),
    );
    expect(ours).toEqual(release.roles);
    expect(Object.keys(policy.roles)).toEqual(release.role_order);
    expect(policy.owner_role).toBe(release.owner_role);
    // The owner relation is the server's own: no binding may grant it.
    expect(
      Object.entries(policy.roles)
        .filter(([, r]) => r.system === true)
        .map(([name]) => name),
    ).toEqual([release.owner_role]);
  });

  it("has the release's Artifact family profiles in its order: selector, actions, mutations and the roles a binding may grant", () => {
    const ours = Object.fromEntries(
      Object.entries(policy.families).map(([name, f]) => [
        name,
        {
          selector: f.selector,
          actions: sorted(f.actions),
          mutations: sorted(f.mutations),
          grantable: sorted(f.grantable),
        },
      ]),
    );
    expect(ours).toEqual(release.families);
    expect(Object.keys(policy.families)).toEqual(release.family_order);
    expect(policy.share_action).toBe(release.share_action);
  });

  it("has the release's id rules, whitespace set, deployment, target actions and self action", () => {
    expect(policy.ids).toEqual(release.ids);
    expect(policy.whitespace).toEqual(release.whitespace);
    expect(policy.deployment).toBe(release.deployment);
    expect(sorted(policy.actions.server)).toEqual(release.actions.server);
    expect(sorted(policy.actions.scope)).toEqual(release.actions.scope);
    expect([policy.self_action]).toEqual(release.self_actions);
  });

  it("has the release's static bearer: its principal, its server bindings and its Scope preset", () => {
    expect(policy.static_principal.principal).toEqual(release.static_principal);
    expect(
      policy.static_principal.server_roles.map((role) => [role, "server", policy.static_principal.preset_reason]),
    ).toEqual(release.server_bindings);
    expect(policy.static_principal.scope_preset).toEqual(release.scope_preset);
  });

  it("answers as the release's access layer: invalid and denied", () => {
    expect([policy.refusals.invalid.status, policy.refusals.invalid.code]).toEqual(release.refusals.invalid);
    expect([policy.refusals.denied.status, policy.refusals.denied.code]).toEqual(release.refusals.denied);
  });
});
