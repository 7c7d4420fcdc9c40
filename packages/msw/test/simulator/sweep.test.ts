import { describe, expect, it } from "vitest";
import { simOperationIds, simOperations, type SimOperationId } from "../../src/simulator/contract/operation-table.js";
import { INVALID_JSON, isReset, type SimOutcome, type SimRequest } from "../../src/simulator/types.js";
import { contractProblems } from "../support/contract.js";
import { buildWorld, validRequest, type World } from "../support/world.js";

/**
 * Every operation of the contract under every scenario control: each answer
 * must be a status the operation declares, with a body and headers valid
 * for that status; a reset fault drops the connection; a malformed fault
 * sends bytes that do not parse.
 */
interface Scenario {
  readonly name: string;
  readonly arrange?: (world: World, operationId: SimOperationId) => void;
  readonly request?: (request: SimRequest) => SimRequest;
  readonly expect?: "reset" | "malformed";
}

const scenarios: Scenario[] = [
  { name: "admin, valid request" },
  { name: "reader token", request: (r) => ({ ...r, token: "pc-reader" }) },
  { name: "writer token", request: (r) => ({ ...r, token: "pc-writer" }) },
  { name: "anonymous", request: (r) => ({ ...r, token: null }) },
  { name: "unknown token", request: (r) => ({ ...r, token: "not-a-token" }) },
  { name: "unparseable body", request: (r) => ({ ...r, body: INVALID_JSON }) },
  { name: "other scope", request: (r) => JSON.parse(JSON.stringify({ ...r, body: r.body && { ...(r.body as object), scope_id: "s2" }, query: r.query && { ...r.query, scope_id: "s2" } })) },
  { name: "429 fault", arrange: (w) => w.sim.controls.injectFault({ action: { type: "status", status: 429, retryAfterS: 2 } }) },
  { name: "503 fault", arrange: (w) => w.sim.controls.injectFault({ action: { type: "status", status: 503 } }) },
  { name: "delay fault", arrange: (w, id) => w.sim.controls.injectFault({ operationId: id, action: { type: "delay", ms: 5 } }) },
  { name: "reset before", arrange: (w, id) => w.sim.controls.injectFault({ operationId: id, action: { type: "reset", when: "before" } }), expect: "reset" },
  { name: "reset after", arrange: (w, id) => w.sim.controls.injectFault({ operationId: id, action: { type: "reset", when: "after" } }), expect: "reset" },
  { name: "malformed body", arrange: (w, id) => w.sim.controls.injectFault({ operationId: id, action: { type: "malformed" } }), expect: "malformed" },
  { name: "failing flush attempts", arrange: (w) => w.sim.controls.failNextFlushAttempts(5) },
  { name: "failing topic attempts", arrange: (w) => w.sim.controls.failNextTopicAttempts(5) },
  { name: "processing disabled", arrange: (w) => w.sim.controls.setProcessingEnabled(false) },
  { name: "not ready", arrange: (w) => w.sim.controls.setReady(false) },
  { name: "block superseded", arrange: (w) => w.sim.controls.supersedeTopicBlock("s1") },
  { name: "an hour later", arrange: (w) => w.sim.controls.advanceTime(3_600_000) },
  { name: "flush timing slower", arrange: (w) => w.sim.controls.setFlushTiming({ runningMs: 60_000, waitBudgetMs: 0 }) },
];

function check(operationId: SimOperationId, outcome: SimOutcome, scenario: Scenario): void {
  if (scenario.expect === "reset") {
    expect(isReset(outcome)).toBe(true);
    return;
  }
  if (isReset(outcome)) throw new Error(`${operationId}: unexpected reset`);
  expect(simOperations[operationId].statuses).toContain(outcome.status);
  if (scenario.expect === "malformed") {
    expect(() => JSON.parse(outcome.rawBody as string)).toThrow();
    return;
  }
  expect(contractProblems(operationId, outcome.status, outcome.headers, outcome.body)).toEqual([]);
}

describe("contract sweep", () => {
  for (const scenario of scenarios) {
    describe(scenario.name, () => {
      it.each(simOperationIds)("%s", (operationId) => {
        const world = buildWorld();
        scenario.arrange?.(world, operationId);
        const base: SimRequest = { token: "pc-admin", ...validRequest(operationId, world) };
        const outcome = world.sim.handle(operationId, scenario.request ? scenario.request(base) : base);
        check(operationId, outcome, scenario);
      });
    });
  }

  it("maps credentials to 401 and missing permissions to 403", () => {
    const world = buildWorld();
    for (const operationId of simOperationIds) {
      const request = validRequest(operationId, world);
      const anonymous = world.sim.handle(operationId, { ...request, token: null });
      const reader = world.sim.handle(operationId, { ...request, token: "pc-reader" });
      const { authenticated, permission } = simOperations[operationId];
      expect(isReset(anonymous) ? 0 : anonymous.status === 401).toBe(authenticated);
      const denied = !isReset(reader) && reader.status === 403;
      expect(denied).toBe(permission === "scope.write" || permission === "scope.admin");
    }
  });
});
