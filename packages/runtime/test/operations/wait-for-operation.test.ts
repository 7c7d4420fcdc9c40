import { afterEach, describe, expect, it, vi } from "vitest";
import { createRuntime } from "../../src/core/runtime.js";
import { InvalidResponseError } from "../../src/errors.js";
import {
  OperationCancelledError,
  OperationFailedError,
  OperationPendingError,
} from "../../src/operations/operation-errors.js";
import { callOperation, submit } from "../../src/operations/submit.js";
import { waitForOperation } from "../../src/operations/wait-for-operation.js";
import type { FetchLike } from "../../src/transport/fetch-adapter.js";
import { flushMemory, table } from "../helpers/descriptors.js";
import { envelope, json } from "@powercontext/runtime/testing";

afterEach(() => {
  vi.useRealTimers();
});

function operation(status: string, extra: Record<string, unknown> = {}) {
  return { operation_id: "op_1", kind: "memory_flush", status, version: 1, error: null, result: null, ...extra };
}

/**
 * A flush endpoint that answers 202 with `location`, and an Operation whose
 * status follows `statuses` poll by poll (the last one repeats).
 */
function asyncServer(
  location: string,
  statuses: Array<Record<string, unknown>>,
  pollHeaders: Record<string, string> = {},
) {
  const polls: number[] = [];
  const fetch: FetchLike = async (url, init) => {
    const path = new URL(url).pathname;
    if (init.method === "POST" && path.endsWith("/v1/memory/flush")) {
      return new Response(null, { status: 202, headers: { location, "retry-after": "0" } });
    }
    if (init.method === "GET" && path.endsWith("/v1/operations/op_1")) {
      polls.push(Date.now());
      return json(200, statuses[Math.min(polls.length - 1, statuses.length - 1)], pollHeaders);
    }
    return envelope(404, "not_found");
  };
  return { fetch, polls };
}

const options = { minPollIntervalMs: 1, maxPollIntervalMs: 5 };
const succeeded = operation("succeeded", { version: 3, result: { entries_written: 2 } });

describe("asynchronous operations (seed 002)", () => {
  it.each([
    ["relative", "/v1/operations/op_1"],
    ["absolute", "https://pc.example.com/v1/operations/op_1"],
  ])("follows a %s Location and returns the result field", async (_label, location) => {
    const server = asyncServer(location, [operation("queued"), operation("running"), succeeded]);
    const runtime = createRuntime(
      { baseUrl: "https://pc.example.com", fetch: server.fetch, ...options },
      { operations: table },
    );
    const progress: unknown[] = [];
    await expect(callOperation(runtime, flushMemory, { scope_id: "s" })).resolves.toEqual({ entries_written: 2 });
    expect(server.polls).toHaveLength(3);
    const operationResource = await waitForOperation(runtime, "get_operation", "op_1", {
      onProgress: (op) => progress.push(op.status),
    });
    expect(operationResource.status).toBe("succeeded");
    expect(progress).toEqual(["succeeded"]);
  });

  it("refuses a Location on another origin", async () => {
    const server = asyncServer("https://evil.example.com/v1/operations/op_1", [succeeded]);
    const runtime = createRuntime(
      { baseUrl: "https://pc.example.com", fetch: server.fetch, ...options },
      { operations: table },
    );
    await expect(callOperation(runtime, flushMemory, {})).rejects.toBeInstanceOf(InvalidResponseError);
    expect(server.polls).toHaveLength(0);
  });

  it("throws OperationPendingError past the deadline, then waitForOperation completes", async () => {
    const statuses = Array.from({ length: 1000 }, () => operation("running"));
    const server = asyncServer("/v1/operations/op_1", statuses);
    const runtime = createRuntime(
      { baseUrl: "https://pc.example.com", fetch: server.fetch, ...options },
      { operations: table },
    );
    const error = await callOperation(runtime, flushMemory, {}, { deadlineMs: 40 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperationPendingError);
    expect((error as OperationPendingError).operationId).toBe("op_1");
    expect((error as OperationPendingError).lastKnown).toMatchObject({ status: "running" });
    const pollsSoFar = server.polls.length;
    expect(pollsSoFar).toBeGreaterThan(0);
    statuses.fill(succeeded, pollsSoFar + 1);
    const done = await waitForOperation(runtime, "get_operation", (error as OperationPendingError).operationId);
    expect(done.result).toEqual({ entries_written: 2 });
  });

  it("maps failed and cancelled to typed errors with the bounded classification", async () => {
    const failed = operation("failed", { error: { category: "provider", code: "rate_limited" } });
    const runtime = createRuntime(
      { baseUrl: "https://pc.example.com", fetch: asyncServer("/v1/operations/op_1", [failed]).fetch, ...options },
      { operations: table },
    );
    const error = await callOperation(runtime, flushMemory, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperationFailedError);
    expect(error).toMatchObject({ operationId: "op_1", error: { category: "provider", code: "rate_limited" } });

    const cancelledRuntime = createRuntime(
      {
        baseUrl: "https://pc.example.com",
        fetch: asyncServer("/v1/operations/op_1", [operation("cancelled")]).fetch,
        ...options,
      },
      { operations: table },
    );
    await expect(callOperation(cancelledRuntime, flushMemory, {})).rejects.toBeInstanceOf(OperationCancelledError);
  });

  it("waits the poll response's Retry-After (clamped) and never busy-loops", async () => {
    vi.useFakeTimers();
    const server = asyncServer("/v1/operations/op_1", [operation("running"), succeeded], { "retry-after": "2" });
    const runtime = createRuntime(
      { baseUrl: "https://pc.example.com", fetch: server.fetch, minPollIntervalMs: 100, maxPollIntervalMs: 10_000 },
      { operations: table },
    );
    const result = waitForOperation(runtime, "get_operation", "op_1", { deadlineMs: 60_000 });
    await vi.advanceTimersByTimeAsync(1);
    expect(server.polls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1990);
    expect(server.polls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(20);
    expect(server.polls).toHaveLength(2);
    await expect(result).resolves.toMatchObject({ status: "succeeded" });
  });

  it("submit reports the accepted operation id without polling", async () => {
    const server = asyncServer("/v1/operations/op_1", [succeeded]);
    const runtime = createRuntime(
      { baseUrl: "https://pc.example.com", fetch: server.fetch, ...options },
      { operations: table },
    );
    const outcome = await submit(runtime, flushMemory, {});
    expect(outcome).toMatchObject({ accepted: true, operationId: "op_1", retryAfterMs: 0, body: null });
    expect(server.polls).toHaveLength(0);
  });
});
