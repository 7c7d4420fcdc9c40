import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createRuntime } from "../../src/core/runtime.js";
import { runOperation } from "../../src/core/run-operation.js";
import { ConfigurationError, ServiceUnavailableError } from "../../src/errors.js";
import { DEFAULT_RETRY_BUDGET, RetryBudget } from "../../src/retry/budget.js";
import type { RetryEvent } from "../../src/retry/run-with-retry.js";
import { classDescriptor } from "../helpers/descriptors.js";
import { envelope, json, scripted } from "@powercontext/runtime/testing";

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

describe("RetryBudget", () => {
  it("spends per retry, refuses when it cannot pay, refunds on success up to its capacity", () => {
    const budget = new RetryBudget({ capacity: 12, retryCost: 5, timeoutRetryCost: 10, successRefund: 1 });
    expect(budget.spend(false)).toBe(5);
    expect(budget.spend(false)).toBe(5);
    expect(budget.available).toBe(2);
    expect(budget.spend(false)).toBeNull();
    expect(budget.available).toBe(2);
    budget.succeeded(5);
    expect(budget.available).toBe(7);
    budget.succeeded(0);
    expect(budget.available).toBe(8);
    expect(budget.spend(true)).toBeNull();
    for (let i = 0; i < 10; i += 1) budget.succeeded(5);
    expect(budget.available).toBe(12);
  });

  it.each([{ capacity: 0 }, { retryCost: -1 }, { successRefund: Number.NaN }, { timeoutRetryCost: "5" as never }])(
    "refuses %j",
    (bad) => expect(() => new RetryBudget(bad)).toThrow(ConfigurationError),
  );

  it("ends a call whose retry the bucket cannot pay with the last error, saying so; events carry the tokens left", async () => {
    const server503 = scripted(envelope(503, "unavailable"));
    const events: RetryEvent[] = [];
    const runtime = createRuntime({
      baseUrl: "https://pc.example.com",
      fetch: server503.fetch,
      maxRetries: 5,
      retry: { baseDelayMs: 0, maxDelayMs: 0 },
      retryBudget: { capacity: 10, retryCost: 4 },
      onRetry: (event) => events.push(event),
    });
    const error = (await runOperation(runtime, classDescriptor("safe"), {}).catch(
      (e: unknown) => e,
    )) as ServiceUnavailableError;
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error.retryBudgetExhausted).toBe(true);
    expect(error.message).toMatch(/retry budget is empty/);
    expect(server503.seen).toHaveLength(3);
    expect(events.map((event) => event.budgetRemaining)).toEqual([6, 2]);
  });

  it("retryBudget: false bounds retries by maxRetries alone", async () => {
    const server503 = scripted(envelope(503, "unavailable"), envelope(503, "unavailable"), json(200, { ok: true }));
    const runtime = createRuntime({
      baseUrl: "https://pc.example.com",
      fetch: server503.fetch,
      retry: { baseDelayMs: 0, maxDelayMs: 0 },
      retryBudget: false,
    });
    await expect(runOperation(runtime, classDescriptor("safe"), {})).resolves.toMatchObject({ data: { ok: true } });
    expect(runtime.retryBudget).toBeNull();
  });

  it("200 concurrent calls against a server answering 503 send at most 200 + a full bucket of retries", async () => {
    let requests = 0;
    server = createServer({ keepAlive: true }, (req, res) => {
      requests += 1;
      req.resume();
      req.on("end", () => {
        const body = JSON.stringify({ error: { code: "unavailable", message: "down", details: null } });
        res.writeHead(503, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
        res.end(body);
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const runtime = createRuntime({ baseUrl: origin, retry: { baseDelayMs: 20, maxDelayMs: 100 } });
    const deadlineMs = 10_000;
    const calls = Array.from({ length: 200 }, async () => {
      const started = Date.now();
      const error = await runOperation(runtime, classDescriptor("safe"), {}, { deadlineMs }).catch((e: unknown) => e);
      return { error, elapsed: Date.now() - started };
    });
    const results = await Promise.all(calls);
    const fullBucket = DEFAULT_RETRY_BUDGET.capacity / DEFAULT_RETRY_BUDGET.retryCost;
    expect(requests).toBeLessThanOrEqual(Math.floor((200 + fullBucket) * 1.1));
    // Without a budget three attempts each would be 600 requests.
    expect(requests).toBeGreaterThan(200);
    for (const { error, elapsed } of results) {
      expect(error).toBeInstanceOf(ServiceUnavailableError);
      expect(elapsed).toBeLessThan(deadlineMs);
    }
    expect(
      results.filter(({ error }) => (error as ServiceUnavailableError).retryBudgetExhausted === true).length,
    ).toBeGreaterThan(0);
  });
});
