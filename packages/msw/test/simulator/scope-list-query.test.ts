import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator } from "../../src/simulator/simulator.js";
import { isReset } from "../../src/simulator/types.js";

/** `list_scopes` reads a blank query as none and wants a query and its field together, as a 1.4.1 server does. */
describe("list_scopes query and query_field", () => {
  const sim = createPowerContextSimulator({ scopes: ["notes-a", "notes-b"], clock: new ManualClock(), seed: 6 });
  const list = (query: Record<string, string>) => {
    const outcome = sim.handle("list_scopes", { token: "pc-admin", query });
    if (isReset(outcome)) throw new Error("unexpected reset");
    return outcome as { status: number; body: any };
  };
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
