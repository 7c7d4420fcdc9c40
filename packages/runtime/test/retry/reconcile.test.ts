import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/core/runtime.js";
import { recoverVersionConflict } from "../../src/core/recover-conflict.js";
import { runOperation } from "../../src/core/run-operation.js";
import { VersionConflictError, contractErrorsByCode as contractErrors } from "../helpers/contract-errors.js";
import type { FetchLike } from "../../src/transport/fetch-adapter.js";
import { cancelOperation, descriptor, reconcileOf, table } from "../helpers/descriptors.js";
import { envelope, json, socketClosed } from "@powercontext/runtime/testing";

interface Operation {
  operation_id: string;
  status: string;
  version: number;
}

/**
 * An Operation API with optimistic concurrency. `loseFirstCancelResponse`
 * applies the first cancel and then drops its response; `afterLoss` lets a
 * concurrent actor change the Operation before the re-send arrives.
 */
function operationServer(
  start: Operation,
  options: { loseFirstCancelResponse: boolean; afterLoss?: (op: Operation) => void; lossAs?: () => Response | Error },
) {
  const op = { ...start };
  const counts = { cancels: 0, reads: 0 };
  const fetch: FetchLike = async (url, init) => {
    const path = new URL(url).pathname;
    if (init.method === "GET" && path === `/v1/operations/${op.operation_id}`) {
      counts.reads += 1;
      return json(200, op);
    }
    if (init.method === "POST" && path === `/v1/operations/${op.operation_id}/cancel`) {
      counts.cancels += 1;
      const { expected_version: expected } = JSON.parse(init.body ?? "{}") as { expected_version: number };
      if (expected !== op.version) return envelope(409, "version_conflict", { current_version: op.version });
      op.status = "cancelled";
      op.version += 1;
      if (options.loseFirstCancelResponse && counts.cancels === 1) {
        options.afterLoss?.(op);
        const loss = (options.lossAs ?? socketClosed)();
        if (loss instanceof Error) throw loss;
        return loss;
      }
      return json(200, op);
    }
    return envelope(404, "not_found");
  };
  return { fetch, counts };
}

const base = { baseUrl: "https://pc.example.com", retry: { baseDelayMs: 0, maxDelayMs: 0 } };
const request = { operation_id: "op_1", expected_version: 3 };

describe("guarded reconciliation (runtime README, Retries)", () => {
  it("returns the read resource marked reconciled when the requested state holds", async () => {
    const server = operationServer(
      { operation_id: "op_1", status: "failed", version: 3 },
      { loseFirstCancelResponse: true },
    );
    const runtime = createRuntime(
      { ...base, fetch: server.fetch },
      { operations: table, reconcile: recoverVersionConflict, contractErrors },
    );
    const result = await runOperation(runtime, cancelOperation, request);
    expect(result.reconciled).toBe(true);
    expect(result.data).toEqual({ operation_id: "op_1", status: "cancelled", version: 4, reconciled: true });
    expect(server.counts).toEqual({ cancels: 2, reads: 1 });
  });

  it("throws VersionConflictError carrying the current resource when the state does not hold", async () => {
    const server = operationServer(
      { operation_id: "op_1", status: "failed", version: 3 },
      {
        loseFirstCancelResponse: true,
        afterLoss: (op) => {
          // An operator retried it in between: it is queued again at a newer version.
          op.status = "queued";
          op.version = 5;
        },
      },
    );
    const runtime = createRuntime(
      { ...base, fetch: server.fetch },
      { operations: table, reconcile: recoverVersionConflict, contractErrors },
    );
    const error = await runOperation(runtime, cancelOperation, request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VersionConflictError);
    const conflict = error as VersionConflictError;
    expect(conflict.currentVersion).toBe(5);
    expect(conflict.current).toEqual({ operation_id: "op_1", status: "queued", version: 5 });
    expect(conflict.outcomeUnknown).toBe(true);
    expect(server.counts.reads).toBe(1);
  });

  it("treats a gateway 504 as an uncertain outcome too", async () => {
    const server = operationServer(
      { operation_id: "op_1", status: "failed", version: 3 },
      { loseFirstCancelResponse: true, lossAs: () => envelope(504, "gateway_timeout") },
    );
    const runtime = createRuntime(
      { ...base, fetch: server.fetch },
      { operations: table, reconcile: recoverVersionConflict, contractErrors },
    );
    await expect(runOperation(runtime, cancelOperation, request)).resolves.toMatchObject({ reconciled: true });
  });

  it("does not reconcile after a 503, which says the request was not processed", async () => {
    let calls = 0;
    const server = operationServer(
      { operation_id: "op_1", status: "failed", version: 4 },
      { loseFirstCancelResponse: false },
    );
    const fetch: typeof server.fetch = async (url, init) => {
      calls += 1;
      return calls === 1 ? envelope(503, "unavailable") : server.fetch(url, init);
    };
    const runtime = createRuntime(
      { ...base, fetch },
      { operations: table, reconcile: recoverVersionConflict, contractErrors },
    );
    await expect(runOperation(runtime, cancelOperation, request)).rejects.toBeInstanceOf(VersionConflictError);
    expect(server.counts.reads).toBe(0);
  });

  it("surfaces a conflict on a first send without reading", async () => {
    const server = operationServer(
      { operation_id: "op_1", status: "failed", version: 4 },
      { loseFirstCancelResponse: false },
    );
    const runtime = createRuntime(
      { ...base, fetch: server.fetch },
      { operations: table, reconcile: recoverVersionConflict, contractErrors },
    );
    const error = await runOperation(runtime, cancelOperation, request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VersionConflictError);
    expect((error as VersionConflictError).current).toBeNull();
    expect(server.counts).toEqual({ cancels: 1, reads: 0 });
  });

  it("does not take a later state for its own: a cancelled Operation at a newer version proves nothing", async () => {
    const server = operationServer(
      { operation_id: "op_1", status: "failed", version: 3 },
      {
        loseFirstCancelResponse: true,
        afterLoss: (op) => {
          // Retried and cancelled again by others: cancelled, but two changes later.
          op.version = 6;
        },
      },
    );
    const runtime = createRuntime(
      { ...base, fetch: server.fetch },
      { operations: table, reconcile: recoverVersionConflict, contractErrors },
    );
    const error = await runOperation(runtime, cancelOperation, request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VersionConflictError);
    const conflict = error as VersionConflictError;
    expect(conflict.outcomeUnknown).toBe(true);
    expect(conflict.current).toEqual({ operation_id: "op_1", status: "cancelled", version: 6 });
    expect(conflict.message).toMatch(/outcome is unknown; the resource is now cancelled at version 6/);
  });

  it("says the outcome is unknown when the read itself fails", async () => {
    let calls = 0;
    const fetch: FetchLike = async (_url, init) => {
      calls += 1;
      if (calls === 1) throw socketClosed();
      if (init.method === "POST") return envelope(409, "version_conflict", { current_version: 9 });
      return envelope(500, "internal_error");
    };
    const runtime = createRuntime(
      { ...base, fetch },
      { operations: table, reconcile: recoverVersionConflict, contractErrors },
    );
    const error = await runOperation(runtime, cancelOperation, request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VersionConflictError);
    expect((error as VersionConflictError).outcomeUnknown).toBe(true);
    expect((error as VersionConflictError).current).toBeNull();
  });
});

describe("a stale guarded retry after a lost response (issue scenario)", () => {
  const retryOperation = descriptor({
    operationId: "retry_operation",
    path: "/v1/operations/{operation_id}/retry",
    pathParameters: ["operation_id"],
    retryClass: "guarded",
    reconcile: reconcileOf(["queued", "running", "succeeded"]),
  });

  /** Retry of a failed Operation at version 1: the first response is lost, then the Operation runs on to `after`. */
  function retryServer(after: Operation) {
    const op: Operation = { operation_id: "op_1", status: "failed", version: 1 };
    const counts = { retries: 0, reads: 0 };
    const fetch: FetchLike = async (url, init) => {
      const path = new URL(url).pathname;
      if (init.method === "GET") {
        counts.reads += 1;
        return json(200, op);
      }
      counts.retries += 1;
      const { expected_version: expected } = JSON.parse(init.body ?? "{}") as { expected_version: number };
      if (expected !== op.version || path !== "/v1/operations/op_1/retry")
        return envelope(409, "version_conflict", { current_version: op.version });
      Object.assign(op, after);
      throw socketClosed();
    };
    return { fetch, counts };
  }

  it("raises the conflict with the current resource when the Operation shows later changes (succeeded at version 6)", async () => {
    const server = retryServer({ operation_id: "op_1", status: "succeeded", version: 6 });
    const runtime = createRuntime(
      { ...base, fetch: server.fetch },
      { operations: table, reconcile: recoverVersionConflict, contractErrors },
    );
    const error = await runOperation(runtime, retryOperation, { operation_id: "op_1", expected_version: 1 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(VersionConflictError);
    const conflict = error as VersionConflictError;
    expect(conflict.outcomeUnknown).toBe(true);
    expect(conflict.current).toEqual({ operation_id: "op_1", status: "succeeded", version: 6 });
    expect(conflict.currentVersion).toBe(6);
    expect(server.counts).toEqual({ retries: 2, reads: 1 });
  });

  it("reconciles when the Operation shows exactly the retry: queued at version 2", async () => {
    const server = retryServer({ operation_id: "op_1", status: "queued", version: 2 });
    const runtime = createRuntime(
      { ...base, fetch: server.fetch },
      { operations: table, reconcile: recoverVersionConflict, contractErrors },
    );
    const result = await runOperation(runtime, retryOperation, { operation_id: "op_1", expected_version: 1 });
    expect(result.reconciled).toBe(true);
    expect(result.data).toEqual({ operation_id: "op_1", status: "queued", version: 2, reconciled: true });
  });
});
