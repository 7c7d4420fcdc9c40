import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator } from "../../src/simulator/simulator.js";
import { AUDIT_LOG_SIZE } from "../../src/simulator/access/ledger.js";
import { defaultPrincipals } from "../../src/simulator/access/principals.js";
import { contractProblems } from "../support/contract.js";
import { call, type Reply } from "../support/flat-call.js";

/**
 * The access state the release keeps beside the bindings callers write, as
 * the mock keeps it (access-ledger.ts): the static bearer's preset bindings on
 * every new Scope, the caller named where a binding names who wrote it, and
 * the audit of every binding write, listed per resource and paged to the end.
 */
function valid(operationId: Parameters<typeof call>[1], reply: Reply): Reply {
  expect(contractProblems(operationId, reply.status, { ...reply.headers }, reply.body), operationId).toEqual([]);
  return reply;
}

// pc-admin is the release's static bearer: its principal, as the release names it.
const admin = { type: "service", id: "server-token", description: "PowerContext static bearer" };
const PRESETS = ["scope.viewer", "scope.contributor", "scope.reviewer", "scope.delegator"];

function withScope() {
  const clock = new ManualClock();
  const sim = createPowerContextSimulator({ seed: 3, clock });
  const scope = valid(
    "create_scope",
    call(sim, "create_scope", { title: "Team", summary: "Team notes", idempotency_key: "team-1" }),
  ).body;
  const resource = { type: "scope", scope_id: scope.scope_id as string };
  return { sim, clock, resource };
}

/** The request of a viewer binding for user u-1 on `resource`. */
function viewerOf(resource: { type: string; scope_id: string }) {
  return { subject: { type: "user", id: "u-1" }, resource, role: "scope.viewer", idempotency_key: "b-1" };
}

describe("access ledger", () => {
  it("grants the administrator the release's preset roles on a new Scope, listed with the bindings callers create", () => {
    const { sim, resource } = withScope();
    const listed = valid("list_access_bindings", call(sim, "list_access_bindings", { management_resource: resource }))
      .body.items;
    expect(listed.map((b: { role: string }) => b.role).sort()).toEqual([...PRESETS].sort());
    for (const binding of listed) {
      expect(binding).toMatchObject({ subject: admin, granted_by: admin, resource, state: "active", version: 1 });
      expect(typeof binding.reason).toBe("string");
    }
  });

  it("names the caller in granted_by and revoked_by, and the time of the revocation in revoked_at", () => {
    const { sim, clock, resource } = withScope();
    const created = valid("create_access_binding", call(sim, "create_access_binding", viewerOf(resource))).body;
    expect(created).toMatchObject({ granted_by: admin, reason: null, revoked_at: null, revoked_by: null });
    clock.advance(60_000);
    const revoked = valid(
      "revoke_access_binding",
      call(sim, "revoke_access_binding", {
        binding_id: created.binding_id,
        expected_version: 1,
        idempotency_key: "r-1",
      }),
    ).body;
    expect(revoked).toMatchObject({ state: "revoked", revoked_by: admin, granted_by: admin });
    expect(Date.parse(revoked.revoked_at) - Date.parse(created.created_at)).toBe(60_000);
    expect(Number(revoked.policy_revision)).toBeGreaterThan(Number(created.policy_revision));
    expect(valid("get_access_principal", call(sim, "get_access_principal")).body.principal).toEqual(admin);
  });

  it("stores no description a caller sends with a subject (created or replacing), while the presets keep the server's own", () => {
    const { sim, resource } = withScope();
    const created = valid(
      "create_access_binding",
      call(sim, "create_access_binding", {
        subject: { type: "user", id: "u-2", description: "Said to be the lead" },
        resource,
        role: "scope.viewer",
        idempotency_key: "b-2",
      }),
    ).body;
    expect(created.subject).toEqual({ type: "user", id: "u-2", description: null });
    const replaced = valid(
      "replace_access_binding",
      call(sim, "replace_access_binding", {
        binding_id: created.binding_id,
        expected_version: 1,
        replacement: { subject: { type: "service", id: "svc-1", description: "Said to be the importer" } },
        idempotency_key: "x-2",
      }),
    ).body;
    expect(replaced.previous.subject).toEqual({ type: "user", id: "u-2", description: null });
    expect(replaced.current.subject).toEqual({ type: "service", id: "svc-1", description: null });
    const listed = valid("list_access_bindings", call(sim, "list_access_bindings", { management_resource: resource }))
      .body.items as { subject: { id: string }; role: string }[];
    const presets = listed.filter((b) => b.subject.id === admin.id);
    expect(presets.map((b) => b.role).sort()).toEqual([...PRESETS].sort());
    for (const binding of presets) expect(binding.subject).toEqual(admin);
  });

  it("audits every binding write of a resource, presets included, paged to the end", () => {
    const { sim, resource } = withScope();
    const created = call(sim, "create_access_binding", viewerOf(resource)).body;
    call(sim, "revoke_access_binding", { binding_id: created.binding_id, expected_version: 1, idempotency_key: "r-1" });
    const events: Record<string, unknown>[] = [];
    let cursor: string | null = null;
    do {
      const page: Reply = valid(
        "list_access_audit",
        call(sim, "list_access_audit", { resource, limit: 2, ...(cursor === null ? {} : { cursor }) }),
      );
      events.push(...page.body.items);
      cursor = page.body.next_cursor;
    } while (cursor !== null && events.length < 20);
    const written = events.filter((e) => String(e.reason_code).startsWith("binding-"));
    expect(written.map((e) => [e.reason_code, e.role])).toEqual([
      ...PRESETS.map((role) => ["binding-created", role]),
      ["binding-created", "scope.viewer"],
      ["binding-revoked", "scope.viewer"],
    ]);
    expect(written.at(-1)).toMatchObject({
      operation: "revoke_access_binding",
      principal: admin,
      action: "scope.admin",
      resource,
      allowed: true,
      binding_id: created.binding_id,
      target: { type: "user", id: "u-1", description: null },
      expected_version: 1,
      result_version: 2,
    });
    expect(typeof written.at(-1)?.request_id).toBe("string");
    // The decisions of the requests are there too, each with the binding that allowed it.
    expect(
      events.find((e) => e.operation === "create_access_binding" && e.reason_code === "role-binding"),
    ).toMatchObject({
      action: "scope.admin",
      allowed: true,
      resource,
      matched_subject: admin,
      binding_id: expect.any(String),
    });
    // Another resource's audit is its own: here only the decision to read it.
    const unknown = { type: "scope", scope_id: "scp_unknown" };
    const other = call(sim, "list_access_audit", { resource: unknown });
    expect(other.status).toBe(200);
    expect(other.body.items.map((e: Record<string, unknown>) => [e.operation, e.action, e.resource])).toEqual([
      ["list_access_audit", "scope.admin", unknown],
    ]);
  });

  it("replaces a binding as the release does: the old one revoked at previous, a new one at current, the same for a repeat", () => {
    const { sim, resource } = withScope();
    const old = call(sim, "create_access_binding", viewerOf(resource)).body;
    const request = {
      binding_id: old.binding_id,
      expected_version: 1,
      replacement: { subject: { type: "user", id: "u-2" }, reason: "Handover." },
      idempotency_key: "swap-1",
    };
    const replaced = valid("replace_access_binding", call(sim, "replace_access_binding", request)).body;
    expect(replaced.previous).toMatchObject({
      binding_id: old.binding_id,
      state: "revoked",
      version: 2,
      revoked_by: admin,
      subject: { type: "user", id: "u-1" },
    });
    expect(replaced.current).toMatchObject({
      subject: { type: "user", id: "u-2", description: null },
      resource,
      role: "scope.viewer",
      granted_by: admin,
      reason: "Handover.",
      state: "active",
      version: 1,
      idempotency_key: "swap-1",
      revoked_at: null,
    });
    expect(replaced.current.binding_id).not.toBe(old.binding_id);
    const again = valid("replace_access_binding", call(sim, "replace_access_binding", request)).body;
    expect(again).toEqual(replaced);
  });

  it("refuses a replacement the provider cannot hold once the binding is found, before its version is compared", () => {
    const { sim, resource } = withScope();
    const old = call(sim, "create_access_binding", viewerOf(resource)).body;
    const replace = (binding_id: string, replacement: Record<string, unknown>, key: string) =>
      call(sim, "replace_access_binding", { binding_id, expected_version: 9, replacement, idempotency_key: key });
    const codeOf = (reply: Reply) => [reply.status, reply.body.error?.code];
    // A group subject (the built-in provider holds none) and an expiry already past: 422, not the version's 409.
    expect(codeOf(replace(old.binding_id, { subject: { type: "group", id: "g-1" } }, "r-1"))).toEqual([
      422,
      "invalid_access_request",
    ]);
    const past = { subject: { type: "user", id: "u-2" }, expires_at: "2001-01-01T00:00:00Z" };
    expect(codeOf(replace(old.binding_id, past, "r-2"))).toEqual([422, "invalid_access_request"]);
    // A binding the server does not hold is not found first; a fitting replacement meets the version check.
    expect(codeOf(replace("bind_unknown", { subject: { type: "group", id: "g-1" } }, "r-3"))).toEqual([
      404,
      "access_binding_not_found",
    ]);
    expect(codeOf(replace(old.binding_id, { subject: { type: "user", id: "u-2" } }, "r-4"))).toEqual([
      409,
      "binding-version",
    ]);
  });

  it("describes a principal as its principals entry says", () => {
    const sim = createPowerContextSimulator({
      seed: 3,
      clock: new ManualClock(),
      principals: {
        tokens: {
          "pc-admin": { static: true, principal: { type: "service", id: "admin", description: "CI administrator" } },
        },
      },
    });
    expect(call(sim, "get_access_principal").body.principal).toEqual({
      type: "service",
      id: "admin",
      description: "CI administrator",
    });
  });

  it("names the static bearer as the release does when its entry gives no principal", () => {
    const sim = createPowerContextSimulator({ seed: 3, clock: new ManualClock(), principals: defaultPrincipals });
    expect(call(sim, "get_access_principal").body.principal).toEqual(admin);
  });
});

describe("the audit's size", () => {
  it("keeps the newest AUDIT_LOG_SIZE events, so requests that change nothing cannot grow it without bound", () => {
    const sim = createPowerContextSimulator({ seed: 3, clock: new ManualClock(), scopes: ["s1"] });
    for (let i = 0; i < AUDIT_LOG_SIZE + 500; i += 1)
      expect(call(sim, "flush_memory", { scope_id: "s1" }).status).toBe(200);
    const events: Record<string, unknown>[] = [];
    let cursor: string | null = null;
    do {
      const page = valid(
        "list_access_audit",
        call(sim, "list_access_audit", {
          resource: { type: "scope", scope_id: "s1" },
          limit: 100,
          ...(cursor === null ? {} : { cursor }),
        }),
      ).body as { items: Record<string, unknown>[]; next_cursor: string | null };
      events.push(...page.items);
      cursor = page.next_cursor;
    } while (cursor !== null && events.length <= AUDIT_LOG_SIZE + 500);
    expect(AUDIT_LOG_SIZE).toBe(10_000);
    // Each listing request is audited too: the pages see the events it adds behind the oldest kept.
    expect(events.length).toBeGreaterThanOrEqual(AUDIT_LOG_SIZE);
    expect(events.length).toBeLessThanOrEqual(AUDIT_LOG_SIZE + 101);
    // The oldest are gone, the newest flush is there.
    expect(events[0]?.cursor).toBeGreaterThan(500);
    expect(events.some((event) => event.operation === "flush_memory")).toBe(true);
  }, 60_000);
});
