import { describe, expect, it } from "vitest";
import { InvalidResponseError } from "../../src/errors.js";
import { operationIdFromLocation } from "../../src/operations/location.js";
import { getOperation } from "../helpers/descriptors.js";

const context = (baseUrl: string) => ({
  baseUrl,
  requestUrl: `${baseUrl}/v1/memory/flush`,
  statusCode: 202,
  requestId: "r",
});

describe("operationIdFromLocation", () => {
  it.each([
    ["absolute-path reference", "/v1/operations/op_1", "https://pc.example.com", "op_1"],
    ["absolute URL", "https://pc.example.com/v1/operations/op_2", "https://pc.example.com", "op_2"],
    ["dot-relative reference", "../operations/op_3", "https://pc.example.com", "op_3"],
    ["base path prefix", "/api/v1/operations/op_4", "https://pc.example.com/api", "op_4"],
    ["prefix, relative", "../operations/op_5", "https://pc.example.com/api", "op_5"],
    ["percent-encoded id", "/v1/operations/op%2F6", "https://pc.example.com", "op/6"],
  ])("resolves a %s", (_label, location, baseUrl, id) => {
    expect(operationIdFromLocation(location, getOperation, context(baseUrl))).toBe(id);
  });

  it.each([
    ["another origin", "https://evil.example.com/v1/operations/op_1"],
    ["another port", "https://pc.example.com:8443/v1/operations/op_1"],
    ["another scheme", "http://pc.example.com/v1/operations/op_1"],
    ["outside the template", "/v1/things/op_1"],
    ["nested path", "/v1/operations/op_1/cancel"],
  ])("refuses %s", (_label, location) => {
    expect(() => operationIdFromLocation(location, getOperation, context("https://pc.example.com"))).toThrow(
      InvalidResponseError,
    );
  });

  it("refuses a Location outside the base path", () => {
    expect(() =>
      operationIdFromLocation("/v1/operations/op_1", getOperation, context("https://pc.example.com/api")),
    ).toThrow(/outside the base URL/);
  });
});
