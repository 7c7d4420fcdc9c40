import { ClientError, declareErrorClass } from "@powercontext/runtime";

/**
 * `request(operationId, ...)` was given a name that is not an operation of the
 * contract. Thrown before anything is sent; `code` is `unknown_operation`.
 * Branded like the runtime's errors, so `instanceof` holds across installed copies.
 */
export class UnknownOperationError extends ClientError {
  static {
    declareErrorClass(UnknownOperationError, "UnknownOperationError");
  }
  /** The name that was given. */
  readonly operationId: string;

  constructor(operationId: string) {
    super(`${JSON.stringify(operationId.slice(0, 128))} is not an operation of the PowerContext contract`, {
      code: "unknown_operation",
    });
    this.operationId = operationId;
  }
}
