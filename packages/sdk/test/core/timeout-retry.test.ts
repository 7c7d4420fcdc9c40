import { describe, expect, it, vi } from "vitest";
import { createCaller } from "../../src/core/create-caller.js";
import { createRuntime } from "../../src/core/runtime.js";
import { runOperation } from "../../src/core/run-operation.js";
import { AbortError, TimeoutError } from "../../src/errors.js";
import type { RetryEvent } from "../../src/retry/run-with-retry.js";
import type { FetchInit, FetchLike } from "../../src/transport/send.js";
import { classDescriptor } from "../helpers/descriptors.js";
import { json } from "../helpers/fake-fetch.js";

const BASE = "https://pc.example.com";
const fast = { retry: { baseDelayMs: 0, maxDelayMs: 0 } };

/** A fetch whose n-th request is answered only when `answer(n)` is called; records each init. */
function held(): { fetch: FetchLike; inits: FetchInit[]; answer: (index: number, response: Response) => Promise<void>; cancelled: boolean[] } {
  const inits: FetchInit[] = [];
  const resolvers: Array<(response: Response) => void> = [];
  const cancelled: boolean[] = [];
  const fetch: FetchLike = (_url, init) => {
    const index = inits.length;
    inits.push(init);
    cancelled.push(false);
    return new Promise((resolve, reject) => {
      resolvers[index] = resolve;
      init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
    });
  };
  const answer = async (index: number, response: Response) => {
    const bytes = new Uint8Array(await response.arrayBuffer());
    // Pulled only when read, so a cancel of an unread body reaches `cancel`.
    const body = new ReadableStream<Uint8Array>(
      {
        pull: (controller) => {
          controller.enqueue(bytes);
          controller.close();
        },
        cancel: () => void (cancelled[index] = true),
      },
      { highWaterMark: 0 },
    );
    resolvers[index]?.(new Response(body, { status: response.status, headers: response.headers }));
  };
  return { fetch, inits, answer, cancelled };
}

describe("timeouts through the retry loop", () => {
  it("a safe call: the unsignalled attempt times out, the signalled retry succeeds, the late answer is cancelled and uncounted", async () => {
    const server = held();
    const events: RetryEvent[] = [];
    const runtime = createRuntime({ baseUrl: BASE, fetch: server.fetch, timeoutMs: 150, maxRetries: 1, ...fast, onRetry: (e) => events.push(e) });
    const call = runOperation(runtime, classDescriptor("safe"), {});
    await vi.waitFor(() => expect(server.inits).toHaveLength(2), { interval: 5 });
    expect(server.inits[0]?.signal).toBeUndefined();
    expect(server.inits[1]?.signal).toBeInstanceOf(AbortSignal);
    await server.answer(1, json(200, { ok: true }));
    await expect(call).resolves.toMatchObject({ data: { ok: true } });
    expect(events.map((e) => e.reason)).toEqual(["timeout"]);
    expect(server.cancelled[1]).toBe(false);
    expect(runtime.exchanges.running).toBe(1);
    await server.answer(0, json(200, { ok: true }));
    await vi.waitFor(() => expect(runtime.exchanges.running).toBe(0));
    expect(server.cancelled[0]).toBe(true);
  });

  it("a never call is not retried after a timeout; the next call carries a signal", async () => {
    const server = held();
    const runtime = createRuntime({ baseUrl: BASE, fetch: server.fetch, timeoutMs: 20, maxRetries: 3, ...fast });
    const error = await runOperation(runtime, classDescriptor("never"), {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).limit).toBe("attempt");
    expect(server.inits).toHaveLength(1);
    const second = runOperation(runtime, classDescriptor("never"), {}).catch((e: unknown) => e);
    await vi.waitFor(() => expect(server.inits).toHaveLength(2));
    expect(server.inits[1]?.signal).toBeInstanceOf(AbortSignal);
    expect(await second).toBeInstanceOf(TimeoutError);
    expect(server.inits[1]?.signal?.aborted).toBe(true);
  });

  it("the deadline limit ends the call without a retry and counts the exchange it left", async () => {
    const server = held();
    const runtime = createRuntime({ baseUrl: BASE, fetch: server.fetch, timeoutMs: 10_000, maxRetries: 3, ...fast });
    const error = await runOperation(runtime, classDescriptor("safe"), {}, { deadlineMs: 30 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).limit).toBe("deadline");
    expect(server.inits).toHaveLength(1);
    expect(runtime.exchanges.running).toBe(1);
    await server.answer(0, json(200, { ok: true }));
    await vi.waitFor(() => expect(runtime.exchanges.running).toBe(0));
    expect(server.cancelled[0]).toBe(true);
  });

  it("a caller abort during the wait after a timeout is an AbortError; the first exchange is still counted until it ends", async () => {
    const server = held();
    const runtime = createRuntime({ baseUrl: BASE, fetch: server.fetch, timeoutMs: 20, maxRetries: 2, retry: { baseDelayMs: 5000, maxDelayMs: 5000, jitter: "none" } });
    const caller = new AbortController();
    const call = runOperation(runtime, classDescriptor("safe"), {}, { signal: caller.signal }).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 60));
    caller.abort();
    expect(await call).toBeInstanceOf(AbortError);
    // With a caller signal the attempt was signalled, so nothing is counted.
    expect(server.inits[0]?.signal?.aborted).toBe(true);
    expect(runtime.exchanges.running).toBe(0);
  });

  // The ledger only starts counting when the first timeout fires, so every
  // attempt started in the timeout window before it goes without a signal:
  // the bound is "one timeout's worth of calls", not "the calls in flight
  // when the server stopped".
  it("every call started before the first timeout fires goes unsignalled", async () => {
    const server = held();
    const runtime = createRuntime({ baseUrl: BASE, fetch: server.fetch, timeoutMs: 80, maxRetries: 0 });
    const calls: Array<Promise<unknown>> = [];
    for (let i = 0; i < 5; i += 1) {
      calls.push(runOperation(runtime, classDescriptor("never"), {}).catch((e: unknown) => e));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    for (const error of await Promise.all(calls)) expect(error).toBeInstanceOf(TimeoutError);
    expect(server.inits.every((init) => init.signal === undefined)).toBe(true);
    expect(runtime.exchanges.running).toBe(5);
    for (let i = 0; i < 5; i += 1) await server.answer(i, json(200, {}));
    await vi.waitFor(() => expect(runtime.exchanges.running).toBe(0));
  });

  it("standalone callers keep one ledger each, even on the same fetch", async () => {
    const server = held();
    const options = { baseUrl: BASE, fetch: server.fetch, timeoutMs: 20, maxRetries: 0 };
    const first = createCaller(options, classDescriptor("never"));
    const second = createCaller(options, classDescriptor("never"));
    await expect(first({})).rejects.toBeInstanceOf(TimeoutError);
    await expect(second({})).rejects.toBeInstanceOf(TimeoutError);
    // The first caller's stuck exchange does not make the second one signal.
    expect(server.inits.map((init) => init.signal === undefined)).toEqual([true, true]);
    await server.answer(0, json(200, {}));
    await server.answer(1, json(200, {}));
  });
});
