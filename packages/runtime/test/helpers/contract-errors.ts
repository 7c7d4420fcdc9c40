// The contract error classes the generator writes from openapi.yaml's
// x-powercontext-error-codes (docs/adr/0014-generated-contract-errors.md). The
// runtime's sources never import generated code; its tests take the generated
// classes, which are built on this runtime's sources (the test alias of
// @powercontext/runtime), to check that the two work together.
export {
  OperationBlockedError,
  ProcessingBlockStaleError,
  VersionConflictError,
  contractErrorsByCode,
  createServerResponseError,
} from "@powercontext/sdk";
