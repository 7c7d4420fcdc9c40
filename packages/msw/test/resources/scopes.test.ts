import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator, type PowerContextSimulator } from "../../src/simulator/simulator.js";
import { call } from "../support/flat-call.js";

/**
 * Scopes as the release keeps them: the hierarchy's rules (no Scope its own
 * parent, no cycle, no reference to itself or to a Scope that is not there),
 * a request model that refuses a string with a lone surrogate, and
 * list_scopes filtered by what the request names.
 */
function fresh(): PowerContextSimulator {
  return createPowerContextSimulator({ seed: 5, clock: new ManualClock() });
}

function create(sim: PowerContextSimulator, key: string, more: Record<string, unknown> = {}) {
  const reply = call(sim, "create_scope", { title: key, summary: `Scope ${key}`, idempotency_key: key, ...more });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body as { scope_id: string; version: number };
}

const unknownScope = "scp_00000000000000000000000000";

describe("the Scope hierarchy", () => {
  it("refuses a Scope as its own parent, a parent below it and a reference to itself, with the relationship and the rule", () => {
    const sim = fresh();
    const parent = create(sim, "parent");
    const child = create(sim, "child", { parent_scope_id: parent.scope_id });
    const grandchild = create(sim, "grandchild", { parent_scope_id: child.scope_id });
    const update = (more: Record<string, unknown>) =>
      call(sim, "update_scope", {
        scope_id: parent.scope_id,
        expected_version: parent.version,
        title: "parent",
        summary: "changed",
        ...more,
      });
    expect(update({ parent_scope_id: parent.scope_id })).toMatchObject({
      status: 422,
      code: "invalid_scope_relationship",
      body: { error: { details: { relationship: "Parent", issue: "a Scope cannot parent itself" } } },
    });
    for (const below of [child.scope_id, grandchild.scope_id]) {
      expect(update({ parent_scope_id: below })).toMatchObject({
        status: 422,
        body: { error: { details: { relationship: "Parent", issue: "relationships must be acyclic" } } },
      });
    }
    expect(update({ context_references: [parent.scope_id] })).toMatchObject({
      status: 422,
      body: { error: { details: { relationship: "Context Reference", issue: "a Scope cannot reference itself" } } },
    });
    // nothing above was stored: the fresh version still applies
    expect(update({ context_references: [child.scope_id] }).status).toBe(200);
  });

  it("answers 404 scope_not_found for a context reference to a Scope that is not there", () => {
    const sim = fresh();
    const reply = call(sim, "create_scope", {
      title: "referrer",
      summary: "names nobody",
      context_references: [unknownScope],
      idempotency_key: "referrer",
    });
    expect([reply.status, reply.code]).toEqual([404, "scope_not_found"]);
  });

  it("refuses a string holding a lone surrogate (422 invalid_access_request) and accepts a paired one", () => {
    const sim = fresh();
    const lone = call(sim, "create_scope", { title: "\ud800", summary: "lone", idempotency_key: "lone" });
    expect([lone.status, lone.code]).toEqual([422, "invalid_access_request"]);
    expect(create(sim, "paired", { title: "\ud83d\ude00" }).scope_id).toMatch(/^scp_/);
  });
});

describe("list_scopes filters", () => {
  it("keeps the Scopes whose field named by query_field contains query, or whose references are of the kind asked", () => {
    const sim = fresh();
    create(sim, "needle", { title: "Findable Needle", external_references: [{ kind: "ticket", value: "T-17" }] });
    create(sim, "hay", { title: "Plain hay", external_references: [{ kind: "wiki", value: "W-1" }] });
    const titles = (query: Record<string, unknown>) => {
      const reply = call(sim, "list_scopes", { limit: 10, ...query });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return (reply.body.items as { title: string }[]).map((s) => s.title).sort();
    };
    expect(titles({ query: "Needle", query_field: "title" })).toEqual(["Findable Needle"]);
    expect(titles({ query: "needle", query_field: "title" })).toEqual([]);
    expect(titles({ query: "Needle", query_field: "summary" })).toEqual([]);
    expect(titles({ query: "T-1", query_field: "external_reference_value" })).toEqual(["Findable Needle"]);
    expect(titles({ external_reference_kind: "wiki" })).toEqual(["Plain hay"]);
    expect(titles({ external_reference_kind: "nothing" })).toEqual([]);
  });

  it("matches a reference's kind and text on one reference, not across two", () => {
    const sim = fresh();
    create(sim, "two-refs", {
      title: "Two references",
      external_references: [
        { kind: "git", value: "https://repo.example/a" },
        { kind: "jira", value: "PRJ-1" },
      ],
    });
    const count = (query: Record<string, unknown>) =>
      (call(sim, "list_scopes", { limit: 10, ...query }).body.items as unknown[]).length;
    expect(count({ query: "PRJ", query_field: "external_reference_value", external_reference_kind: "git" })).toBe(0);
    expect(count({ query: "PRJ", query_field: "external_reference_value", external_reference_kind: "jira" })).toBe(1);
  });

  it("refuses query without query_field, and query_field without query (422 invalid_request)", () => {
    const sim = fresh();
    for (const query of [{ query: "x" }, { query_field: "title" }]) {
      const reply = call(sim, "list_scopes", { limit: 10, ...query });
      expect(reply).toMatchObject({
        status: 422,
        code: "invalid_request",
        body: { error: { details: { field: "query", reason: "query and query_field must be provided together" } } },
      });
    }
  });
});
