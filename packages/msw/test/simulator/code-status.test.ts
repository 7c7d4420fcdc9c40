import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator } from "../../src/simulator/simulator.js";
import { asAdmin } from "../support/world.js";
import { TEST_SCOPES } from "../support/scopes.js";

/** The code index of a default 1.4.1 install is disabled: its status says so and why; every other query is refused. */
describe("query_code on a default install", () => {
  const sim = createPowerContextSimulator({ scopes: TEST_SCOPES, clock: new ManualClock(), seed: 2 });
  const query = (operation: unknown) => {
    return asAdmin(sim, "query_code", { params: { scope_id: "s1" }, body: { operation } });
  };

  it("answers a status query with the disabled status and its reason", () => {
    expect(query({ kind: "status" })).toMatchObject({
      status: 200,
      body: { scope_id: "s1", status: "disabled", fingerprint: null, reason: "code_disabled" },
    });
  });

  it("refuses any other query as code_disabled", () => {
    const answer = query({ kind: "map" });
    expect([answer.status, (answer.body as any).error.code]).toEqual([503, "code_disabled"]);
  });
});
