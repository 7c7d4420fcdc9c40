// The generated contract errors and the per-code details types (docs/adr/0014):
// the classes keep their public names, brands, bases and members; any other
// code narrows with hasErrorCode (its types: test/types/error-codes.test-d.ts).
import { describe, expect, it } from "vitest";
import {
  ConflictError,
  GuardedConflictError,
  ServerResponseError,
  ServiceUnavailableError,
  serverResponseError,
  type ServerErrorInit,
} from "@powercontext/runtime";
import {
  OperationBlockedError,
  ProcessingBlockStaleError,
  VersionConflictError,
  contractErrorsByCode,
  createServerResponseError,
} from "../src/generated/contract-errors.js";
import { hasErrorCode } from "../src/generated/error-codes.js";
import { isErrorOf } from "../src/operation-errors.js";

const init = (
  statusCode: number,
  code: string | null,
  details: Record<string, unknown> | null = null,
): ServerErrorInit => ({ statusCode, code, serverMessage: null, details, requestId: "r", retryAfterMs: null });

describe("generated contract error classes", () => {
  it.each([
    ["operation_blocked", OperationBlockedError],
    ["version_conflict", VersionConflictError],
    ["topic_memory_block_conflict", ProcessingBlockStaleError],
  ] as const)("409 %s raises its class, a ConflictError, under its old name and brand", (code, errorClass) => {
    const error = createServerResponseError(init(409, code));
    expect(error.constructor).toBe(errorClass);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.name).toBe(errorClass.name);
    expect(errorClass.brand).toBe(Symbol.for(`@powercontext/runtime/${errorClass.name}`));
  });

  it("reads the declared details, checked: a detail of another type is null", () => {
    expect(
      (createServerResponseError(init(409, "version_conflict", { current_version: 7 })) as VersionConflictError)
        .currentVersion,
    ).toBe(7);
    expect(
      (createServerResponseError(init(409, "version_conflict", { current_version: "7" })) as VersionConflictError)
        .currentVersion,
    ).toBeNull();
    expect(
      (createServerResponseError(init(409, "operation_blocked", { operation_id: "op_1" })) as OperationBlockedError)
        .operationId,
    ).toBe("op_1");
  });

  it("the reconcile conflict code's class is the runtime's GuardedConflictError; the others are not", () => {
    expect(createServerResponseError(init(409, "version_conflict"))).toBeInstanceOf(GuardedConflictError);
    expect(createServerResponseError(init(409, "operation_blocked"))).not.toBeInstanceOf(GuardedConflictError);
  });

  it("a contract code at another status, or without the table, keeps the status class", () => {
    expect(createServerResponseError(init(400, "version_conflict")).constructor).toBe(ServerResponseError);
    expect(serverResponseError(init(409, "version_conflict"), null).constructor).toBe(ConflictError);
    expect(Object.keys(contractErrorsByCode).sort()).toEqual([
      "operation_blocked",
      "scope_version_conflict",
      "topic_memory_block_conflict",
      "version_conflict",
    ]);
  });
});

describe("details typed per code", () => {
  it("hasErrorCode narrows a server error to one code and its details, at the code's status only", () => {
    const error: unknown = createServerResponseError(init(503, "generation_unavailable", { family: "skill" }));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(hasErrorCode(error, "generation_unavailable")).toBe(true);
    if (hasErrorCode(error, "generation_unavailable")) expect(error.details?.family).toBe("skill");
    expect(hasErrorCode(createServerResponseError(init(409, "generation_unavailable")), "generation_unavailable")).toBe(
      false,
    );
    expect(hasErrorCode(new Error("x"), "generation_unavailable")).toBe(false);
  });
});

describe("codes outside the spec's registry", () => {
  it("hasErrorCode accepts any code: one the spec does not know matches at any status", () => {
    const error = createServerResponseError(init(409, "not_in_this_registry", { anything: [1] }));
    expect(hasErrorCode(error, "not_in_this_registry")).toBe(true);
    expect(hasErrorCode(createServerResponseError(init(422, "not_in_this_registry")), "not_in_this_registry")).toBe(
      true,
    );
    expect(hasErrorCode(error, "another_unknown_code")).toBe(false);
    const code: string = "not_in_this_registry";
    expect(hasErrorCode(error, code)).toBe(true);
  });
});

describe("isErrorOf: one operation's declared errors", () => {
  it("accepts a declared status with one of its declared codes, or without the envelope", () => {
    expect(
      isErrorOf("cancel_operation", createServerResponseError(init(409, "version_conflict", { current_version: 4 }))),
    ).toBe(true);
    expect(isErrorOf("cancel_operation", createServerResponseError(init(409, "invalid_operation_transition")))).toBe(
      true,
    );
    expect(isErrorOf("cancel_operation", createServerResponseError(init(409, null)))).toBe(true);
    // A declared status whose codes the spec does not list: any code.
    expect(isErrorOf("cancel_operation", createServerResponseError(init(422, "invalid_request")))).toBe(true);
  });

  it("refuses an undeclared status, an undeclared code at a status that lists its codes, and anything that is no server error", () => {
    expect(isErrorOf("cancel_operation", createServerResponseError(init(429, "rate_limited")))).toBe(false);
    expect(isErrorOf("cancel_operation", createServerResponseError(init(409, "operation_blocked")))).toBe(false);
    expect(isErrorOf("cancel_operation", new Error("409"))).toBe(false);
    expect(isErrorOf("cancel_operation", { statusCode: 409, code: "version_conflict" })).toBe(false);
    expect(
      isErrorOf("no_such_operation" as "cancel_operation", createServerResponseError(init(409, "version_conflict"))),
    ).toBe(false);
  });

  it("narrows details by code once the operation is known", () => {
    const error: unknown = createServerResponseError(init(409, "version_conflict", { current_version: 4 }));
    if (!isErrorOf("cancel_operation", error)) throw new Error("expected a declared error");
    expect(error.statusCode === 409 && error.code === "version_conflict" ? error.details?.current_version : null).toBe(
      4,
    );
  });
});
