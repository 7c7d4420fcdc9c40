import { afterEach, describe, expect, it, vi } from "vitest";
import { AbortError, TimeoutError, TransportError } from "../../src/errors.js";
import type { PreparedRequest } from "../../src/transport/build-request.js";
import { fetchTransport, type FetchInit, type FetchLike } from "../../src/transport/fetch-adapter.js";
import { readBody } from "../../src/transport/read-body.js";
import { sendAttempt, type AttemptLimits, type ResponseConsumer } from "../../src/transport/send.js";

const TOKEN = "tok-secret-123";
const request: PreparedRequest = {
  method: "GET",
  url: "https://pc.example.com/x",
  path: "/x",
  headers: { authorization: `Bearer ${TOKEN}` },
  body: undefined,
};

function limits(overrides: Partial<AttemptLimits> = {}): AttemptLimits {
  return { timeoutMs: 20, limit: "attempt", secrets: [TOKEN], ...overrides };
}

const readText: ResponseConsumer<string> = {
  consume: (response) => readBody(response, { statusCode: response.status, requestId: null }),
};

/** One attempt through the fetch adapter (these races are the fetch adapter's). */
function send<T>(fetchFn: FetchLike, ...rest: [PreparedRequest, AttemptLimits, ResponseConsumer<T>]): Promise<T> {
  return sendAttempt(fetchTransport(fetchFn), ...rest);
}

/** A promise with its resolve and reject exposed. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A body whose cancellation is observable; it never produces data unless pushed. */
function watchedBody(): {
  body: ReadableStream<Uint8Array>;
  cancelled: () => boolean;
  push: (text: string) => void;
  close: () => void;
} {
  let cancelled = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: () => void (cancelled = true),
  });
  return {
    body,
    cancelled: () => cancelled,
    push: (text) => controller.enqueue(new TextEncoder().encode(text)),
    close: () => controller.close(),
  };
}

/** An AbortSignal that counts its live abort listeners. */
function countedSignal(): { controller: AbortController; live: () => number } {
  const controller = new AbortController();
  const signal = controller.signal;
  const listeners = new Set<unknown>();
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = ((type: string, listener: EventListener, options?: AddEventListenerOptions) => {
    if (type === "abort") {
      listeners.add(listener);
      if (options?.once) {
        const wrapped = listener;
        add("abort", () => listeners.delete(wrapped), { once: true });
      }
    }
    add(type, listener, options);
  }) as typeof signal.addEventListener;
  signal.removeEventListener = ((type: string, listener: EventListener, options?: EventListenerOptions) => {
    if (type === "abort") listeners.delete(listener);
    remove(type, listener, options);
  }) as typeof signal.removeEventListener;
  return { controller, live: () => listeners.size };
}

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(() => {
  vi.useRealTimers();
});

describe("sendAttempt: timers and listeners", () => {
  it("arms no timer and adds no listener when the caller's signal is already aborted", async () => {
    vi.useFakeTimers();
    const { controller, live } = countedSignal();
    controller.abort();
    let fetched = false;
    const error = await send(
      async () => {
        fetched = true;
        return new Response("x");
      },
      request,
      limits({ signal: controller.signal }),
      readText,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect(fetched).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    expect(live()).toBe(0);
  });

  it("removes the timer and the listener after success", async () => {
    vi.useFakeTimers();
    const { controller, live } = countedSignal();
    const value = await send(
      async () => new Response("ok"),
      request,
      limits({ signal: controller.signal, timeoutMs: 10_000 }),
      readText,
    );
    expect(value).toBe("ok");
    expect(vi.getTimerCount()).toBe(0);
    expect(live()).toBe(0);
  });

  it("removes the timer and the listener after a failure", async () => {
    vi.useFakeTimers();
    const { controller, live } = countedSignal();
    const error = await send(
      async () => Promise.reject(new TypeError("fetch failed")),
      request,
      limits({ signal: controller.signal, timeoutMs: 10_000 }),
      readText,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(vi.getTimerCount()).toBe(0);
    expect(live()).toBe(0);
  });

  it("on a caller abort during the body read: AbortError, fetch's signal aborted, body errored, nothing left armed", async () => {
    vi.useFakeTimers();
    const { controller, live } = countedSignal();
    const body = watchedBody();
    let init: FetchInit | undefined;
    const pending = send(
      async (_url, i) => {
        init = i;
        i.signal.addEventListener("abort", () => body.body.cancel().catch(() => undefined));
        return new Response(body.body);
      },
      request,
      limits({ signal: controller.signal, timeoutMs: 10_000 }),
      readText,
    ).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1);
    controller.abort();
    expect(await pending).toBeInstanceOf(AbortError);
    expect(init?.signal?.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    expect(live()).toBe(0);
  });

  it("ignores a caller abort after the attempt settled", async () => {
    const { controller, live } = countedSignal();
    let init: FetchInit | undefined;
    const value = await send(
      async (_url, i) => {
        init = i;
        return new Response("ok");
      },
      request,
      limits({ signal: controller.signal }),
      readText,
    );
    controller.abort();
    expect(value).toBe("ok");
    expect(init?.signal?.aborted).toBe(false);
    expect(live()).toBe(0);
  });

  it("after the timeout, a caller abort changes nothing", async () => {
    const { controller, live } = countedSignal();
    const late = deferred<Response>();
    const error = await send(() => late.promise, request, limits({ signal: controller.signal }), readText).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect(live()).toBe(0);
    controller.abort();
    late.reject(new DOMException("aborted", "AbortError"));
    await tick(5);
  });
});

describe("sendAttempt: late responses", () => {
  it("aborts fetch's signal on the timeout", async () => {
    let init: FetchInit | undefined;
    const late = deferred<Response>();
    const error = await send(
      (_url, i) => {
        init = i;
        return late.promise;
      },
      request,
      limits(),
      readText,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(init?.signal.aborted).toBe(true);
  });

  it("cancels a response that arrives after the timeout when fetch ignored its signal", async () => {
    const late = deferred<Response>();
    const body = watchedBody();
    const caller = new AbortController();
    await expect(send(() => late.promise, request, limits({ signal: caller.signal }), readText)).rejects.toBeInstanceOf(
      TimeoutError,
    );
    late.resolve(new Response(body.body));
    await vi.waitFor(() => expect(body.cancelled()).toBe(true));
  });

  it("cancels, unread, a response that arrives after the caller aborted when fetch ignored its signal", async () => {
    const late = deferred<Response>();
    const body = watchedBody();
    const caller = new AbortController();
    let consumed = false;
    const consumer: ResponseConsumer<string> = {
      consume(response) {
        consumed = true;
        return readText.consume(response);
      },
    };
    const pending = send(() => late.promise, request, limits({ signal: caller.signal, timeoutMs: 10_000 }), consumer);
    caller.abort();
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    late.resolve(new Response(body.body));
    await vi.waitFor(() => expect(body.cancelled()).toBe(true));
    expect(consumed).toBe(false);
  });
});

describe("sendAttempt: outcomes", () => {
  it("a fetch that rejects with a token-bearing error after the timeout: TimeoutError without the token", async () => {
    const error = await send(
      () => new Promise((_resolve, reject) => setTimeout(() => reject(new Error(`late ${TOKEN}`)), 40)),
      request,
      limits(),
      readText,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(JSON.stringify({ m: (error as Error).message, s: (error as Error).stack })).not.toContain(TOKEN);
    await tick(50);
  });

  it("a synchronous throw from fetch is a TransportError and clears the timer", async () => {
    vi.useFakeTimers();
    const error = await send(
      (() => {
        throw Object.assign(new TypeError(`bad ${TOKEN}`), { code: "ECONNREFUSED" });
      }) as FetchLike,
      request,
      limits({ timeoutMs: 10_000 }),
      readText,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).phase).toBe("connect");
    expect((error as Error).message).not.toContain(TOKEN);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a caller abort wins over a fetch failure it causes, and a timeout over one it causes", async () => {
    const failOnAbort: FetchLike = (_url, init) =>
      new Promise((_resolve, reject) =>
        init.signal.addEventListener("abort", () => reject(new TypeError("fetch failed"))),
      );
    const caller = new AbortController();
    const aborted = send(failOnAbort, request, limits({ signal: caller.signal, timeoutMs: 10_000 }), readText).catch(
      (e: unknown) => e,
    );
    caller.abort();
    expect(await aborted).toBeInstanceOf(AbortError);
    const timedOut = await send(failOnAbort, request, limits({ signal: new AbortController().signal }), readText).catch(
      (e: unknown) => e,
    );
    expect(timedOut).toBeInstanceOf(TimeoutError);
  });
});
