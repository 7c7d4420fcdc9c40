// A header no HTTP/1.1 message can carry fails before anything is sent, whoever
// supplied it (the caller's headers, a header parameter, a middleware), and is
// never retried as if the network had failed.
import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/core/runtime.js";
import { runOperation } from "../../src/core/run-operation.js";
import { InvalidRequestError, MiddlewareError } from "../../src/errors.js";
import { descriptor } from "../helpers/descriptors.js";
import { json, scripted } from "@powercontext/runtime/testing";

const conditional = descriptor({
  operationId: "get_artifact",
  method: "GET",
  requestLocation: null,
  headerParameters: ["If-None-Match"],
});

function runtimeWith(middleware: unknown[] = []) {
  const server = scripted(json(200, {}));
  const retries: unknown[] = [];
  const runtime = createRuntime({
    baseUrl: "https://pc.example.com",
    token: "tok",
    fetch: server.fetch,
    retry: { baseDelayMs: 0, maxDelayMs: 0 },
    onRetry: (event) => retries.push(event),
    middleware: middleware as never,
  });
  return { runtime, seen: server.seen, retries };
}

describe("unsendable headers", () => {
  it.each(['"etag-\u20ac"', "a\u0001b", "a\u007fb", "a\nb"])(
    "refuses the header parameter value %j before sending",
    async (value) => {
      const { runtime, seen, retries } = runtimeWith();
      const error = await runOperation(runtime, conditional, { "If-None-Match": value }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect((error as Error).message).toBe(
        "header parameter If-None-Match must not contain CR, LF, NUL, DEL or characters beyond U+00FF",
      );
      expect(seen).toHaveLength(0);
      expect(retries).toEqual([]);
    },
  );

  it("sends a Latin-1 header parameter as it is", async () => {
    const { runtime, seen } = runtimeWith();
    await runOperation(runtime, conditional, { "If-None-Match": '"caf\u00e9"' });
    expect(seen[0]?.headers["if-none-match"]).toBe('"caf\u00e9"');
  });

  it.each([
    ["transfer-encoding", "chunked"],
    ["content-length", "5"],
    ["upgrade", "websocket"],
    ["x-del", "a\u007fb"],
  ])("refuses what a middleware sets (%s) with MiddlewareError, unsent and not retried", async (name, value) => {
    const { runtime, seen, retries } = runtimeWith([
      { onRequest: ({ headers }: { headers: Headers }) => headers.set(name, value) },
    ]);
    const error = await runOperation(runtime, conditional, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MiddlewareError);
    expect((error as Error).message).toMatch(/^header \S+ (is set by the HTTP client|must not contain)/);
    expect((error as Error).message).not.toContain(value);
    expect(seen).toHaveLength(0);
    expect(retries).toEqual([]);
  });
});
