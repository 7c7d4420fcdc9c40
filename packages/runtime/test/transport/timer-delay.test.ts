import { afterEach, describe, expect, it, vi } from "vitest";
import { createRuntime } from "../../src/core/runtime.js";
import { runOperation } from "../../src/core/run-operation.js";
import { MAX_TIMER_DELAY_MS, timerDelay } from "../../src/transport/timer-delay.js";
import { sleep } from "../../src/retry/sleep.js";
import type { FetchLike } from "../../src/transport/send.js";
import { descriptor } from "../helpers/descriptors.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("timerDelay", () => {
  it.each([
    [-5, 0],
    [0, 0],
    [1500, 1500],
    [MAX_TIMER_DELAY_MS, MAX_TIMER_DELAY_MS],
    [1e10, MAX_TIMER_DELAY_MS],
    [Infinity, MAX_TIMER_DELAY_MS],
  ])("%d ms -> %d ms", (input, expected) => {
    expect(timerDelay(input)).toBe(expected);
  });

  it("keeps a 1e10 ms per-attempt timeout from firing at once", async () => {
    vi.useFakeTimers();
    const fetch: FetchLike = () => new Promise(() => undefined);
    const runtime = createRuntime({ baseUrl: "https://pc.example.com", fetch, timeoutMs: 1e10, maxRetries: 0 });
    let settled = false;
    void runOperation(runtime, descriptor({ operationId: "x" }), {}).then(
      () => (settled = true),
      () => (settled = true),
    );
    await vi.advanceTimersByTimeAsync(60_000);
    expect(settled).toBe(false);
  });

  it("keeps a 1e10 ms sleep from resolving at once", async () => {
    vi.useFakeTimers();
    let done = false;
    void sleep(1e10, undefined, () => new Error("aborted")).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(done).toBe(false);
  });
});
