// x-powercontext-not-served: a server that predates an operation answers its route with a
// bare 404; the descriptor says what that means, and the error says it in words.
import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/core/runtime.js";
import { runOperation } from "../../src/core/run-operation.js";
import { NotFoundError, ServerResponseError } from "../../src/errors.js";
import { OperationNotServedError } from "../../src/not-served-error.js";
import { descriptor } from "../helpers/descriptors.js";
import { json, scripted } from "@powercontext/runtime/testing";

const BASE = "https://pc.example.com";
const HINT = "this server has no Operation API; it answers flush_memory synchronously";
const listOperations = descriptor({
  operationId: "list_operations",
  method: "GET",
  path: "/v1/operations",
  requestLocation: "query",
  queryParameters: ["scope_id"],
  errorStatuses: [404],
  notServed: { status: 404, message: HINT },
});
const run = (d: typeof listOperations, answer: Response) => {
  const server = scripted(answer);
  const runtime = createRuntime({ baseUrl: BASE, fetch: server.fetch, retry: { baseDelayMs: 0, maxDelayMs: 0 } });
  return { server, outcome: runOperation(runtime, d, { scope_id: "s" }).catch((e: unknown) => e) };
};

describe("an operation the server does not serve", () => {
  it("a bare 404 (a framework's {detail}) becomes OperationNotServedError, still a NotFoundError, with the spec's words", async () => {
    const { server, outcome } = run(listOperations, json(404, { detail: "Not Found" }));
    const error = await outcome;
    expect(error).toBeInstanceOf(OperationNotServedError);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ statusCode: 404, code: null, hint: HINT, body: '{"detail":"Not Found"}' });
    expect((error as Error).message).toBe(`PowerContext server responded 404: ${HINT}`);
    expect(server.seen).toHaveLength(1);
  });

  it("an empty 404 is the same", async () => {
    const error = await run(listOperations, new Response(null, { status: 404 })).outcome;
    expect(error).toBeInstanceOf(OperationNotServedError);
  });

  it("a 404 with an error code is the server's own answer (an unknown scope), not a missing route", async () => {
    const error = await run(
      listOperations,
      json(404, { error: { code: "scope_not_found", message: "no such scope", details: null } }),
    ).outcome;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).not.toBeInstanceOf(OperationNotServedError);
    expect(error).toMatchObject({ code: "scope_not_found" });
  });

  it("without the extension a bare 404 stays a plain NotFoundError", async () => {
    const plain = descriptor({ ...listOperations, notServed: null });
    const error = await run(plain, json(404, { detail: "Not Found" })).outcome;
    expect(error).toBeInstanceOf(ServerResponseError);
    expect(error).not.toBeInstanceOf(OperationNotServedError);
    expect((error as Error).message).toBe("PowerContext server responded 404");
  });
});

describe("a 404 that names a code outside the exact envelope", () => {
  it.each([
    ["details missing", { error: { code: "operation_not_found", message: "no such Operation" } }],
    ["an extra member", { error: { code: "operation_not_found", message: "m", details: null }, request_id: "r" }],
  ])("is the server's own not-found, not a missing route (%s)", async (_label, body) => {
    const error = await run(listOperations, json(404, body)).outcome;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).not.toBeInstanceOf(OperationNotServedError);
  });
});
