// An AbortError keeps the caller's abort reason as its `cause`, wherever the
// call was when the signal fired: before sending, during the exchange, in the
// wait before a retry, between polls of an Operation.
import { describe, expect, it, vi } from "vitest";
import { runOperation } from "../../src/core/run-operation.js";
import { createRuntime } from "../../src/core/runtime.js";
import { AbortError } from "../../src/errors.js";
import { waitForOperation } from "../../src/operations/wait-for-operation.js";
import type { FetchInit, FetchLike } from "../../src/transport/fetch-adapter.js";
import { classDescriptor, table } from "../helpers/descriptors.js";
import { envelope, json } from "@powercontext/runtime/testing";

const BASE = "https://pc.example.com";

/** A fetch that never answers and rejects when its signal fires, recording each request's init. */
function silent(): { fetch: FetchLike; inits: FetchInit[] } {
  const inits: FetchInit[] = [];
  const fetch: FetchLike = (_url, init) => {
    inits.push(init);
    return new Promise((_resolve, reject) =>
      init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
    );
  };
  return { fetch, inits };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (error: unknown) => error,
  );
}

describe("AbortError.cause is the caller's abort reason", () => {
  it("for a signal aborted before the call", async () => {
    const reason = { why: "user left the page" };
    const runtime = createRuntime({ baseUrl: BASE, fetch: silent().fetch });
    const error = await rejection(
      runOperation(runtime, classDescriptor("safe"), {}, { signal: AbortSignal.abort(reason) }),
    );
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toBe(reason);
  });

  it("for an abort during the exchange", async () => {
    const server = silent();
    const reason = new Error("navigation");
    const controller = new AbortController();
    const runtime = createRuntime({ baseUrl: BASE, fetch: server.fetch });
    const call = rejection(runOperation(runtime, classDescriptor("safe"), {}, { signal: controller.signal }));
    await vi.waitFor(() => expect(server.inits).toHaveLength(1), { interval: 5 });
    controller.abort(reason);
    const error = await call;
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toBe(reason);
  });

  it("for an abort in the wait before a retry", async () => {
    let requests = 0;
    const fetch: FetchLike = async () => {
      requests += 1;
      return envelope(503, "busy");
    };
    const controller = new AbortController();
    const runtime = createRuntime({
      baseUrl: BASE,
      fetch,
      maxRetries: 3,
      retry: { baseDelayMs: 5000, maxDelayMs: 5000, jitter: "none" },
    });
    const call = rejection(runOperation(runtime, classDescriptor("safe"), {}, { signal: controller.signal }));
    await vi.waitFor(() => expect(requests).toBe(1), { interval: 5 });
    controller.abort("stop retrying");
    const error = await call;
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toBe("stop retrying");
    expect(requests).toBe(1);
  });

  it("for an abort between polls of an Operation", async () => {
    let polls = 0;
    const fetch: FetchLike = async () => {
      polls += 1;
      return json(
        200,
        { operation_id: "op_1", kind: "memory_flush", status: "running", version: 1, error: null, result: null },
        { "retry-after": "5" },
      );
    };
    const controller = new AbortController();
    const runtime = createRuntime({ baseUrl: BASE, fetch, minPollIntervalMs: 5000 }, { operations: table });
    const wait = rejection(waitForOperation(runtime, "get_operation", "op_1", { signal: controller.signal }));
    await vi.waitFor(() => expect(polls).toBe(1), { interval: 5 });
    const reason = new Error("closed the dialog");
    controller.abort(reason);
    const error = await wait;
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toBe(reason);
  });

  it("for an abort without a reason: the signal's own AbortError DOMException", async () => {
    const controller = new AbortController();
    controller.abort();
    const runtime = createRuntime({ baseUrl: BASE, fetch: silent().fetch });
    const error = await rejection(runOperation(runtime, classDescriptor("safe"), {}, { signal: controller.signal }));
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toBe(controller.signal.reason);
    expect((error as AbortError).cause).toBeInstanceOf(DOMException);
  });
});

/** A signal whose `reason` getter throws, as a Proxy or a polyfill's signal can. */
function throwingReason(signal: AbortSignal): AbortSignal {
  return new Proxy(signal, {
    get(target, key) {
      if (key === "reason") throw new Error("the reason cannot be read");
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("an abort whose reason throws when read is still an AbortError", () => {
  it.each(["before the call", "during the exchange"])("%s, on the fetch adapter", async (when) => {
    const controller = new AbortController();
    if (when === "before the call") controller.abort("gone");
    const runtime = createRuntime({ baseUrl: BASE, fetch: silent().fetch });
    const pending = rejection(
      runOperation(runtime, classDescriptor("safe"), {}, { signal: throwingReason(controller.signal) }),
    );
    if (when !== "before the call") setTimeout(() => controller.abort("gone"), 20);
    const error = await pending;
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toBeUndefined();
  });

  it("in the wait before a retry", async () => {
    const controller = new AbortController();
    const fetch: FetchLike = async () => envelope(503, "runtime_not_ready", null, { "retry-after": "5" });
    const runtime = createRuntime({ baseUrl: BASE, fetch });
    const pending = rejection(
      runOperation(runtime, classDescriptor("safe"), {}, { signal: throwingReason(controller.signal) }),
    );
    setTimeout(() => controller.abort("gone"), 30);
    expect(await pending).toBeInstanceOf(AbortError);
  });

  it("between polls of an Operation", async () => {
    const controller = new AbortController();
    const fetch: FetchLike = async () =>
      json(
        200,
        { operation_id: "op_1", kind: "memory_flush", status: "running", version: 1, error: null, result: null },
        { "retry-after": "5" },
      );
    const runtime = createRuntime({ baseUrl: BASE, fetch, minPollIntervalMs: 5000 }, { operations: table });
    const pending = rejection(
      waitForOperation(runtime, "get_operation", "op_1", { signal: throwingReason(controller.signal) }),
    );
    setTimeout(() => controller.abort("gone"), 30);
    expect(await pending).toBeInstanceOf(AbortError);
  });
});
