// The generated rows write only what differs from the defaults (the module's `row` adds them):
// every descriptor still has every member a reader of OperationDescriptor expects.
import { describe, expect, it } from "vitest";
import { retryStopCodes } from "../src/generated/error-codes.js";
import { listOperationsDescriptor, operations, searchMemoryDescriptor } from "../src/generated/operations.js";

describe("generated descriptors", () => {
  it("have every member of OperationDescriptor, the shared ones included", () => {
    for (const [id, descriptor] of Object.entries(operations)) {
      expect(descriptor.operationId, id).toBe(id);
      expect(Array.isArray(descriptor.pathParameters), id).toBe(true);
      expect(Array.isArray(descriptor.queryParameters), id).toBe(true);
      expect(descriptor.async, id).not.toBeUndefined();
      expect(descriptor.reconcile, id).not.toBeUndefined();
      expect(descriptor.pagination, id).not.toBeUndefined();
      expect(descriptor.errorCodes, id).toBe(retryStopCodes);
      expect(descriptor.requestIdHeader, id).toBe("x-powercontext-request-id");
    }
  });

  it("keep what differs from the defaults", () => {
    expect(searchMemoryDescriptor).toMatchObject({ pathParameters: [], queryParameters: [], pagination: null });
    expect(listOperationsDescriptor.queryParameters).toEqual(["scope_id", "status", "kind", "cursor", "limit"]);
    expect(listOperationsDescriptor.pagination).toEqual({
      cursorParameter: "cursor",
      nextCursorField: "next_cursor",
      itemsField: "operations",
    });
    expect(typeof listOperationsDescriptor.writeParameters).toBe("function");
  });
});
