import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/core/runtime.js";
import { runOperation } from "../../src/core/run-operation.js";
import { InvalidRequestError } from "../../src/errors.js";
import { buildRequest } from "../../src/transport/build-request.js";
import { cancelOperation, getOperation, table } from "../helpers/descriptors.js";
import { json, scripted } from "@powercontext/runtime/testing";

const baseUrl = "https://pc.example.com";

describe("path parameters that are dot segments", () => {
  it.each([".", "..", "%2e", "%2E", ".%2e", "%2e.", "%2E%2e", "%2e%2e"])(
    "refuses %j before anything is sent",
    async (id) => {
      const server = scripted(json(200, {}));
      const runtime = createRuntime({ baseUrl, fetch: server.fetch }, { operations: table });
      const error = await runOperation(runtime, getOperation, { operation_id: id }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect((error as InvalidRequestError).message).toMatch(/operation_id must not be "\." or "\.\."/);
      expect(server.seen).toHaveLength(0);
    },
  );

  it("refuses them in a path with more than one segment too", () => {
    expect(() =>
      buildRequest({
        baseUrl,
        descriptor: cancelOperation,
        request: { operation_id: "..", expected_version: 1 },
        token: "",
      }),
    ).toThrow(InvalidRequestError);
  });

  it.each(["...", "..a", ".a", "a..", "%2e%2e%2e", "%252e%252e", "../x", "a/..", "./", "op_1"])(
    "sends %j as one segment that URL parsing leaves alone",
    (id) => {
      const built = buildRequest({ baseUrl, descriptor: getOperation, request: { operation_id: id }, token: "" });
      const parsed = new URL(built.url);
      expect(parsed.pathname).toBe(built.path);
      expect(parsed.pathname.split("/")).toHaveLength(4);
      expect(decodeURIComponent(parsed.pathname.split("/")[3] ?? "")).toBe(id);
    },
  );
});
