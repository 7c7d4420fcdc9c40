import { describe, expect, it } from "vitest";
import { validatorMap } from "../../packages/sdk/src/generated/validator-map.js";

// The SDK validates the flat request object (path and query parameters by wire
// name, plus the body members) before sending. These cases pin how parameters and
// a closed body schema (additionalProperties: false) combine in openapi.yaml.
describe("generated request validators", () => {
  const cancel = validatorMap.cancel_operation.request;
  const list = validatorMap.list_operations.request;

  it("accepts path parameters beside the members of a closed body", () => {
    expect(cancel?.({ operation_id: "op_1", expected_version: 3 })).toBe(true);
  });

  it("still rejects members that are neither parameters nor body properties", () => {
    expect(cancel?.({ operation_id: "op_1", expected_version: 3, force: true })).toBe(false);
    expect(cancel?.errors?.[0]?.keyword).toBe("additionalProperties");
  });

  it("keeps the required sets of both the parameters and the body", () => {
    expect(cancel?.({ expected_version: 3 })).toBe(false);
    expect(cancel?.({ operation_id: "op_1" })).toBe(false);
  });

  it("keeps the body's own constraints", () => {
    expect(cancel?.({ operation_id: "op_1", expected_version: 0 })).toBe(false);
  });

  it("names the allowed values of an enum in the issue", () => {
    expect(list?.({ scope_id: "team", status: "bogus" })).toBe(false);
    expect(list?.errors?.[0]).toMatchObject({ instancePath: "/status", keyword: "enum" });
    expect(list?.errors?.[0]?.message).toBe('must be one of "queued", "running", "succeeded", "failed", "cancelled"');
  });

  it("validates query-only requests by parameter schema", () => {
    expect(list?.({ scope_id: "team", limit: 10 })).toBe(true);
    expect(list?.({ limit: 10 })).toBe(false);
  });
});
