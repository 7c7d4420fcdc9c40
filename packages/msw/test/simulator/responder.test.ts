import { describe, expect, it } from "vitest";
import { simOperationIds, simOperations } from "../../src/simulator/contract/operation-table.js";
import { operationHandlers } from "../../src/simulator/operation-handlers.js";
import { createPowerContextSimulator } from "../../src/simulator/simulator.js";
import { isReset, type SimOutcome } from "../../src/simulator/types.js";
import { contractProblems } from "../support/contract.js";
import { sampledRequest } from "../support/requests.js";
import { TEST_SCOPES } from "../support/scopes.js";

/** The deterministic responder and the override API, on operations the simulator keeps no state for. */
const admin = { token: "pc-admin" };

function answer(outcome: SimOutcome) {
  if (isReset(outcome)) throw new Error("unexpected reset");
  return outcome;
}

describe("deterministic responder", () => {
  it("answers the same body for the same seed, valid for its status", () => {
    const [a, b, other] = [9, 9, 10].map((seed) => createPowerContextSimulator({ seed, scopes: TEST_SCOPES }));
    // An operation the simulator keeps no state for, answered by the responder.
    const id = simOperationIds.find(
      (op) =>
        !(op in operationHandlers) &&
        simOperations[op].resource === null &&
        simOperations[op].refusals.length === 0 &&
        simOperations[op].method === "GET",
    )!;
    const request = { ...admin, ...sampledRequest(id) };
    const first = answer(a.handle(id, request));
    expect(simOperations[id].successStatuses).toContain(first.status);
    expect(contractProblems(id, first.status, first.headers, first.body)).toEqual([]);
    expect(answer(b.handle(id, request)).body).toEqual(first.body);
    expect(answer(a.handle(id, request)).body).toEqual(first.body);
    // Seeded members (hashes, ids) differ with the seed somewhere in the contract.
    const differs = simOperationIds.some((id) => {
      try {
        const r = { ...admin, ...sampledRequest(id) };
        return JSON.stringify(answer(a.handle(id, r)).body) !== JSON.stringify(answer(other.handle(id, r)).body);
      } catch {
        return false;
      }
    });
    expect(differs).toBe(true);
  });

  it("sends every member the body declares, as the release's models serialise them: an optional nullable one as null", () => {
    const sim = createPowerContextSimulator({ seed: 9, scopes: TEST_SCOPES });
    // flush_profile keeps no state; its artifact and candidate_id are optional and nullable.
    expect("flush_profile" in operationHandlers || simOperations.flush_profile.resource !== null).toBe(false);
    const flushed = answer(sim.handle("flush_profile", { ...admin, body: { scope_id: TEST_SCOPES[0] } }));
    expect(flushed.status).toBe(200);
    const body = flushed.body as Record<string, unknown>;
    for (const member of ["artifact", "candidate_id"]) {
      expect(Object.hasOwn(body, member), member).toBe(true);
      expect(body[member], member).toBeNull();
    }
  });
});

describe("sim.override", () => {
  it("answers with the override after the contract checks, and stops when removed", () => {
    const sim = createPowerContextSimulator({ seed: 9 });
    const request = { ...admin, ...sampledRequest("get_scope") };
    const body = {
      scope_id: "team",
      title: "Team",
      summary: "Our scope",
      context_references: [],
      external_references: [],
      version: 7,
    };
    const remove = sim.override("get_scope", () => ({ status: 200, body }));
    expect(answer(sim.handle("get_scope", request)).body).toEqual(body);
    expect(answer(sim.handle("get_scope", { ...request, token: null })).status).toBe(401);
    const notFound = sim.override("get_scope", () => ({
      status: 404,
      body: { error: { code: "scope_not_found", message: "No such scope.", details: null } },
    }));
    const missing = answer(sim.handle("get_scope", request));
    expect(missing.status).toBe(404);
    expect(contractProblems("get_scope", 404, missing.headers, missing.body)).toEqual([]);
    remove(); // replaced already: removing the first one leaves the second
    expect(answer(sim.handle("get_scope", request)).status).toBe(404);
    notFound();
    expect(answer(sim.handle("get_scope", request)).body).not.toEqual(body);
  });

  it("turns an undeclared status from an untyped caller into a 500 internal_error, and an unknown operation into an error", () => {
    const sim = createPowerContextSimulator();
    const untyped = sim.override as unknown as (id: string, handler: () => unknown) => () => void;
    untyped("get_scope", () => ({ status: 201, body: {} }));
    const failed = answer(sim.handle("get_scope", { ...admin, ...sampledRequest("get_scope") }));
    // get_scope declares no 500; the internal error is still a 500, as the release sends it.
    expect(simOperations.get_scope.responses.some((r) => r.status === 500)).toBe(false);
    expect(failed.status).toBe(500);
    expect((failed.body as { error: { code: string } }).error.code).toBe("internal_error");
    expect(() => untyped("get_scopes", () => ({ status: 200 }))).toThrow(/unknown operation/);
    expect(simOperations.get_scope.successStatuses).toEqual([200]);
  });
});

describe("an answer that leaves out what the server did not set (x-powercontext-exclude-unset)", () => {
  it("carries no optional member the request did not make the server set, where others send it as null", () => {
    const sim = createPowerContextSimulator({ seed: 9, scopes: TEST_SCOPES });
    const excluding = simOperationIds.filter((id) => simOperations[id].excludeUnset);
    expect(excluding).toEqual(expect.arrayContaining(["prepare_context", "prepare_handoff_hint"]));
    for (const id of excluding) {
      const reply = answer(sim.handle(id, { ...admin, ...sampledRequest(id) }));
      expect(reply.status, id).toBe(200);
      expect(Object.hasOwn(reply.body as object, "reason"), id).toBe(false);
      expect(contractProblems(id, reply.status, reply.headers, reply.body)).toEqual([]);
    }
  });
});
