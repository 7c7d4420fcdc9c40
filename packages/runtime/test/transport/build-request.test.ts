import { describe, expect, it } from "vitest";
import { InvalidRequestError } from "../../src/errors.js";
import { buildRequest } from "../../src/transport/build-request.js";
import { cancelOperation, descriptor, listOperations } from "../helpers/descriptors.js";

const baseUrl = "https://pc.example.com";

describe("buildRequest", () => {
  it("splits path parameters from body fields", () => {
    const built = buildRequest({
      baseUrl,
      descriptor: cancelOperation,
      request: { operation_id: "op 1", expected_version: 3 },
      token: "t",
    });
    expect(built.url).toBe("https://pc.example.com/v1/operations/op%201/cancel");
    expect(built.path).toBe("/v1/operations/op%201/cancel");
    expect(JSON.parse(built.body ?? "")).toEqual({ expected_version: 3 });
    expect(built.headers["content-type"]).toBe("application/json");
  });

  it("puts query parameters in the query string, repeating arrays and dropping nulls", () => {
    const built = buildRequest({
      baseUrl,
      descriptor: listOperations,
      request: { scope_id: "s", status: ["queued", "failed"], cursor: null, limit: 10 },
      token: "",
    });
    expect(built.url).toBe("https://pc.example.com/v1/operations?scope_id=s&status=queued&status=failed&limit=10");
    expect(built.body).toBeUndefined();
  });

  it("sends Authorization only for a non-empty token", () => {
    const post = descriptor({ operationId: "x" });
    expect(buildRequest({ baseUrl, descriptor: post, request: {}, token: "tok" }).headers.authorization).toBe(
      "Bearer tok",
    );
    expect(buildRequest({ baseUrl, descriptor: post, request: {}, token: "" }).headers).not.toHaveProperty(
      "authorization",
    );
  });

  it.each(["Authorization", "authorization", "AUTHORIZATION"])(
    "refuses a caller %s header that would replace the token",
    (name) => {
      expect(() =>
        buildRequest({
          baseUrl,
          descriptor: descriptor({ operationId: "x" }),
          request: {},
          token: "tok",
          headers: { [name]: "Bearer other" },
        }),
      ).toThrow(InvalidRequestError);
    },
  );

  it("refuses a missing path parameter and unknown GET parameters", () => {
    expect(() =>
      buildRequest({ baseUrl, descriptor: cancelOperation, request: { expected_version: 1 }, token: "" }),
    ).toThrow(/operation_id/);
    expect(() => buildRequest({ baseUrl, descriptor: listOperations, request: { bogus: 1 }, token: "" })).toThrow(
      /bogus/,
    );
  });

  it("refuses a row that lists parameters without writeParameters instead of sending the template", () => {
    const { writeParameters: _writer, ...bare } = cancelOperation;
    expect(() =>
      buildRequest({ baseUrl, descriptor: bare, request: { operation_id: "op", expected_version: 1 }, token: "" }),
    ).toThrow(/cancel_operation: the descriptor lists parameters but has no writeParameters/);
    const { writeParameters: _listWriter, ...bareList } = listOperations;
    expect(() => buildRequest({ baseUrl, descriptor: bareList, request: {}, token: "" })).toThrow(InvalidRequestError);
  });

  it("writes a row without parameters with no writer: its path, its body, and a polled Location's query", () => {
    const post = descriptor({ operationId: "flush", path: "/v1/memory/flush" });
    expect(post.writeParameters).toBeUndefined();
    const built = buildRequest({
      baseUrl,
      descriptor: post,
      request: { scope_id: "s" },
      token: "",
      extraQuery: "a=1&b=2",
    });
    expect(built.url).toBe("https://pc.example.com/v1/memory/flush?a=1&b=2");
    expect(built.path).toBe("/v1/memory/flush");
    expect(JSON.parse(built.body ?? "")).toEqual({ scope_id: "s" });
  });

  it("appends a polled Location's query after the operation's own parameters", () => {
    const built = buildRequest({
      baseUrl,
      descriptor: listOperations,
      request: { scope_id: "s" },
      token: "",
      extraQuery: "page=2",
    });
    expect(built.url).toBe("https://pc.example.com/v1/operations?scope_id=s&page=2");
  });
});
