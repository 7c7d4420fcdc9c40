import { TEST_SCOPES } from "../support/scopes.js";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createPowerContextHandlers } from "../../src/handlers/create-handlers.js";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator, type PowerContextSimulator } from "../../src/simulator/simulator.js";
import { contractProblems } from "../support/contract.js";

const baseUrl = "http://pc.mock.test";
let sim: PowerContextSimulator;
let clock: ManualClock;
const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function use(options: Parameters<typeof createPowerContextSimulator>[0] = {}) {
  clock = new ManualClock();
  sim = createPowerContextSimulator({ scopes: TEST_SCOPES, clock, ...options });
  server.use(...createPowerContextHandlers(sim, { baseUrl }));
}

async function post(path: string, body: unknown, token: string | null = "pc-admin") {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(baseUrl + path, { method: "POST", headers, body: JSON.stringify(body) });
  return { status: res.status, headers: Object.fromEntries(res.headers), body: (await res.json()) as unknown };
}

describe("msw handlers", () => {
  it("answer through the simulator with request ids and absolute Location on 202", async () => {
    use({ waitBudgetMs: 0 });
    await post("/v1/sources/content", { scope_id: "s1", source_id: "a", content: "alpha" });
    const accepted = await post("/v1/memory/flush", { scope_id: "s1" });
    expect(accepted.status).toBe(202);
    const id = (accepted.body as { operation_id: string }).operation_id;
    expect(accepted.headers.location).toBe(`${baseUrl}/v1/operations/${id}`);
    expect(contractProblems("flush_memory", 202, accepted.headers, accepted.body)).toEqual([]);
    const op = await fetch(accepted.headers.location as string, { headers: { Authorization: "Bearer pc-admin" } });
    expect(op.status).toBe(200);
    expect(op.headers.get("x-powercontext-request-id")).toMatch(/^req_/);
  });

  it("turn a reset fault into a network error and a malformed fault into unparseable bytes", async () => {
    use();
    sim.controls.injectFault({ operationId: "get_capabilities", action: { type: "reset", when: "before" } });
    await expect(
      fetch(`${baseUrl}/v1/capabilities`, { headers: { Authorization: "Bearer pc-admin" } }),
    ).rejects.toThrow();
    sim.controls.injectFault({ operationId: "get_capabilities", action: { type: "malformed" } });
    const broken = await fetch(`${baseUrl}/v1/capabilities`, { headers: { Authorization: "Bearer pc-admin" } });
    expect(broken.status).toBe(200);
    await expect(broken.json()).rejects.toThrow();
  });

  it("accept one of N parallel retries of a block and return N identical receipts", async () => {
    use({ seed: 5 });
    sim.controls.setProcessingEnabled(false);
    await post("/v1/sources/content", { scope_id: "s1", source_id: "a", content: "alpha" });
    sim.controls.exhaustTopicBudget("s1");
    sim.controls.setProcessingEnabled(true);
    const blockId = sim.inspect.blocks("s1")[0]!.block_id;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => post("/v1/topic-memory/processing/retry", { scope_id: "s1", block_id: blockId })),
    );
    expect(new Set(answers.map((a) => JSON.stringify([a.status, a.body]))).size).toBe(1);
    expect(sim.inspect.acceptances(blockId)).toBe(1);
  });
});
