/**
 * Browser-safe entry of `@powercontext/sdk`: the `PowerContextClient` facade,
 * the client generated from `openapi.yaml`, and the runtime it is built on
 * (re-exported from `@powercontext/runtime`, so one import serves an app).
 */
export * from "@powercontext/runtime";
// The Python client's names of the status errors (`UnauthorizedResponseError`, ...) come with the runtime.
export { UnknownOperationError } from "./unknown-operation-error.js";
export {
  PowerContextClient,
  type ClientSubmitOutcome,
  type OperationResource,
  type WaitForOperationOptions,
} from "./client.js";
// The operation table, one descriptor per operation (`getLivenessDescriptor`, ...) and the per-operation types.
export * from "./generated/operations.js";
// The spec's error codes (`errorCodes`, `ErrorDetails`, `hasErrorCode`) and the contract error classes
// generated from them (`VersionConflictError`, ..., `contractErrorsByCode`, `createServerResponseError`).
export * from "./generated/error-codes.js";
export * from "./generated/contract-errors.js";
// `clientHeaders`: what every request carries, as the release's own client sends it (for createCaller's `clientHeaders`).
export { clientHeaders } from "./generated/client-headers.js";
// `isErrorOf(operationId, error)`: narrows a caught error to one operation's declared errors.
export { isErrorOf, type OperationError } from "./operation-errors.js";
// `validatorMap` and one export per operation (`searchMemoryValidators`, ...), for createCaller's `validators`.
export * from "./generated/validator-map.js";
// Both modules declare this shape; the runtime's is the one the SDK names.
export type { OperationValidators } from "@powercontext/runtime";
