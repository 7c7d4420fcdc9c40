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
