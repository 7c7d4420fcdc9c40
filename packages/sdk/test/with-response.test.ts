// Raw access beside the parsed result: every method's CallPromise resolves to the
// parsed body when awaited, and `withResponse()` gives the same call's status,
// headers, request id and attempt count, against the embedded mock server.
import { startMockServer, type MockServer } from "@powercontext/msw/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallPromise, NotFoundError } from "@powercontext/runtime";
import { PowerContextClient } from "../src/client.js";

let server: MockServer;
let client: PowerContextClient;
beforeAll(async () => {
  server = await startMockServer({
    seed: 3,
    simulatorOptions: { scopes: ["raw", "raw-flush"], waitBudgetMs: 0, flushTiming: { queuedMs: 20, runningMs: 20 } },
  });
  client = new PowerContextClient({
    baseUrl: server.url,
    token: "pc-admin",
    minPollIntervalMs: 5,
    maxPollIntervalMs: 10,
    retry: { baseDelayMs: 1, maxDelayMs: 2 },
  });
});
afterAll(() => server.close());

describe("withResponse()", () => {
  it("gives the parsed body and the response it came from; awaiting gives the same body", async () => {
    const call = client.captureContentSource({ scope_id: "raw", source_id: "s-1", content: "hello" });
    expect(call).toBeInstanceOf(CallPromise);
    expect(call).toBeInstanceOf(Promise);
    const [awaited, { data, response }] = await Promise.all([call, call.withResponse()]);
    expect(data).toEqual(awaited);
    expect(data.source.source_id).toBe("s-1");
    expect(response.status).toBe(202);
    expect(response.requestId).toMatch(/\S/);
    expect(response.headers.get("x-powercontext-request-id")).toBe(response.requestId);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    expect(response.attempts).toBe(1);
    expect(response.url).toBe(`${server.url}/v1/sources/content`);
    expect(response.reconciled).toBe(false);
    // One call, one request, whichever form was used.
    expect(server.simulator.inspect.requestCount()).toBe(1);
  });

  it("counts the attempts of a call that was retried", async () => {
    server.simulator.controls.injectFault({
      operationId: "get_capabilities",
      times: 2,
      action: { type: "status", status: 503, retryAfterS: 0 },
    });
    const { response } = await client.getCapabilities().withResponse();
    expect(response.status).toBe(200);
    expect(response.attempts).toBe(3);
  });

  it("describes the submission of an operation that was polled to completion", async () => {
    await client.captureContentSource({ scope_id: "raw-flush", source_id: "a", content: "one" });
    const { data, response } = await client
      .flushMemory({ scope_id: "raw-flush" }, { deadlineMs: 10_000 })
      .withResponse();
    expect(data.status).toBe("processed");
    expect(response.status).toBe(202);
    expect(new URL(response.headers.get("location")!, server.url).pathname).toMatch(/^\/v1\/operations\//);
    const submitted = await client.submitFlushMemory({ scope_id: "raw-flush" }).withResponse();
    expect(submitted.response.status).toBe(submitted.data.status);
    expect(submitted.response.requestId).toBe(submitted.data.requestId);
  });

  it("rejects withResponse() and the await with the same error", async () => {
    const call = client.getOperation({ operation_id: "op_missing" });
    const [awaited, raw] = await Promise.allSettled([call, call.withResponse()]);
    expect(awaited.status === "rejected" && awaited.reason).toBeInstanceOf(NotFoundError);
    expect(raw.status === "rejected" && raw.reason).toBe(awaited.status === "rejected" ? awaited.reason : null);
  });

  it("is available through request(operationId) and chains into plain promises", async () => {
    const call = client.request("get_capabilities", {});
    const chained = call.then((body) => typeof body);
    expect(chained).not.toBeInstanceOf(CallPromise);
    await expect(chained).resolves.toBe("object");
    expect((await call.withResponse()).response.status).toBe(200);
  });
});
