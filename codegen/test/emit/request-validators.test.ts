import { describe, expect, it } from "vitest";
import { validatorMap } from "../../../packages/sdk/src/generated/validator-map.js";

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

// A body that is a composition (a oneOf of closed objects, with or without a discriminator)
// cannot be merged with the parameters into one object; its branches must still let the
// parameter names through at the root of the flat request, and nothing else.
describe("generated request validators of a composed body beside parameters", () => {
  const create = validatorMap.create_artifact.request;
  const replace = validatorMap.replace_artifact.request;
  const fact = { kind: "fact", text: "The staging database is reset every night." };

  it("accepts path parameters beside the members of a discriminated oneOf branch", () => {
    expect(create?.({ scope_id: "s1", family: "atomic-memory", content: fact })).toBe(true);
    expect(create?.errors).toBeNull();
  });

  it("accepts path and header parameters beside a oneOf branch without discriminator", () => {
    expect(
      replace?.({ scope_id: "s1", family: "atomic-memory", artifact_id: "a1", "If-Match": '"e1"', content: fact }),
    ).toBe(true);
  });

  it("still rejects a member that is neither a parameter nor a member of the branch", () => {
    expect(create?.({ scope_id: "s1", family: "atomic-memory", content: fact, extra: 1 })).toBe(false);
    expect(
      replace?.({
        scope_id: "s1",
        family: "atomic-memory",
        artifact_id: "a1",
        "If-Match": '"e1"',
        content: fact,
        extra: 1,
      }),
    ).toBe(false);
  });

  it("keeps the parameters' own schema and required set", () => {
    expect(create?.({ family: "atomic-memory", content: fact })).toBe(false);
    expect(create?.({ scope_id: "", family: "atomic-memory", content: fact })).toBe(false);
    expect(replace?.({ scope_id: "s1", family: "atomic-memory", artifact_id: "a1", content: fact })).toBe(false);
  });

  it("keeps the branch's constraints (the discriminator picks the branch)", () => {
    expect(create?.({ scope_id: "s1", family: "topic-memory", content: fact })).toBe(false);
    expect(create?.({ scope_id: "s1", family: "no-such-family", content: fact })).toBe(false);
  });
});
