import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator } from "../../src/simulator/simulator.js";
import { simOperations } from "../../src/simulator/contract/operation-table.js";
import { keptRequest } from "../../src/simulator/contract/model-rules.js";
import { flatRequest } from "../../src/simulator/contract/request-check.js";
import { asAdmin } from "../support/world.js";

/**
 * Optional members the release's request models read as left out when sent as null
 * (`null-as-absent` rules, docs/architecture.md "Model rules"): the mock answers such a
 * request as the one without the member, where it refused it before.
 */
describe("members read as left out when null", () => {
  const sim = createPowerContextSimulator({ scopes: ["s1"], clock: new ManualClock(), seed: 4 });
  const same = (operationId: Parameters<typeof asAdmin>[1], body: Record<string, unknown>, member: string) => {
    const without = asAdmin(sim, operationId, { body });
    const withNull = asAdmin(sim, operationId, { body: { ...body, [member]: null } });
    expect(without.status).toBe(200);
    expect({ status: withNull.status, body: withNull.body }).toEqual({ status: without.status, body: without.body });
  };

  it("answers a search, a list and a tag query as without the member", () => {
    asAdmin(sim, "remember_memory", {
      body: { scope_id: "s1", entries: [{ kind: "fact", text: "leases renew hourly" }] },
    });
    same("search_memory", { scope_id: "s1", query: "leases" }, "tag_filter");
    same("list_memory_entries", { scope_id: "s1" }, "tag_filter");
    for (const member of ["states", "tags", "tag_match"]) same("list_atomic_memories", { scope_id: "s1" }, member);
    for (const member of ["tags", "tag_match"])
      same("search_atomic_memory", { scope_id: "s1", query: "leases" }, member);
    for (const member of ["families", "target_types"])
      same("query_artifact_tags", { scope_id: "s1", tags: ["ops"] }, member);
    same("prepare_context", { scope_id: "s1", query: "leases" }, "bootstrap_receipt_id");
  });

  it("still refuses null where the model does not take it", () => {
    expect(asAdmin(sim, "search_memory", { body: { scope_id: "s1", query: "leases", limit: null } }).status).toBe(422);
    expect(asAdmin(sim, "prepare_context", { body: { scope_id: "s1", query: "q", assembly: null } }).status).toBe(422);
  });
});

describe("the request the mock goes on with (keptRequest)", () => {
  it("leaves a member read as absent out of the body, not undefined beside the others", () => {
    const op = simOperations.search_memory;
    const request = { body: { scope_id: "s1", query: "q", tag_filter: null } };
    const kept = keptRequest(op, request, flatRequest(op, request));
    expect(Object.keys(kept.body as object)).toEqual(["scope_id", "query"]);
  });

  it("gives a trimmed query value to both views of the query", () => {
    const op = simOperations.list_scopes;
    const request = {
      query: { query: " org ", query_field: "title" },
      queryAll: { query: [" org "], query_field: ["title"] },
    };
    const kept = keptRequest(op, request, flatRequest(op, request));
    expect([kept.query?.query, kept.queryAll?.query]).toEqual(["org", ["org"]]);
  });
});
