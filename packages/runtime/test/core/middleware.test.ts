import { describe, expect, it } from "vitest";
import type { Middleware, MiddlewareRequest } from "../../src/config/middleware-hooks.js";
import { runOperation } from "../../src/core/run-operation.js";
import { createRuntime } from "../../src/core/runtime.js";
import { ConfigurationError, MiddlewareError, NotFoundError, ServiceUnavailableError } from "../../src/errors.js";
import { descriptor } from "../helpers/descriptors.js";
import { envelope, json, scripted } from "@powercontext/runtime/testing";

const BASE = "https://pc.example.com";
const TOKEN = "tok-secret-123";
const search = descriptor({ operationId: "search_memory", path: "/v1/memory/search" });
const fast = { retry: { baseDelayMs: 0, maxDelayMs: 0 } };

/** Middleware that appends what each hook saw to `log`, tagged with `name`. */
function recorder(name: string, log: string[]): Middleware {
  return {
    onRequest: (request) => void log.push(`${name}.request#${request.attempt}`),
    onResponse: ({ request, response }) => void log.push(`${name}.response#${request.attempt}:${response.status}`),
    onError: ({ request, error }) => void log.push(`${name}.error#${request.attempt}:${(error as Error).name}`),
  };
}

describe("middleware around every attempt", () => {
  it("runs onRequest in order and onResponse and onError in reverse, once per attempt inside the retry loop", async () => {
    const log: string[] = [];
    const server = scripted(envelope(503, "unavailable"), json(200, { hits: [] }));
    const runtime = createRuntime({
      baseUrl: BASE,
      token: TOKEN,
      fetch: server.fetch,
      ...fast,
      middleware: [recorder("a", log), recorder("b", log)],
    });
    const result = await runOperation(runtime, search, { query: "q" });
    expect(result.attempts).toBe(2);
    expect(log).toEqual([
      "a.request#1",
      "b.request#1",
      "b.response#1:503",
      "a.response#1:503",
      "b.error#1:ServiceUnavailableError",
      "a.error#1:ServiceUnavailableError",
      "a.request#2",
      "b.request#2",
      "b.response#2:200",
      "a.response#2:200",
    ]);
  });

  it("sends the headers onRequest set, never shows Authorization to a hook, and still sends the token", async () => {
    const seen: MiddlewareRequest[] = [];
    const server = scripted(json(200, { hits: [] }));
    const middleware: Middleware = {
      onRequest(request) {
        seen.push(request);
        request.headers.set("x-trace-tag", `attempt-${request.attempt}`);
        request.headers.delete("accept");
      },
    };
    await runOperation(
      createRuntime({ baseUrl: BASE, token: TOKEN, fetch: server.fetch, middleware: [middleware] }),
      search,
      { query: "q" },
    );
    expect(seen[0]?.headers.has("authorization")).toBe(false);
    expect(JSON.stringify([...(seen[0]?.headers ?? [])])).not.toContain(TOKEN);
    expect(seen[0]).toMatchObject({
      operationId: "search_memory",
      method: "POST",
      url: `${BASE}/v1/memory/search`,
      body: '{"query":"q"}',
    });
    expect(server.seen[0]?.headers).toMatchObject({ "x-trace-tag": "attempt-1", authorization: `Bearer ${TOKEN}` });
    expect(server.seen[0]?.headers.accept).toBeUndefined();
  });

  it("refuses a hook that sets Authorization with MiddlewareError, before anything is sent", async () => {
    const server = scripted(json(200, { hits: [] }));
    const sneaky: Middleware = { onRequest: (request) => request.headers.set("Authorization", "Bearer other") };
    for (const token of [TOKEN, ""]) {
      const runtime = createRuntime({ baseUrl: BASE, token, fetch: server.fetch, middleware: [sneaky] });
      const error = await runOperation(runtime, search, {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MiddlewareError);
      expect((error as MiddlewareError).code).toBe("ERR_POWERCONTEXT_MIDDLEWARE");
    }
    expect(server.seen).toHaveLength(0);
  });

  it("lets onResponse replace the response before it is decoded and validated", async () => {
    const server = scripted(envelope(404, "not_found"));
    const middleware: Middleware = {
      onResponse: ({ response }) => (response.status === 404 ? json(200, { hits: ["patched"] }) : undefined),
    };
    const result = await runOperation(
      createRuntime({ baseUrl: BASE, fetch: server.fetch, middleware: [middleware] }),
      search,
      {},
    );
    expect(result.data).toEqual({ hits: ["patched"] });
  });

  it("ends the call with a sanitized MiddlewareError when a hook throws, without retrying", async () => {
    const server = scripted(json(200, { hits: [] }));
    const middleware: Middleware = {
      onResponse: () => {
        throw new Error(`hook broke with Bearer ${TOKEN}`);
      },
    };
    const runtime = createRuntime({
      baseUrl: BASE,
      token: TOKEN,
      fetch: server.fetch,
      ...fast,
      middleware: [middleware],
    });
    const error = (await runOperation(runtime, search, {}).catch((e: unknown) => e)) as MiddlewareError;
    expect(error).toBeInstanceOf(MiddlewareError);
    expect(error.message).toBe("middleware onResponse failed");
    expect(JSON.stringify({ message: error.message, cause: String((error.cause as Error).message) })).not.toContain(
      TOKEN,
    );
    expect(server.seen).toHaveLength(1);
  });

  it("keeps the attempt's own error when onError throws", async () => {
    const server = scripted(envelope(404, "not_found"));
    const middleware: Middleware = {
      onError: () => {
        throw new Error("observer broke");
      },
    };
    const error = await runOperation(
      createRuntime({ baseUrl: BASE, fetch: server.fetch, middleware: [middleware] }),
      search,
      {},
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
  });

  it("sees every retried failure through onError", async () => {
    const errors: unknown[] = [];
    const server = scripted(envelope(503, "unavailable"));
    const runtime = createRuntime({
      baseUrl: BASE,
      fetch: server.fetch,
      ...fast,
      maxRetries: 2,
      middleware: [{ onError: ({ error }) => void errors.push(error) }],
    });
    await expect(runOperation(runtime, search, {})).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(errors).toHaveLength(3);
  });

  it("refuses a middleware list that is not objects, in the constructor", () => {
    expect(() => createRuntime({ baseUrl: BASE, middleware: [null as unknown as Middleware] })).toThrow(
      ConfigurationError,
    );
  });
});

describe("middleware and createCaller", () => {
  it("a caller runs middleware only with the runner in its parts, and refuses the option without it", async () => {
    const { createCaller } = await import("../../src/core/create-caller.js");
    const { sendThroughMiddleware } = await import("../../src/core/middleware.js");
    const log: string[] = [];
    const server = scripted(json(200, { hits: [] }));
    const options = { baseUrl: BASE, token: TOKEN, fetch: server.fetch, middleware: [recorder("a", log)] };
    expect(() => createCaller(options, search)).toThrow(ConfigurationError);
    expect(() => createCaller(options, search)).toThrow(/parts\.middleware/);
    expect(server.seen).toHaveLength(0);
    await expect(createCaller(options, search, { middleware: sendThroughMiddleware })({ query: "q" })).resolves.toEqual(
      { hits: [] },
    );
    expect(log).toEqual(["a.request#1", "a.response#1:200"]);
    // Without middleware, no runner is needed.
    await expect(createCaller({ baseUrl: BASE, fetch: server.fetch }, search)({ query: "q" })).resolves.toEqual({
      hits: [],
    });
  });
});
