import { TEST_SCOPES } from "../support/scopes.js";
import { describe, expect, it } from "vitest";
import { createPowerContextSimulator } from "../../src/simulator/simulator.js";
import { defaultPrincipals } from "../../src/simulator/access/principals.js";
import { describeDemo, prepareDemo } from "../../src/server/demo.js";

describe("powercontext-mock serve --demo", () => {
  it("leaves a blocked scope and a failed operation that the contract reports as such", () => {
    const simulator = createPowerContextSimulator({ scopes: TEST_SCOPES, seed: 1 });
    const demo = prepareDemo(simulator, defaultPrincipals);

    const status = simulator.handle("get_topic_memory_processing_status", {
      token: "pc-reader",
      body: { scope_id: demo.blockedScopeId },
    });
    expect(status).toMatchObject({
      status: 200,
      body: { state: "blocked", block: { block_id: demo.blockId, retried_at: null } },
    });

    const operation = simulator.handle("get_operation", {
      token: "pc-reader",
      params: { operation_id: demo.operationId },
    });
    expect(operation).toMatchObject({ status: 200, body: { status: "failed", version: demo.operationVersion } });

    const lines = describeDemo(demo, "http://127.0.0.1:4010").join("\n");
    expect(lines).toContain("POWERCONTEXT_CLIENT_SERVER_URL=http://127.0.0.1:4010");
    expect(lines).toContain(`memory flush --scope-id ${demo.failedScopeId}`);
    expect(lines).toContain(`topic-memory retry --scope-id ${demo.blockedScopeId} ${demo.blockId}`);
    expect(lines).toContain(`operations retry ${demo.operationId} --expected-version ${demo.operationVersion}`);
    expect(lines).not.toContain("pc-admin");
  });

  it.each([0, 1, 1000])(
    "prepares the same state with a wait budget of %d ms, and serves that budget afterwards",
    (waitBudgetMs) => {
      const simulator = createPowerContextSimulator({ scopes: TEST_SCOPES, seed: 1, waitBudgetMs });
      const demo = prepareDemo(simulator, defaultPrincipals);
      const operation = simulator.handle("get_operation", {
        token: "pc-reader",
        params: { operation_id: demo.operationId },
      });
      expect(operation).toMatchObject({ status: 200, body: { status: "failed", version: demo.operationVersion } });
      // A flush after the set-up waits as long as the server was told to: 0 and 1 ms answer 202, 1000 ms the result.
      const scopeId = simulator.controls.addScope("after-demo");
      simulator.handle("capture_content_source", {
        token: "pc-writer",
        body: { scope_id: scopeId, source_id: "s-1", content: "later" },
      });
      const flush = simulator.handle("flush_memory", { token: "pc-writer", body: { scope_id: scopeId } });
      expect(flush).toMatchObject({ status: waitBudgetMs >= 500 ? 200 : 202 });
    },
  );

  it("refuses principals that cannot write the set-up", () => {
    const simulator = createPowerContextSimulator({
      scopes: TEST_SCOPES,
      seed: 1,
      principals: { tokens: { r: { name: "r", scopes: { "*": ["scope.read"] } } } },
    });
    expect(() => prepareDemo(simulator, { tokens: { r: { name: "r", scopes: { "*": ["scope.read"] } } } })).toThrow(
      /scope.contribute/,
    );
  });
});
