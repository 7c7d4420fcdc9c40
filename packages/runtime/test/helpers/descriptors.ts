import { readResponseMedia } from "../../src/core/response-media.js";
import { writeParameters } from "../../src/transport/write-parameters.js";
import type {
  AsyncDescriptor,
  OperationDescriptor,
  OperationTable,
  ReconcileDescriptor,
  RetryClass,
} from "../../src/descriptor.js";

/** The Operation resource's wire names, as the generator writes them from openapi.yaml's x-powercontext-async. */
export function asyncOf(acceptedStatus = 202): AsyncDescriptor {
  return {
    acceptedStatus,
    pollOperation: "get_operation",
    resultField: "result",
    operationIdField: "operation_id",
    statusField: "status",
    errorField: "error",
    terminalStates: { succeeded: ["succeeded"], failed: ["failed"], cancelled: ["cancelled"] },
  };
}

/** A reconcile descriptor with openapi.yaml's wire names. */
export function reconcileOf(holds: string[]): ReconcileDescriptor {
  return {
    readOperation: "get_operation",
    idParameter: "operation_id",
    holdsWhen: { status: holds },
    versionField: "version",
    expectedVersionField: "expected_version",
    statusField: "status",
  };
}

/**
 * A descriptor with neutral defaults; tests override what they exercise. As
 * the generator does, a row that lists a parameter gets `writeParameters`, and
 * one that declares `responseMedia` gets `readMedia`.
 */
export function descriptor(overrides: Partial<OperationDescriptor> & { operationId: string }): OperationDescriptor {
  const lists = [
    overrides.pathParameters,
    overrides.queryParameters,
    overrides.headerParameters,
    overrides.cookieParameters,
  ];
  const writer = lists.some((list) => list !== undefined && list.length > 0) ? { writeParameters } : {};
  const reader = overrides.responseMedia === undefined ? {} : { readMedia: readResponseMedia };
  return {
    ...writer,
    ...reader,
    method: "POST",
    path: `/v1/${overrides.operationId}`,
    requestLocation: "body",
    pathParameters: [],
    queryParameters: [],
    successStatus: 200,
    errorStatuses: [401, 403, 404, 409, 422, 429, 500, 503],
    retryClass: "safe",
    async: null,
    reconcile: null,
    pagination: null,
    requestIdHeader: "x-powercontext-request-id",
    ...overrides,
  };
}

export const getOperation = descriptor({
  operationId: "get_operation",
  method: "GET",
  path: "/v1/operations/{operation_id}",
  requestLocation: "path",
  pathParameters: ["operation_id"],
});

export const flushMemory = descriptor({
  operationId: "flush_memory",
  path: "/v1/memory/flush",
  retryClass: "replay",
  async: asyncOf(),
});

export const cancelOperation = descriptor({
  operationId: "cancel_operation",
  path: "/v1/operations/{operation_id}/cancel",
  pathParameters: ["operation_id"],
  retryClass: "guarded",
  reconcile: reconcileOf(["cancelled"]),
});

export const listOperations = descriptor({
  operationId: "list_operations",
  method: "GET",
  path: "/v1/operations",
  requestLocation: "query",
  queryParameters: ["scope_id", "status", "cursor", "limit"],
  pagination: { cursorParameter: "cursor", nextCursorField: "next_cursor", itemsField: "operations" },
});

/** One POST descriptor per retry class. */
export function classDescriptor(retryClass: RetryClass): OperationDescriptor {
  return descriptor({ operationId: `op_${retryClass}`, retryClass });
}

export const table: OperationTable = {
  get_operation: getOperation,
  flush_memory: flushMemory,
  cancel_operation: cancelOperation,
  list_operations: listOperations,
};
