import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { type PrincipalConfig, parsePrincipalConfig } from "../../src/simulator/access/principals.js";
import { createPowerContextSimulator } from "../../src/simulator/simulator.js";
import { call } from "../support/flat-call.js";

/**
 * The access layer as the release decides, measured on a 1.4.1 server with
 * principals bound through its Access API (test/access/role-matrix.test.ts compares
 * every operation and role with the release itself when it is installed; these hold
 * the rules without it): roles grant what the policy lists and nothing more, only an
 * Artifact's owner writes it, the static bearer gets its Scope preset on first use,
 * the ids of a target follow Python's whitespace and code-point rules, and bindings
 * written through the Access API count at once.
 */

const principals: PrincipalConfig = {
  tokens: {
    "pc-admin": { static: true },
    "pc-writer": {
      principal: { type: "service", id: "writer" },
      bindings: [{ role: "scope.contributor", scope: "*" }, { role: "server.observer" }],
    },
    "pc-scope-admin": {
      principal: { type: "service", id: "scope-admin" },
      bindings: [{ role: "scope.admin", scope: "*" }],
    },
    "pc-server-admin": { principal: { type: "service", id: "server-admin" }, bindings: [{ role: "server.admin" }] },
    "pc-nobody": { principal: { type: "service", id: "nobody" } },
    "pc-legacy": { name: "legacy", scopes: { "*": ["scope.read"] }, server: ["server.observe"] },
  },
};

function fresh() {
  const sim = createPowerContextSimulator({ seed: 5, clock: new ManualClock(), principals, scopes: ["s1"] });
  return { sim, scope: call(sim, "get_default_scope").body.scope_id as string };
}

const status = (reply: { status: number; code: string | undefined }) => [reply.status, reply.code];

describe("the access layer", () => {
  it("grants a role's actions and nothing more: scope.admin cannot read its Scope, server.admin cannot observe", () => {
    const { sim, scope } = fresh();
    expect(status(call(sim, "get_scope", { scope_id: scope }, "pc-scope-admin"))).toEqual([403, "forbidden"]);
    expect(status(call(sim, "get_server_info", {}, "pc-server-admin"))).toEqual([403, "forbidden"]);
    expect(call(sim, "get_scope", { scope_id: scope }, "pc-writer").status).toBe(200);
    expect(call(sim, "get_scope", { scope_id: scope }, "pc-legacy").status).toBe(200);
    // The earlier permission lists map to roles: scope.read is scope.viewer, which does not contribute.
    expect(status(call(sim, "flush_memory", { scope_id: scope }, "pc-legacy"))).toEqual([403, "forbidden"]);
    expect(call(sim, "flush_memory", { scope_id: scope }, "pc-writer").status).toBe(200);
  });

  it("refuses an unknown Scope with 403 to a principal without a grant there, 404 to the static bearer", () => {
    const { sim } = fresh();
    expect(status(call(sim, "get_scope", { scope_id: "scp_ghost" }, "pc-nobody"))).toEqual([403, "forbidden"]);
    expect(status(call(sim, "get_scope", { scope_id: "scp_ghost" }))).toEqual([404, "scope_not_found"]);
  });

  it("lets only an Artifact's owner write it: an unknown Artifact is 403 for everyone, before If-Match", () => {
    const { sim, scope } = fresh();
    const content = { kind: "fact", text: "Backups run nightly." };
    const made = call(sim, "create_artifact", { scope_id: scope, family: "atomic-memory", content }, "pc-writer");
    expect(made.status).toBe(201);
    const at = { scope_id: scope, family: "atomic-memory", artifact_id: made.body.artifact_id as string };
    const replace = { ...at, content };
    expect(status(call(sim, "replace_artifact", replace))).toEqual([403, "forbidden"]);
    expect(status(call(sim, "replace_artifact", replace, "pc-writer"))).toEqual([428, "precondition_required"]);
    const unknown = { ...replace, artifact_id: "art_unknown" };
    expect(status(call(sim, "replace_artifact", unknown))).toEqual([403, "forbidden"]);
  });

  it("reads ids as the release does: Python's whitespace around them, code points for their length", () => {
    const { sim } = fresh();
    const read = (scopeId: string) => status(call(sim, "list_sources", { scope_id: scopeId }));
    const invalid = [422, "invalid_access_request"];
    for (const id of [" s1", "s1\t", "\u001cs1", "s1\u0085", "\u3000s1", "a".repeat(257), "\u{1F600}".repeat(257)])
      expect(read(id), JSON.stringify(id)).toEqual(invalid);
    // Not whitespace to Python (U+FEFF), and 256 astral characters are 256 code points: no access fault.
    for (const id of ["\ufeffs1", "\u{1F600}".repeat(256), "a".repeat(256)])
      expect(read(id), JSON.stringify(id)).toEqual([404, "scope_not_found"]);
  });

  it("writes the static bearer's Scope preset on first use, lists it, and decides check_access without writing it", () => {
    const { sim } = fresh();
    const check = () =>
      call(sim, "check_access", {
        match: "all",
        requirements: [{ action: "scope.read", resource: { type: "scope", scope_id: "scp_ghost" } }],
      }).body;
    const listed = () =>
      call(sim, "list_access_bindings", { management_resource: { type: "scope", scope_id: "scp_ghost" } }).body.items;
    expect(check()).toEqual({ allowed: false, decisions: [{ allowed: false, reason_code: "no-matching-binding" }] });
    expect(listed()).toEqual([]);
    expect(call(sim, "get_scope", { scope_id: "scp_ghost" }).status).toBe(404);
    expect(
      listed()
        .map((b: { role: string }) => b.role)
        .sort(),
    ).toEqual(["scope.contributor", "scope.delegator", "scope.reviewer", "scope.viewer"]);
    expect(check()).toEqual({ allowed: true, decisions: [{ allowed: true, reason_code: "role-binding" }] });
    const resources = call(sim, "list_access_resources", { action: "scope.read", resource_type: "scope" }).body;
    expect(resources.items).toContainEqual({ type: "scope", scope_id: "scp_ghost" });
  });

  it("takes a binding written through the Access API at once, and drops it once revoked or expired", () => {
    const { sim, scope } = fresh();
    const clock = sim.clock as ManualClock;
    expect(call(sim, "get_scope", { scope_id: scope }, "pc-nobody").status).toBe(403);
    const bind = (key: string, expires: string | null) =>
      call(sim, "create_access_binding", {
        subject: { type: "service", id: "nobody" },
        resource: { type: "scope", scope_id: scope },
        role: "scope.viewer",
        idempotency_key: key,
        ...(expires === null ? {} : { expires_at: expires }),
      }).body;
    const binding = bind("k-1", null);
    expect(call(sim, "get_scope", { scope_id: scope }, "pc-nobody").status).toBe(200);
    call(sim, "revoke_access_binding", {
      binding_id: binding.binding_id,
      expected_version: binding.version,
      idempotency_key: "k-2",
    });
    expect(call(sim, "get_scope", { scope_id: scope }, "pc-nobody").status).toBe(403);
    bind("k-3", new Date(clock.now() + 60_000).toISOString());
    expect(call(sim, "get_scope", { scope_id: scope }, "pc-nobody").status).toBe(200);
    clock.advance(61_000);
    expect(call(sim, "get_scope", { scope_id: scope }, "pc-nobody").status).toBe(403);
  });

  it("refuses a binding its caller does not administer, a role the resource does not take, an expiry behind", () => {
    const { sim, scope } = fresh();
    const request = {
      subject: { type: "service", id: "nobody" },
      resource: { type: "scope", scope_id: scope },
      role: "scope.viewer",
      idempotency_key: "k-4",
    };
    expect(status(call(sim, "create_access_binding", request, "pc-writer"))).toEqual([403, "forbidden"]);
    expect(status(call(sim, "create_access_binding", { ...request, role: "server.admin" }))).toEqual([
      422,
      "invalid_access_request",
    ]);
    const past = { ...request, expires_at: "2000-01-01T00:00:00Z" };
    expect(status(call(sim, "create_access_binding", past))).toEqual([422, "invalid_access_request"]);
  });
});

describe("the principals file", () => {
  it("refuses two static tokens, a role no binding may grant, a Scope role without its Scope", () => {
    expect(() => parsePrincipalConfig({ tokens: { a: { static: true }, b: { static: true } } })).toThrow(/static/);
    const bind = (binding: unknown) =>
      parsePrincipalConfig({ tokens: { a: { principal: { type: "service", id: "a" }, bindings: [binding] } } });
    expect(() =>
      bind({ role: "artifact.owner", artifact: { scope_id: "s", family: "skill", artifact_id: "x" } }),
    ).toThrow(/not a role a binding may grant/);
    expect(() => bind({ role: "scope.viewer" })).toThrow(/needs scope/);
    expect(() => bind({ role: "server.observer", scope: "*" })).toThrow(/takes no scope/);
  });
});
