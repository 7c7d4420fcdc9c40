import { afterEach, describe, expect, it, vi } from "vitest";
import { createRuntime } from "../../src/core/runtime.js";
import { runOperation } from "../../src/core/run-operation.js";
import { AbortError } from "../../src/errors.js";
import { sleep } from "../../src/retry/sleep.js";
import { classDescriptor } from "../helpers/descriptors.js";
import { envelope, scripted } from "@powercontext/runtime/testing";

afterEach(() => {
  vi.useRealTimers();
});

describe("sleep", () => {
  it("clears its timer when aborted", async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal, () => new Error("stopped"));
    expect(vi.getTimerCount()).toBe(1);
    controller.abort();
    await expect(waiting).rejects.toThrow("stopped");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects at once without a timer when already aborted", async () => {
    vi.useFakeTimers();
    await expect(sleep(1000, AbortSignal.abort(), () => new Error("stopped"))).rejects.toThrow("stopped");
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("abort during a backoff wait", () => {
  it("rejects with AbortError promptly and leaves no pending timer", async () => {
    vi.useFakeTimers();
    const server = scripted(envelope(503, "unavailable", null, { "retry-after": "20" }));
    const runtime = createRuntime({ baseUrl: "https://pc.example.com", fetch: server.fetch, maxRetries: 3 });
    const controller = new AbortController();
    const call = runOperation(runtime, classDescriptor("safe"), {}, { signal: controller.signal });
    const outcome = call.catch((error: unknown) => error);
    // Let the first attempt finish; the loop is now waiting 20 s.
    await vi.advanceTimersByTimeAsync(10);
    expect(server.seen).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(1);
    controller.abort();
    const error = await outcome;
    expect(error).toBeInstanceOf(AbortError);
    expect(vi.getTimerCount()).toBe(0);
    expect(server.seen).toHaveLength(1);
  });
});
