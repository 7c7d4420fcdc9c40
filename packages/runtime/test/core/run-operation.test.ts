import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/core/runtime.js";
import { runOperation } from "../../src/core/run-operation.js";
import {
  InvalidRequestError,
  InvalidResponseError,
  ServerResponseError,
  TimeoutError,
  UnprocessableEntityError,
} from "../../src/errors.js";
import type { Validator } from "../../src/descriptor.js";
import { OperationBlockedError, contractErrorsByCode as contractErrors } from "../helpers/contract-errors.js";
import type { FetchInit, FetchLike } from "../../src/transport/fetch-adapter.js";
import { descriptor, flushMemory, getOperation } from "../helpers/descriptors.js";
import { envelope, json, scripted } from "@powercontext/runtime/testing";

const BASE = "https://pc.example.com";
const fast = { retry: { baseDelayMs: 0, maxDelayMs: 0 } };
const search = descriptor({ operationId: "search_memory", path: "/v1/memory/search" });

/** A validator requiring `{ hits: array }`, shaped like ajv's output. */
const hitsValidator: Validator = Object.assign(
  (data: unknown) => {
    const ok = typeof data === "object" && data !== null && Array.isArray((data as { hits?: unknown }).hits);
    hitsValidator.errors = ok ? null : [{ instancePath: "/hits", message: "must be array", keyword: "type" }];
    return ok;
  },
  { errors: null },
);

describe("runOperation: success is exactly the declared status (docs/compatibility.md)", () => {
  it("returns the body and request id of the declared status", async () => {
    const server = scripted(json(200, { hits: [] }, { "x-powercontext-request-id": "r-1" }));
    const result = await runOperation(createRuntime({ baseUrl: BASE, fetch: server.fetch }), search, { query: "q" });
    expect(result).toMatchObject({ statusCode: 200, data: { hits: [] }, requestId: "r-1", accepted: false });
  });

  it.each([201, 204, 206])("treats another 2xx (%d) as ServerResponseError", async (status) => {
    const server = scripted(new Response(status === 204 ? null : "{}", { status }));
    const error = await runOperation(createRuntime({ baseUrl: BASE, fetch: server.fetch }), search, {}).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServerResponseError);
    expect((error as ServerResponseError).statusCode).toBe(status);
  });

  it("does not follow redirects: a 3xx is a ServerResponseError and fetch is asked for manual redirects", async () => {
    const server = scripted(new Response(null, { status: 307, headers: { location: "https://elsewhere.example/" } }));
    const error = await runOperation(createRuntime({ baseUrl: BASE, fetch: server.fetch }), search, {}).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServerResponseError);
    expect((error as ServerResponseError).statusCode).toBe(307);
    expect(server.seen).toHaveLength(1);
    expect(server.seen[0]?.redirect).toBe("manual");
  });

  it("tolerates a 202 with an empty body for an asynchronous operation", async () => {
    const server = scripted(new Response(null, { status: 202, headers: { location: "/v1/operations/op_1" } }));
    const result = await runOperation(createRuntime({ baseUrl: BASE, fetch: server.fetch }), flushMemory, {
      scope_id: "s",
    });
    expect(result).toMatchObject({ statusCode: 202, accepted: true, data: null, location: "/v1/operations/op_1" });
  });

  it("refuses a 202 for an operation that declares no accepted status", async () => {
    const server = scripted(new Response(null, { status: 202 }));
    await expect(
      runOperation(createRuntime({ baseUrl: BASE, fetch: server.fetch }), search, {}),
    ).rejects.toBeInstanceOf(ServerResponseError);
  });
});

describe("runOperation: error bodies", () => {
  it("decodes the exact envelope into code, serverMessage and details, and picks the contract class", async () => {
    const server = scripted(
      envelope(409, "operation_blocked", { operation_id: "op_9" }, { "x-powercontext-request-id": "r-9" }),
    );
    const error = await runOperation(
      createRuntime({ baseUrl: BASE, fetch: server.fetch }, { contractErrors }),
      flushMemory,
      {},
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperationBlockedError);
    expect(error).toMatchObject({
      statusCode: 409,
      code: "operation_blocked",
      serverMessage: "operation_blocked happened",
      details: { operation_id: "op_9" },
      requestId: "r-9",
      operationId: "op_9",
    });
  });

  it.each([
    ["plain text", "Bad Gateway"],
    ["extra top-level key", JSON.stringify({ error: { code: "x", message: "m", details: null }, trace: 1 })],
    ["extra error key", JSON.stringify({ error: { code: "x", message: "m", details: null, hint: "h" } })],
    ["missing details", JSON.stringify({ error: { code: "x", message: "m" } })],
    ["non-string code", JSON.stringify({ error: { code: 5, message: "m", details: null } })],
    ["array details", JSON.stringify({ error: { code: "x", message: "m", details: [] } })],
    ["FastAPI detail", JSON.stringify({ detail: [{ loc: ["body"], msg: "field required" }] })],
  ])("keeps status and request id but nulls code/message/details for %s", async (_label, body) => {
    const server = scripted(new Response(body, { status: 422, headers: { "x-powercontext-request-id": "r-422" } }));
    const error = await runOperation(createRuntime({ baseUrl: BASE, fetch: server.fetch }), search, {}).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error).toMatchObject({
      statusCode: 422,
      requestId: "r-422",
      code: null,
      serverMessage: null,
      details: null,
    });
  });
});

describe("runOperation: validation", () => {
  it("validates every success body and reports issues with the request id", async () => {
    const server = scripted(json(200, { hits: "nope" }, { "x-powercontext-request-id": "r-bad" }));
    const runtime = createRuntime(
      { baseUrl: BASE, fetch: server.fetch },
      { validators: { search_memory: { responses: { 200: hitsValidator } } } },
    );
    const error = await runOperation(runtime, search, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({ requestId: "r-bad", statusCode: 200, issues: ["/hits must be array"] });
    expect((error as Error).message).toContain("/hits must be array");
  });

  it("rejects an invalid request before sending anything", async () => {
    const server = scripted(json(200, { hits: [] }));
    const requestValidator: Validator = Object.assign(
      (data: unknown) => typeof (data as { query?: unknown }).query === "string",
      {
        errors: [{ instancePath: "/query", message: "must be string" }],
      },
    );
    const runtime = createRuntime(
      { baseUrl: BASE, fetch: server.fetch },
      {
        validators: { search_memory: { request: requestValidator, responses: {} } },
      },
    );
    const error = await runOperation(runtime, search, { query: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).issues).toEqual(["/query must be string"]);
    expect((error as InvalidRequestError).message).toContain("/query must be string");
    expect(server.seen).toHaveLength(0);
  });

  it("rejects integers outside ±(2^53-1) instead of rounding them", async () => {
    const server = scripted(
      new Response('{"hits":[],"total":9007199254740993}', {
        status: 200,
        headers: { "content-type": "application/json" },
      }),
    );
    const error = await runOperation(createRuntime({ baseUrl: BASE, fetch: server.fetch }), search, {}).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toContain("9007199254740993");
  });

  it("caps the response body at 1 MiB by default", async () => {
    const big = JSON.stringify({ hits: ["x".repeat(1024 * 1024)] });
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const server = scripted(() => new Response(stream, { status: 200 }));
    const error = await runOperation(createRuntime({ baseUrl: BASE, fetch: server.fetch }), search, {}).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toContain("1048576");
  });
});

describe("runOperation: requests", () => {
  it("sends path parameters in the path and no body for a GET", async () => {
    const server = scripted(json(200, { operation_id: "a/b" }));
    await runOperation(createRuntime({ baseUrl: `${BASE}/api/`, fetch: server.fetch }), getOperation, {
      operation_id: "a/b",
    });
    expect(server.seen[0]).toMatchObject({ url: `${BASE}/api/v1/operations/a%2Fb`, method: "GET", body: undefined });
  });

  it("times out an attempt after timeoutMs, aborting fetch's signal, and retries a safe operation", async () => {
    const inits: FetchInit[] = [];
    const fetch: FetchLike = (_url, init) => {
      inits.push(init);
      return new Promise(() => undefined); // never answers, ignores its signal
    };
    const runtime = createRuntime({ baseUrl: BASE, fetch, timeoutMs: 20, maxRetries: 1, ...fast });
    const error = await runOperation(runtime, search, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).limit).toBe("attempt");
    expect(inits).toHaveLength(2);
    expect(inits.every((init) => init.signal.aborted)).toBe(true);
  });

  it("cancels, unread, the body of a response that a fetch ignoring its signal hands over after the timeout", async () => {
    let cancelled = false;
    let answered!: () => void;
    const late = new Promise<void>((resolve) => (answered = resolve));
    const fetch: FetchLike = () =>
      new Promise((resolve) =>
        setTimeout(() => {
          const body = new ReadableStream({ cancel: () => void (cancelled = true) });
          resolve(new Response(body, { status: 200 }));
          answered();
        }, 60),
      );
    const runtime = createRuntime({ baseUrl: BASE, fetch, timeoutMs: 20, maxRetries: 0 });
    const error = await runOperation(runtime, search, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(cancelled).toBe(false);
    await late;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(cancelled).toBe(true);
  });

  it("with a caller signal, hands fetch a signal that the attempt's timeout aborts", async () => {
    const inits: FetchInit[] = [];
    const fetch: FetchLike = (_url, init) => {
      inits.push(init);
      return new Promise((_resolve, reject) => {
        init.signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
      });
    };
    const runtime = createRuntime({ baseUrl: BASE, fetch, timeoutMs: 20, maxRetries: 0 });
    const caller = new AbortController();
    const error = await runOperation(runtime, search, {}, { signal: caller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(inits[0]?.signal.aborted).toBe(true);
    expect(caller.signal.aborted).toBe(false);
  });

  it.each([
    ["without", undefined],
    ["with", new AbortController().signal],
  ])("stops at the total deadline across attempts, %s a caller signal", async (_label, signal) => {
    const fetch: FetchLike = (_url, init) =>
      new Promise((_resolve, reject) => {
        init.signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
      });
    const runtime = createRuntime({ baseUrl: BASE, fetch, timeoutMs: 10_000, maxRetries: 5, ...fast });
    const started = Date.now();
    const error = await runOperation(
      runtime,
      search,
      {},
      signal === undefined ? { deadlineMs: 50 } : { deadlineMs: 50, signal },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).limit).toBe("deadline");
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
