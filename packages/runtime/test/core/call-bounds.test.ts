import { afterEach, describe, expect, it, vi } from "vitest";
import { createRuntime } from "../../src/core/runtime.js";
import { runOperation } from "../../src/core/run-operation.js";
import { ConfigurationError, RateLimitError, ServiceUnavailableError, TimeoutError } from "../../src/errors.js";
import { OperationPendingError } from "../../src/operations/operation-errors.js";
import { callOperation } from "../../src/operations/submit.js";
import type { FetchLike } from "../../src/transport/send.js";
import { classDescriptor, flushMemory, table } from "../helpers/descriptors.js";
import { envelope, json, scripted } from "@powercontext/runtime/testing";

const BASE = "https://pc.example.com";

afterEach(() => {
  vi.useRealTimers();
});

describe("Retry-After cap (maxRetryAfterMs, default 30 s)", () => {
  it("surfaces a 429 asking for a day at once, with its retryAfterMs, instead of sleeping", async () => {
    vi.useFakeTimers();
    const server = scripted(envelope(429, "rate_limited", null, { "retry-after": "1000000000" }));
    const runtime = createRuntime({ baseUrl: BASE, fetch: server.fetch });
    const outcome = runOperation(runtime, classDescriptor("safe"), {}).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(0);
    const error = await outcome;
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(86_400_000);
    expect(server.seen).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("waits for a Retry-After up to the cap", async () => {
    vi.useFakeTimers();
    const server = scripted(envelope(503, "unavailable", null, { "retry-after": "30" }), json(200, {}));
    const runtime = createRuntime({ baseUrl: BASE, fetch: server.fetch });
    const outcome = runOperation(runtime, classDescriptor("safe"), {});
    await vi.advanceTimersByTimeAsync(29_999);
    expect(server.seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(outcome).resolves.toMatchObject({ statusCode: 200 });
    expect(server.seen).toHaveLength(2);
  });

  it("is configurable", async () => {
    const server = scripted(envelope(503, "unavailable", null, { "retry-after": "2" }));
    const runtime = createRuntime({ baseUrl: BASE, fetch: server.fetch, maxRetryAfterMs: 1000 });
    const error = await runOperation(runtime, classDescriptor("safe"), {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as ServiceUnavailableError).retryAfterMs).toBe(2000);
    expect(server.seen).toHaveLength(1);
    expect(() => createRuntime({ baseUrl: BASE, fetch: server.fetch, maxRetryAfterMs: -1 })).toThrow(
      ConfigurationError,
    );
  });
});

describe("default total deadline (deadlineMs, default 120 s)", () => {
  it("ends a call whose server keeps asking to come back within two minutes", async () => {
    vi.useFakeTimers();
    const started = Date.now();
    const server = scripted(envelope(503, "unavailable", null, { "retry-after": "29" }));
    const runtime = createRuntime({ baseUrl: BASE, fetch: server.fetch, maxRetries: 10 });
    const outcome = runOperation(runtime, classDescriptor("safe"), {}).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(300_000);
    expect(await outcome).toBeInstanceOf(ServiceUnavailableError);
    // Sent at 0, 29, 58, 87 and 116 s; the next wait would end past 120 s.
    expect(server.seen).toHaveLength(5);
    expect(vi.getTimerCount()).toBe(0);
    expect(Date.now() - started).toBeLessThanOrEqual(300_000);
  });

  it("ends a call to a server that never answers at 120 s", async () => {
    vi.useFakeTimers();
    let sent = 0;
    const silent: FetchLike = (_url, init) => {
      sent += 1;
      return new Promise((_resolve, reject) =>
        init.signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
      );
    };
    const runtime = createRuntime({ baseUrl: BASE, fetch: silent, maxRetries: 10, random: () => 0.99 });
    let settledAt = 0;
    const started = Date.now();
    const outcome = runOperation(runtime, classDescriptor("safe"), {}).catch((error: unknown) => {
      settledAt = Date.now();
      return error;
    });
    await vi.advanceTimersByTimeAsync(600_000);
    const error = await outcome;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).limit).toBe("deadline");
    expect(settledAt - started).toBe(120_000);
    expect(sent).toBeLessThan(11);
  });

  it("yields to a call's own deadlineMs and to the client option", async () => {
    vi.useFakeTimers();
    const server = scripted(envelope(503, "unavailable", null, { "retry-after": "10" }));
    const runtime = createRuntime({ baseUrl: BASE, fetch: server.fetch, maxRetries: 10, deadlineMs: 25_000 });
    const first = runOperation(runtime, classDescriptor("safe"), {}).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await first).toBeInstanceOf(ServiceUnavailableError);
    expect(server.seen).toHaveLength(3);
    const second = runOperation(runtime, classDescriptor("safe"), {}, { deadlineMs: 45_000 }).catch(
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await second).toBeInstanceOf(ServiceUnavailableError);
    expect(server.seen).toHaveLength(3 + 5);
  });
});

describe("polling of an accepted operation with default options", () => {
  it("never sleeps what Retry-After asks and ends at the operation deadline (60 s)", async () => {
    vi.useFakeTimers();
    const running = { operation_id: "op_1", status: "running", version: 2 };
    let polls = 0;
    const fetch: FetchLike = async (url) => {
      const path = new URL(url).pathname;
      if (path === "/v1/memory/flush") {
        return json(
          202,
          { ...running, status: "queued" },
          { location: "/v1/operations/op_1", "retry-after": "1000000000" },
        );
      }
      polls += 1;
      return json(200, running, { "retry-after": "1000000000" });
    };
    const runtime = createRuntime({ baseUrl: BASE, fetch }, { operations: table });
    const started = Date.now();
    let settledAt = 0;
    const outcome = callOperation(runtime, flushMemory, { scope_id: "s" }).catch((error: unknown) => {
      settledAt = Date.now();
      return error;
    });
    await vi.advanceTimersByTimeAsync(600_000);
    const error = await outcome;
    expect(error).toBeInstanceOf(OperationPendingError);
    expect(settledAt - started).toBeLessThanOrEqual(60_000);
    // Every wait is clamped to maxPollIntervalMs (5 s).
    expect(polls).toBeGreaterThanOrEqual(11);
  });
});
