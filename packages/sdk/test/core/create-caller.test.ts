import { describe, expect, it } from "vitest";
import { createCaller } from "@powercontext/runtime";
import { ConfigurationError, ConflictError, InvalidResponseError } from "@powercontext/runtime";
import { OperationBlockedError, contractErrorsByCode } from "../../src/generated/contract-errors.js";
import { validatorMap } from "../../src/generated/validator-map.js";
import { flushMemoryDescriptor, getLivenessDescriptor, operations } from "../../src/generated/operations.js";
import { envelope, json, scripted } from "@powercontext/runtime/testing";

const BASE = "https://pc.example.com";
const blocked = () => envelope(409, "operation_blocked", { operation_id: "op_7" });

describe("createCaller: one operation without the client facade", () => {
  it("takes the generated per-operation descriptors, the same rows as the operation table", () => {
    expect(getLivenessDescriptor).toBe(operations.get_liveness);
    expect(flushMemoryDescriptor).toBe(operations.flush_memory);
  });

  it("sends the operation and resolves to the response body", async () => {
    const server = scripted(json(200, { status: "ok" }));
    const getLiveness = createCaller({ baseUrl: BASE, fetch: server.fetch }, getLivenessDescriptor);
    expect(await getLiveness(undefined)).toEqual({ status: "ok" });
    expect(server.seen[0]).toMatchObject({ url: `${BASE}/health/live`, method: "GET" });
  });

  it("raises the status class for a contract error unless given the contract errors", async () => {
    const server = scripted(blocked());
    const flush = createCaller({ baseUrl: BASE, fetch: server.fetch, maxRetries: 0 }, flushMemoryDescriptor);
    const error = await flush({ scope_id: "s" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).not.toBeInstanceOf(OperationBlockedError);
    expect(error).toMatchObject({ statusCode: 409, code: "operation_blocked", details: { operation_id: "op_7" } });
  });

  it("raises the contract class, with its fields, when given contractErrorsByCode", async () => {
    const server = scripted(blocked());
    const flush = createCaller({ baseUrl: BASE, fetch: server.fetch, maxRetries: 0 }, flushMemoryDescriptor, {
      contractErrors: contractErrorsByCode,
    });
    const error = await flush({ scope_id: "s" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperationBlockedError);
    expect((error as OperationBlockedError).operationId).toBe("op_7");
  });

  it("checks the response schema only when given the operation's validators", async () => {
    const wrong = () => json(200, { status: 42 });
    const unchecked = createCaller({ baseUrl: BASE, fetch: scripted(wrong()).fetch }, getLivenessDescriptor);
    expect(await unchecked(undefined)).toEqual({ status: 42 });
    const checked = createCaller({ baseUrl: BASE, fetch: scripted(wrong()).fetch }, getLivenessDescriptor, {
      validators: validatorMap.get_liveness,
    });
    await expect(checked(undefined)).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it("refuses validators that are not one operation's, before any request", () => {
    const server = scripted(json(200, { status: "ok" }));
    const wrong = { validators: validatorMap as never };
    expect(() => createCaller({ baseUrl: BASE, fetch: server.fetch }, getLivenessDescriptor, wrong)).toThrow(
      ConfigurationError,
    );
    expect(server.seen).toHaveLength(0);
  });
});
