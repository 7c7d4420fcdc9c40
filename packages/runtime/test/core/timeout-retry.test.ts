import { describe, expect, it, vi } from "vitest";
import { createRuntime } from "../../src/core/runtime.js";
import { runOperation } from "../../src/core/run-operation.js";
import { AbortError, TimeoutError } from "../../src/errors.js";
import type { RetryEvent } from "../../src/retry/run-with-retry.js";
import type { FetchInit, FetchLike } from "../../src/transport/fetch-adapter.js";
import { classDescriptor } from "../helpers/descriptors.js";
import { json } from "@powercontext/runtime/testing";

const BASE = "https://pc.example.com";
const fast = { retry: { baseDelayMs: 0, maxDelayMs: 0 } };

/** A fetch whose n-th request is answered only when `answer(n)` is called; records each init. */
function held(): {
  fetch: FetchLike;
  inits: FetchInit[];
  answer: (index: number, response: Response) => Promise<void>;
  cancelled: boolean[];
} {
  const inits: FetchInit[] = [];
  const resolvers: Array<(response: Response) => void> = [];
  const cancelled: boolean[] = [];
  const fetch: FetchLike = (_url, init) => {
    const index = inits.length;
    inits.push(init);
    cancelled.push(false);
    return new Promise((resolve, reject) => {
      resolvers[index] = resolve;
      init.signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
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
  it("a safe call: the attempt times out and its signal fires, the retry succeeds", async () => {
    const server = held();
    const events: RetryEvent[] = [];
    const runtime = createRuntime({
      baseUrl: BASE,
      fetch: server.fetch,
      timeoutMs: 150,
      maxRetries: 1,
      ...fast,
      onRetry: (e) => events.push(e),
    });
    const call = runOperation(runtime, classDescriptor("safe"), {});
    await vi.waitFor(() => expect(server.inits).toHaveLength(2), { interval: 5 });
    expect(server.inits[0]?.signal.aborted).toBe(true);
    expect(server.inits[1]?.signal.aborted).toBe(false);
    await server.answer(1, json(200, { ok: true }));
    await expect(call).resolves.toMatchObject({ data: { ok: true } });
    expect(events.map((e) => e.reason)).toEqual(["timeout"]);
  });

  it("a never call is not retried after a timeout", async () => {
    const server = held();
    const runtime = createRuntime({ baseUrl: BASE, fetch: server.fetch, timeoutMs: 20, maxRetries: 3, ...fast });
    const error = await runOperation(runtime, classDescriptor("never"), {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).limit).toBe("attempt");
    expect(server.inits).toHaveLength(1);
    expect(server.inits[0]?.signal.aborted).toBe(true);
  });

  it("the deadline limit ends the call without a retry", async () => {
    const server = held();
    const runtime = createRuntime({ baseUrl: BASE, fetch: server.fetch, timeoutMs: 10_000, maxRetries: 3, ...fast });
    const error = await runOperation(runtime, classDescriptor("safe"), {}, { deadlineMs: 30 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).limit).toBe("deadline");
    expect(server.inits).toHaveLength(1);
  });

  it("a caller abort during the wait after a timeout is an AbortError", async () => {
    const server = held();
    const runtime = createRuntime({
      baseUrl: BASE,
      fetch: server.fetch,
      timeoutMs: 20,
      maxRetries: 2,
      retry: { baseDelayMs: 5000, maxDelayMs: 5000, jitter: "none" },
    });
    const caller = new AbortController();
    const call = runOperation(runtime, classDescriptor("safe"), {}, { signal: caller.signal }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(server.inits[0]?.signal.aborted).toBe(true), { interval: 5 });
    caller.abort();
    expect(await call).toBeInstanceOf(AbortError);
    expect(server.inits).toHaveLength(1);
  });
});
