import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator } from "../../src/simulator/simulator.js";
import { contractProblems } from "../support/contract.js";
import { call, type Reply } from "../support/flat-call.js";

/**
 * Scope bindings kept as state, as the release keeps them: set binds a host
 * identity to a Scope, resolve finds the Scope of the first key that has a
 * binding (else the default Scope), clear drops the binding and says whether
 * there was one.
 */
function valid(operationId: Parameters<typeof call>[1], reply: Reply): Reply {
  expect(contractProblems(operationId, reply.status, { ...reply.headers }, reply.body), operationId).toEqual([]);
  return reply;
}

const key = { integration: "ci", kind: "workspace", external_id: "ws-1" };
const other = { integration: "ci", kind: "workspace", external_id: "ws-2" };

describe("scope bindings", () => {
  it("binds, resolves, clears and falls back to the default Scope", () => {
    const sim = createPowerContextSimulator({ seed: 4, clock: new ManualClock(), scopes: ["s1", "s2"] });
    const fallback = call(sim, "get_default_scope").body.scope_id;
    const set = valid("set_scope_binding", call(sim, "set_scope_binding", { key, scope_id: "s1" }));
    expect(set.body).toEqual({ key, scope_id: "s1" });
    const resolve = (flat: Record<string, unknown>) =>
      valid("resolve_scope_binding", call(sim, "resolve_scope_binding", flat));
    expect(resolve({ binding_keys: [other, key] }).body.scope_id).toBe("s1");
    // Set again: the binding now names the other Scope.
    valid("set_scope_binding", call(sim, "set_scope_binding", { key, scope_id: "s2" }));
    expect(resolve({ binding_keys: [key] }).body.scope_id).toBe("s2");
    expect(resolve({ binding_keys: [key], explicit_scope_id: "s1" }).body.scope_id).toBe("s1");

    expect(valid("clear_scope_binding", call(sim, "clear_scope_binding", { key })).body).toEqual({ cleared: true });
    expect(call(sim, "clear_scope_binding", { key }).body).toEqual({ cleared: false });
    expect(resolve({ binding_keys: [key] }).body.scope_id).toBe(fallback);
    const none = call(sim, "resolve_scope_binding", { binding_keys: [key], allow_default: false });
    expect([none.status, none.code]).toEqual([404, "scope_not_found"]);
    const unknown = call(sim, "set_scope_binding", { key, scope_id: "scp_unknown" });
    expect([unknown.status, unknown.code]).toEqual([404, "scope_not_found"]);
  });
});
