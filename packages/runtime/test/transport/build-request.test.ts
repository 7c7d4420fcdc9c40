import { describe, expect, it } from "vitest";
import { InvalidRequestError } from "../../src/errors.js";
import { buildRequest } from "../../src/transport/build-request.js";
import { cancelOperation, descriptor, listOperations } from "../helpers/descriptors.js";

const baseUrl = "https://pc.example.com";

describe("buildRequest", () => {
  it("splits path parameters from body fields", () => {
    const built = buildRequest({ baseUrl, descriptor: cancelOperation, request: { operation_id: "op 1", expected_version: 3 }, token: "t" });
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
    expect(buildRequest({ baseUrl, descriptor: post, request: {}, token: "tok" }).headers.authorization).toBe("Bearer tok");
    expect(buildRequest({ baseUrl, descriptor: post, request: {}, token: "" }).headers).not.toHaveProperty("authorization");
  });

  it.each(["Authorization", "authorization", "AUTHORIZATION"])("refuses a caller %s header that would replace the token", (name) => {
    expect(() =>
      buildRequest({ baseUrl, descriptor: descriptor({ operationId: "x" }), request: {}, token: "tok", headers: { [name]: "Bearer other" } }),
    ).toThrow(InvalidRequestError);
  });

  it("refuses a missing path parameter and unknown GET parameters", () => {
    expect(() => buildRequest({ baseUrl, descriptor: cancelOperation, request: { expected_version: 1 }, token: "" })).toThrow(/operation_id/);
    expect(() => buildRequest({ baseUrl, descriptor: listOperations, request: { bogus: 1 }, token: "" })).toThrow(/bogus/);
  });
});
