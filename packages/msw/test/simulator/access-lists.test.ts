import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator, type PowerContextSimulator } from "../../src/simulator/simulator.js";
import type { SimRequest } from "../../src/simulator/types.js";
import type { SimOperationId } from "../../src/simulator/contract/operation-table.js";
import { response } from "../support/world.js";

/**
 * The Access API's lists as a 1.4.1 server answers them, measured against the release:
 * `list_access_resources` lists Scopes that exist (a request naming an unknown one leaves
 * nothing behind) and refuses a cursor it did not hand out; `list_access_audit` refuses a
 * time range that does not start before it ends.
 */
function simulator(): PowerContextSimulator {
  return createPowerContextSimulator({ scopes: ["s1", "s2", "s3"], clock: new ManualClock(), seed: 4 });
}

/** One request with `token` (`pc-admin` by default); the body read as JSON. */
function send(
  sim: PowerContextSimulator,
  operationId: SimOperationId,
  request: SimRequest,
  token = "pc-admin",
): { status: number; body: any } {
  return response(sim.handle(operationId, { token, ...request }));
}

const scopes = (answer: { body: any }) => (answer.body.items as { scope_id: string }[]).map((i) => i.scope_id);
const resources = (sim: PowerContextSimulator, extra: Record<string, unknown> = {}) =>
  send(sim, "list_access_resources", { body: { action: "scope.admin", resource_type: "scope", ...extra } });

describe("list_access_resources", () => {
  it("lists, for an action only the server's roles grant, the Scopes that exist, whatever unknown ids earlier requests named", () => {
    const sim = simulator();
    const before = scopes(resources(sim));
    expect(send(sim, "remember_memory", { body: { scope_id: "nowhere", kind: "k", text: "t" } }).status).toBe(404);
    expect(send(sim, "list_candidates", { body: { scope_id: "gone", status: "pending" } }).status).toBe(404);
    expect(scopes(resources(sim))).toEqual(before);
    expect(before).toEqual(expect.arrayContaining(["s1", "s2", "s3"]));
  });

  it("pages with the cursors it hands out, and refuses any other", () => {
    const sim = simulator();
    const first = resources(sim, { limit: 2 });
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = resources(sim, { limit: 2, cursor: first.body.next_cursor });
    expect(second.status).toBe(200);
    expect([...scopes(first), ...scopes(second)]).toEqual(scopes(resources(sim)).slice(0, 4));
    const cursor = first.body.next_cursor as string;
    const changed = `${cursor.slice(0, -2)}${cursor.endsWith("A") ? "B" : "A"}${cursor.slice(-1)}`;
    // The same values written again with spaces: not the text the list handed out.
    const spaced = Buffer.from(
      JSON.stringify(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")), null, 1),
    ).toString("base64url");
    // An empty cursor is one the list never handed out, not the first page.
    for (const bad of ["plan notes", changed, spaced, ""]) {
      expect(resources(sim, { limit: 2, cursor: bad })).toMatchObject({
        status: 422,
        body: { error: { code: "invalid_access_request" } },
      });
    }
    // A cursor of one action is no cursor of another.
    expect(resources(sim, { action: "scope.read", limit: 2, cursor }).status).toBe(422);
  });
});

describe("list_access_audit", () => {
  it("records each access decision of a request, allowed or not, and the server's audit holds every event", () => {
    const sim = simulator();
    expect(send(sim, "get_scope", { params: { scope_id: "s1" } }).status).toBe(200);
    expect(
      send(
        sim,
        "update_scope",
        { params: { scope_id: "s1" }, body: { expected_version: 1, title: "t", summary: "s" } },
        "pc-reader",
      ).status,
    ).toBe(403);
    const audit = send(sim, "list_access_audit", {
      body: { resource: { type: "server", deployment_id: "powercontext" }, limit: 500 },
    }).body.items as Record<string, any>[];
    const decisions = audit.filter((e) => e.reason_code !== "binding-created");
    expect(decisions.map((e) => [e.operation, e.action, e.resource.type, e.allowed, e.reason_code])).toEqual([
      ["get_scope", "scope.read", "scope", true, "role-binding"],
      ["update_scope", "scope.admin", "scope", false, "no-matching-binding"],
      ["list_access_audit", "server.admin", "server", true, "role-binding"],
      ["list_access_audit", "server.admin", "server", true, "role-binding"],
    ]);
    expect(decisions[1]).toMatchObject({
      principal: { type: "service", id: "reader" },
      matched_subject: null,
      binding_id: null,
    });
    // The static bearer's server roles, bound at start, are no event; its Scope presets are.
    expect(audit.filter((e) => e.resource.type === "server" && e.reason_code === "binding-created")).toEqual([]);
  });

  it("keeps the events of the result and the subject the request names (the Principal who made each request)", () => {
    const sim = simulator();
    expect(send(sim, "get_scope", { params: { scope_id: "s1" } }).status).toBe(200);
    const update = { params: { scope_id: "s1" }, body: { expected_version: 1, title: "t", summary: "s" } };
    expect(send(sim, "update_scope", update, "pc-reader").status).toBe(403);
    const listed = (filter: Record<string, unknown>) =>
      (
        send(sim, "list_access_audit", {
          body: { resource: { type: "scope", scope_id: "s1" }, limit: 500, ...filter },
        }).body.items as Record<string, any>[]
      ).map((e) => [e.operation, e.principal.id, e.allowed]);
    expect(listed({ result: "denied" })).toEqual([["update_scope", "reader", false]]);
    expect(listed({ result: "allowed" }).every(([, , allowed]) => allowed === true)).toBe(true);
    expect(listed({ result: "allowed" })).toContainEqual(["get_scope", "server-token", true]);
    expect(listed({ subject: { type: "service", id: "reader" } })).toEqual([["update_scope", "reader", false]]);
    expect(listed({ subject: { type: "user", id: "reader" } })).toEqual([]);
    expect(listed({ subject: { type: "service", id: "reader" }, result: "allowed" })).toEqual([]);
  });

  const audit = (sim: PowerContextSimulator, start: string, end: string) =>
    send(sim, "list_access_audit", {
      body: { resource: { type: "server", deployment_id: "powercontext" }, time_range: { start, end } },
    });

  it("refuses a time range that does not start before it ends", () => {
    const sim = simulator();
    expect(audit(sim, "2030-02-01T00:00:00Z", "2030-01-01T00:00:00Z")).toMatchObject({
      status: 422,
      body: { error: { code: "invalid_access_request" } },
    });
    expect(audit(sim, "2030-01-01T01:00:00+01:00", "2030-01-01T00:00:00Z").status).toBe(422);
    expect(audit(sim, "2030-01-01T00:00:00Z", "2030-02-01T00:00:00Z").status).toBe(200);
  });
});
