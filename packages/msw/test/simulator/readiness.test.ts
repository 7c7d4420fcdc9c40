import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator } from "../../src/simulator/simulator.js";
import { contractProblems } from "../support/contract.js";
import { call } from "../support/flat-call.js";

/** get_readiness reports the checks a release with static tokens and enforced access reports, by the same names. */
describe("get_readiness", () => {
  it("names the release's checks, ready or not", () => {
    const sim = createPowerContextSimulator({ seed: 2, clock: new ManualClock() });
    const ready = call(sim, "get_readiness", {}, null);
    expect(contractProblems("get_readiness", ready.status, { ...ready.headers }, ready.body)).toEqual([]);
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe("ready");
    expect(Object.keys(ready.body.checks).sort()).toEqual([
      "access_artifact_families",
      "access_mode",
      "access_provider",
      "access_resource_kinds",
      "artifact_processing_supervisor",
      "authentication_provider",
      "database",
      "runtime",
    ]);
    expect(ready.body.checks).toMatchObject({ runtime: "ready", database: "ready", access_mode: "enforced" });
    sim.controls.setReady(false);
    const down = call(sim, "get_readiness", {}, null);
    expect([down.status, down.body.status, down.body.checks.runtime, down.body.checks.database]).toEqual([
      503,
      "not_ready",
      "not_ready",
      "not_ready",
    ]);
  });
});
