import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator } from "../../src/simulator/simulator.js";
import { asAdmin } from "../support/world.js";

/** `list_scopes` reads a blank query as none and wants a query and its field together, as a 1.4.1 server does. */
describe("list_scopes query and query_field", () => {
  const sim = createPowerContextSimulator({ scopes: ["notes-a", "notes-b"], clock: new ManualClock(), seed: 6 });
  const list = (query: Record<string, string>): { status: number; body: any } => asAdmin(sim, "list_scopes", { query });
  const together = {
    code: "invalid_request",
    details: { field: "query", reason: "query and query_field must be provided together" },
  };

  it.each([
    ["a field without a query", { query_field: "title" }],
    ["a field with a blank query", { query: "  ", query_field: "title" }],
    ["a query without its field", { query: "notes" }],
  ])("refuses %s", (_name, query) => {
    expect(list(query)).toMatchObject({ status: 422, body: { error: together } });
  });

  it("accepts both, or a blank query alone, which reads as none", () => {
    expect(list({ query: " notes-a ", query_field: "title" }).status).toBe(200);
    expect(list({ query: " " }).status).toBe(200);
    expect(list({}).status).toBe(200);
  });
});

/** `list_scopes` by the Scopes' host bindings (`set_scope_binding`), as a 1.4.1 server filters them. */
describe("list_scopes binding filters", () => {
  const sim = createPowerContextSimulator({
    scopes: ["repo-a", "repo-b", "unbound"],
    clock: new ManualClock(),
    seed: 6,
  });
  const bind = (integration: string, kind: string, external_id: string, scope_id: string) =>
    expect(
      asAdmin(sim, "set_scope_binding", { body: { key: { integration, kind, external_id }, scope_id } }).status,
    ).toBe(200);
  bind("gh", "repo", "org/x", "repo-a");
  bind("gh", "issue", "org/y", "repo-b");
  bind("jira", "repo", "proj/z", "repo-b");
  const ids = (query: Record<string, string>): string[] => {
    const answer = asAdmin(sim, "list_scopes", { query });
    expect(answer.status).toBe(200);
    return answer.body.items.map((scope: { scope_id: string }) => scope.scope_id);
  };

  it("keeps the Scopes with a binding of that integration or kind", () => {
    expect(ids({ binding_kind: "repo" })).toEqual(["repo-a", "repo-b"]);
    expect(ids({ binding_integration: "jira" })).toEqual(["repo-b"]);
    expect(ids({ binding_kind: "nothing" })).toEqual([]);
  });

  it("wants one binding to match every binding filter", () => {
    expect(ids({ binding_integration: "gh", binding_kind: "repo" })).toEqual(["repo-a"]);
    // repo-b has a jira binding and an issue binding, but no jira issue binding.
    expect(ids({ binding_integration: "jira", binding_kind: "issue" })).toEqual([]);
    expect(ids({ query_field: "binding_external_id", query: "z", binding_integration: "gh" })).toEqual([]);
  });

  it("looks the query's words up in the bindings' external ids, without the whitespace around them", () => {
    expect(ids({ query_field: "binding_external_id", query: "org" })).toEqual(["repo-a", "repo-b"]);
    expect(ids({ query_field: "binding_external_id", query: " z " })).toEqual(["repo-b"]);
    expect(ids({ query_field: "title", query: " repo-a " })).toEqual(["repo-a"]);
  });

  it("forgets a cleared binding", () => {
    expect(
      asAdmin(sim, "clear_scope_binding", { body: { key: { integration: "gh", kind: "repo", external_id: "org/x" } } })
        .body,
    ).toEqual({ cleared: true });
    expect(ids({ binding_kind: "repo" })).toEqual(["repo-b"]);
  });
});
