/**
 * Browser-safe entry of `@powercontext/sdk`: the `PowerContextClient` facade,
 * the client generated from `openapi.yaml`, and the runtime it is built on
 * (re-exported from `@powercontext/runtime`, so one import serves an app).
 */
export * from "@powercontext/runtime";
export { ForbiddenResponseError, UnauthorizedResponseError, UnavailableResponseError, UnknownOperationError } from "./python-names.js";
export { PowerContextClient, type ClientSubmitOutcome, type OperationResource, type WaitForOperationOptions } from "./client.js";
// The operation table, one descriptor per operation (`getLivenessDescriptor`, ...) and the per-operation types.
export * from "./generated/operations.js";
export { validatorMap } from "./generated/validator-map.js";
