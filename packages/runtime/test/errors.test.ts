import { describe, expect, it } from "vitest";
import {
  AuthenticationError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerResponseError,
  ServiceUnavailableError,
  UnprocessableEntityError,
  type ServerErrorClass,
} from "../src/errors.js";
import {
  OperationBlockedError,
  ProcessingBlockStaleError,
  VersionConflictError,
  createServerResponseError,
} from "./helpers/contract-errors.js";

function make(statusCode: number, code: string | null, details: Record<string, unknown> | null = null) {
  return createServerResponseError({
    statusCode,
    code,
    serverMessage: null,
    details,
    requestId: "r",
    retryAfterMs: null,
  });
}

describe("createServerResponseError: status first, then code", () => {
  it.each<[number, string | null, ServerErrorClass]>([
    [400, null, ServerResponseError],
    [401, "unauthorized", AuthenticationError],
    [403, null, PermissionDeniedError],
    [404, "topic_memory_block_not_found", NotFoundError],
    [409, "invalid_operation_transition", ConflictError],
    [409, "operation_blocked", OperationBlockedError],
    [409, "version_conflict", VersionConflictError],
    [409, "topic_memory_block_conflict", ProcessingBlockStaleError],
    [422, null, UnprocessableEntityError],
    [429, null, RateLimitError],
    [500, null, InternalServerError],
    [502, null, InternalServerError],
    [503, null, ServiceUnavailableError],
    // A contract code on the wrong status keeps the status class.
    [400, "version_conflict", ServerResponseError],
  ])("%d %s", (status, code, errorClass) => {
    const error = make(status, code);
    expect(error.constructor).toBe(errorClass);
    expect(error).toBeInstanceOf(ServerResponseError);
    expect(error.name).toBe(errorClass.name);
  });

  it("exposes contract details", () => {
    expect((make(409, "operation_blocked", { operation_id: "op_1" }) as OperationBlockedError).operationId).toBe(
      "op_1",
    );
    expect((make(409, "version_conflict", { current_version: 7 }) as VersionConflictError).currentVersion).toBe(7);
    expect(make(503, null)).toBeInstanceOf(InternalServerError);
  });
});
