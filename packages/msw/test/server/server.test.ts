import { TEST_SCOPES } from "../support/scopes.js";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator } from "../../src/simulator/simulator.js";
import { startMockServer, type MockServer } from "../../src/server/start.js";
import { contractProblems } from "../support/contract.js";

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function call(path: string, token: string | null, body?: unknown, method = "POST") {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(server!.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: Object.fromEntries(res.headers),
    body: text ? (JSON.parse(text) as unknown) : null,
    text,
  };
}

async function blockedServer() {
  const sim = createPowerContextSimulator({ scopes: TEST_SCOPES, clock: new ManualClock(), seed: 9 });
  server = await startMockServer({ simulator: sim });
  sim.controls.setProcessingEnabled(false);
  for (let i = 1; i <= 3; i += 1)
    await call("/v1/sources/content", "pc-admin", { scope_id: "s1", source_id: `s${i}`, content: `note ${i}` });
  sim.controls.exhaustTopicBudget("s1");
  sim.controls.setProcessingEnabled(true);
  const status = await call("/v1/topic-memory/processing/status", "pc-admin", { scope_id: "s1" });
  return { sim, blockId: (status.body as { block: { block_id: string } }).block.block_id };
}

describe("embedded mock server", () => {
  it("listens on a free loopback port and stamps every response with a request id", async () => {
    server = await startMockServer({ port: 0 });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const live = await call("/health/live", null, undefined, "GET");
    const missing = await call("/nowhere", "pc-admin", undefined, "GET");
    expect(live.status).toBe(200);
    expect(live.headers["x-powercontext-request-id"]).toBeTruthy();
    expect(missing.status).toBe(404);
    expect(missing.headers["x-powercontext-request-id"]).toBeTruthy();
    expect(live.headers["x-powercontext-request-id"]).not.toBe(missing.headers["x-powercontext-request-id"]);
  });

  it("maps a missing token to 401 and a missing permission to 403, without echoing the token", async () => {
    server = await startMockServer();
    const anonymous = await call("/v1/memory/flush", null, { scope_id: "s1" });
    const reader = await call("/v1/memory/flush", "pc-reader", { scope_id: "s1" });
    const wrong = await call("/v1/capabilities", "secret-token-xyz", undefined, "GET");
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers["www-authenticate"]).toBe("Bearer");
    expect(anonymous.body).toEqual({
      error: { code: "unauthorized", message: "A valid credential is required.", details: null },
    });
    expect(reader.status).toBe(403);
    // As on the release: the 403 names nothing.
    expect(reader.body).toEqual({
      error: { code: "forbidden", message: "The Principal is not authorized for this operation.", details: null },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.text).not.toContain("secret-token-xyz");
    expect(contractProblems("flush_memory", 403, reader.headers, reader.body)).toEqual([]);
  });

  it("answers CORS preflight and exposes the contract headers when asked to (cors: true)", async () => {
    server = await startMockServer({ cors: true });
    const res = await fetch(`${server.url}/v1/memory/flush`, {
      method: "OPTIONS",
      headers: { Origin: "http://page.test", "Access-Control-Request-Method": "POST" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")).toContain("Authorization");
    const live = await fetch(`${server.url}/health/live`);
    expect(live.headers.get("access-control-expose-headers")).toContain("X-PowerContext-Request-ID");
  });

  it("drops the connection for a reset fault, after applying the request when asked", async () => {
    const { sim, blockId } = await blockedServer();
    sim.controls.injectFault({
      operationId: "retry_topic_memory_processing",
      action: { type: "reset", when: "after" },
    });
    await expect(
      call("/v1/topic-memory/processing/retry", "pc-admin", { scope_id: "s1", block_id: blockId }),
    ).rejects.toThrow();
    expect(sim.inspect.acceptances(blockId)).toBe(1);
    const replay = await call("/v1/topic-memory/processing/retry", "pc-admin", { scope_id: "s1", block_id: blockId });
    expect(replay.status).toBe(200);
    expect(sim.inspect.acceptances(blockId)).toBe(1);
  });

  it("accepts one of N parallel retries of a block and returns N identical receipts", async () => {
    const { sim, blockId } = await blockedServer();
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        call("/v1/topic-memory/processing/retry", "pc-admin", { scope_id: "s1", block_id: blockId }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(new Set(results.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(sim.inspect.acceptances(blockId)).toBe(1);
    expect(sim.inspect.budgetsGranted("s1")).toBe(1);
    for (const r of results)
      expect(contractProblems("retry_topic_memory_processing", 200, r.headers, r.body)).toEqual([]);
  });

  it("closes gracefully: in-flight requests finish, then the port refuses", async () => {
    server = await startMockServer();
    server.simulator.controls.injectFault({ operationId: "get_liveness", action: { type: "delay", ms: 150 } });
    const inFlight = call("/health/live", null, undefined, "GET");
    while (server.simulator.inspect.requestCount() === 0) await new Promise((resolve) => setImmediate(resolve));
    const url = server.url;
    await Promise.all([server.close(), expect(inFlight).resolves.toMatchObject({ status: 200 })]);
    server = undefined;
    await expect(fetch(`${url}/health/live`)).rejects.toThrow();
  });
});
