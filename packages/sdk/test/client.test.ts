import { describe, expect, it } from "vitest";
import { InvalidRequestError, InvalidResponseError, OperationPendingError } from "@powercontext/runtime";
import { VersionConflictError } from "../src/generated/contract-errors.js";
import type { FetchLike } from "@powercontext/runtime";
import { envelope, json, scripted, socketClosed } from "@powercontext/runtime/testing";

// The facade runs on the committed generator output (src/generated).
const load = async () => (await import("../src/client.js")).PowerContextClient;

const BASE = "https://pc.example.com";
const flushResult = {
  status: "processed",
  previous_cursor: 10,
  current_cursor: 14,
  high_watermark: 14,
  processed_source_count: 4,
  memory: null,
};

function operation(status: string, version: number, extra: Record<string, unknown> = {}) {
  return {
    operation_id: "op_1",
    kind: "memory_flush",
    scope_id: "scope-1",
    status,
    version,
    created_at: "2026-11-30T10:00:00Z",
    updated_at: "2026-11-30T10:00:01Z",
    started_at: null,
    finished_at: null,
    attempt_count: 0,
    error: null,
    result: null,
    ...extra,
  };
}

describe("PowerContextClient facade on the generated table and validators", () => {
  it("flushMemory submits, polls the Location and returns the validated result", async () => {
    let polls = 0;
    let submitted: unknown;
    const fetch: FetchLike = async (url, init) => {
      const path = new URL(url).pathname;
      if (path === "/v1/memory/flush") {
        submitted = JSON.parse(init.body ?? "");
        return json(202, operation("queued", 1), { location: "/v1/operations/op_1", "retry-after": "0" });
      }
      polls += 1;
      return polls < 2
        ? json(200, operation("running", 2))
        : json(200, operation("succeeded", 3, { result: flushResult }));
    };
    const PowerContextClient = await load();
    const client = new PowerContextClient({ baseUrl: BASE, fetch, minPollIntervalMs: 1, maxPollIntervalMs: 2 });
    await expect(client.flushMemory({ scope_id: "scope-1" })).resolves.toEqual(flushResult);
    expect(submitted).toEqual({ scope_id: "scope-1" });
    expect(polls).toBe(2);
  });

  it("submitFlushMemory returns the accepted operation and its id; waitForOperation resumes after a pending deadline", async () => {
    let done = false;
    const fetch: FetchLike = async (url) => {
      if (new URL(url).pathname === "/v1/memory/flush")
        return json(202, operation("queued", 1), { location: `${BASE}/v1/operations/op_1` });
      return json(200, done ? operation("succeeded", 3, { result: flushResult }) : operation("running", 2));
    };
    const PowerContextClient = await load();
    const client = new PowerContextClient({ baseUrl: BASE, fetch, minPollIntervalMs: 1, maxPollIntervalMs: 2 });
    const outcome = await client.submitFlushMemory({ scope_id: "scope-1" });
    expect(outcome).toMatchObject({
      state: "accepted",
      status: 202,
      operationId: "op_1",
      operation: { status: "queued" },
    });
    const pending = await client.flushMemory({ scope_id: "scope-1" }, { deadlineMs: 30 }).catch((e: unknown) => e);
    expect(pending).toBeInstanceOf(OperationPendingError);
    done = true;
    const finished = await client.waitForOperation((pending as OperationPendingError).operationId);
    expect(finished).toMatchObject({ status: "succeeded", result: flushResult });
  });

  it("validates success bodies against the spec", async () => {
    const PowerContextClient = await load();
    const client = new PowerContextClient({ baseUrl: BASE, fetch: scripted(json(200, { status: 1 })).fetch });
    await expect(client.getLiveness()).rejects.toBeInstanceOf(InvalidResponseError);
    const ok = new PowerContextClient({ baseUrl: BASE, fetch: scripted(json(200, { status: "ok" })).fetch });
    await expect(ok.getLiveness()).resolves.toEqual({ status: "ok" });
  });

  it("validates requests before sending", async () => {
    const server = scripted(json(200, { hits: [] }));
    const PowerContextClient = await load();
    const client = new PowerContextClient({ baseUrl: BASE, fetch: server.fetch });
    await expect(client.request("search_memory", { scope_id: "s" } as never)).rejects.toBeInstanceOf(
      InvalidRequestError,
    );
    expect(server.seen).toHaveLength(0);
  });

  it("reconciles a guarded cancel after a lost response, both ways", async () => {
    let current = operation("failed", 3);
    let cancels = 0;
    // What the Operation looks like once the lost cancel was applied (and maybe changed again by someone else).
    let afterLoss = operation("cancelled", 4);
    const fetch: FetchLike = async (_url, init) => {
      if (init.method === "GET") return json(200, current);
      cancels += 1;
      if (cancels % 2 === 1) {
        current = afterLoss;
        throw socketClosed();
      }
      return envelope(409, "version_conflict", { current_version: current.version });
    };
    const PowerContextClient = await load();
    const client = new PowerContextClient({ baseUrl: BASE, fetch, retry: { baseDelayMs: 0, maxDelayMs: 0 } });
    await expect(client.cancelOperation({ operation_id: "op_1", expected_version: 3 })).resolves.toMatchObject({
      status: "cancelled",
      version: 4,
      reconciled: true,
    });

    current = operation("failed", 5);
    afterLoss = operation("queued", 7);
    const error = await client.cancelOperation({ operation_id: "op_1", expected_version: 5 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VersionConflictError);
    expect((error as VersionConflictError).current).toMatchObject({ status: "queued", version: 7 });
  });

  it("pages with listOperationsAll", async () => {
    const fetch: FetchLike = async (url) => {
      const cursor = new URL(url).searchParams.get("cursor");
      return json(
        200,
        cursor === null
          ? { operations: [operation("failed", 2)], next_cursor: "c2" }
          : { operations: [operation("queued", 5)], next_cursor: null },
      );
    };
    const PowerContextClient = await load();
    const client = new PowerContextClient({ baseUrl: BASE, fetch });
    const seen: unknown[] = [];
    for await (const item of client.listOperationsAll({ scope_id: "scope-1" })) seen.push(item.status);
    expect(seen).toEqual(["failed", "queued"]);
  });

  it("builds from the environment", async () => {
    const PowerContextClient = await load();
    const client = PowerContextClient.fromEnv(
      { fetch: scripted(json(200, { status: "ok" })).fetch },
      {
        POWERCONTEXT_CLIENT_SERVER_URL: "http://127.0.0.1:8765/",
        POWERCONTEXT_CLIENT_TIMEOUT: "3",
      },
    );
    expect(client.baseUrl).toBe("http://127.0.0.1:8765");
    expect(() => PowerContextClient.fromEnv({}, { POWERCONTEXT_CLIENT_SERVER_URL: "http://pc.example.com" })).toThrow(
      /loopback/,
    );
  });
});
