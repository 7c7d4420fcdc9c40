import { describe, expect, it } from "vitest";
import {
  AuthenticationError,
  ClientError,
  ForbiddenResponseError,
  PermissionDeniedError,
  PowerContextClient,
  ServiceUnavailableError,
  UnauthorizedResponseError,
  UnavailableResponseError,
  UnknownOperationError,
} from "../src/index.js";

const init = {
  message: "m",
  statusCode: 0,
  code: null,
  requestId: null,
  serverMessage: null,
  details: null,
  retryAfterMs: null,
};

describe("error classes under the 1.4.1 Python names", () => {
  it.each([
    ["UnauthorizedResponseError", UnauthorizedResponseError, AuthenticationError, 401],
    ["ForbiddenResponseError", ForbiddenResponseError, PermissionDeniedError, 403],
    ["UnavailableResponseError", UnavailableResponseError, ServiceUnavailableError, 503],
  ] as const)("%s and our class are one class: instanceof holds for either name", (_name, python, ours, statusCode) => {
    const fromOurs = new ours({ ...init, statusCode } as never);
    const fromPython = new python({ ...init, statusCode } as never);
    expect(fromOurs).toBeInstanceOf(python);
    expect(fromPython).toBeInstanceOf(ours);
    expect(fromOurs).toBeInstanceOf(ClientError);
  });
});

describe("request(operationId) with a name the contract does not have", () => {
  it("rejects with UnknownOperationError, a ClientError, before anything is sent", async () => {
    let sent = 0;
    const client = new PowerContextClient({
      baseUrl: "http://127.0.0.1:9",
      token: "t",
      fetch: async () => {
        sent += 1;
        return new Response("{}");
      },
    } as never);
    const error = await client.request("no_such_operation" as never, {} as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownOperationError);
    expect(error).toBeInstanceOf(ClientError);
    expect((error as UnknownOperationError).code).toBe("unknown_operation");
    await expect(client.request("toString" as never, {} as never)).rejects.toBeInstanceOf(UnknownOperationError);
    expect(sent).toBe(0);
  });
});
