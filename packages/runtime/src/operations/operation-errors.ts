/**
 * The errors of waiting for an Operation (asynchronous operations and
 * `waitForOperation`): still pending at the deadline, failed, cancelled.
 * The rest of the hierarchy is in `errors.ts`.
 */
import { declareErrorClass } from "../error-brand.js";
import { ClientError } from "../errors.js";

/** Bounded classification of a failed operation (never a message). */
export interface OperationErrorClassification {
  /** Bounded category of the failure, such as `provider`, or null. */
  category: string | null;
  /** Bounded code of the failure, or null. */
  code: string | null;
}

/** The total deadline passed while the operation was queued or running; wait again later with its id. */
export class OperationPendingError extends ClientError {
  static {
    declareErrorClass(OperationPendingError, "OperationPendingError");
  }
  /** Id of the Operation still running; pass it to `waitForOperation`. */
  declare readonly operationId: string;
  /** The last Operation resource read, or null when none was read. */
  declare readonly lastKnown: unknown;
  constructor(operationId: string, lastKnown: unknown) {
    super(`PowerContext operation ${operationId} is still pending`, { code: "ERR_POWERCONTEXT_OPERATION_PENDING" });
    this.operationId = operationId;
    this.lastKnown = lastKnown;
  }
}

/** The operation reached `failed`. */
export class OperationFailedError extends ClientError {
  static {
    declareErrorClass(OperationFailedError, "OperationFailedError");
  }
  /** Id of the failed Operation (retry or cancel it by this id). */
  declare readonly operationId: string;
  /** The Operation's error classification. */
  declare readonly error: OperationErrorClassification;
  /** The failed Operation resource as read. */
  declare readonly operation: unknown;
  constructor(operationId: string, error: OperationErrorClassification, operation: unknown) {
    const label = [error.category, error.code].filter((part) => part !== null).join("/");
    super(`PowerContext operation ${operationId} failed${label ? ` (${label})` : ""}`, {
      code: "ERR_POWERCONTEXT_OPERATION_FAILED",
    });
    this.operationId = operationId;
    this.error = error;
    this.operation = operation;
  }
}

/** The operation reached `cancelled`. */
export class OperationCancelledError extends ClientError {
  static {
    declareErrorClass(OperationCancelledError, "OperationCancelledError");
  }
  /** Id of the cancelled Operation. */
  declare readonly operationId: string;
  /** The cancelled Operation resource as read. */
  declare readonly operation: unknown;
  constructor(operationId: string, operation: unknown) {
    super(`PowerContext operation ${operationId} was cancelled`, { code: "ERR_POWERCONTEXT_OPERATION_CANCELLED" });
    this.operationId = operationId;
    this.operation = operation;
  }
}
