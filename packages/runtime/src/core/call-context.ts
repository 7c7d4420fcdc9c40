import type { CallOptions } from "../call-options.js";
import type { DecodedResponse } from "./decode-response.js";

// The shapes a call passes around, apart from the code that runs it, so that the
// runtime record (runtime.ts) and the runner (run-operation.ts) both use them
// without importing each other.

/** Internal per-call state shared with nested reads (reconciliation, polling). */
export interface CallContext extends CallOptions {
  /** Absolute deadline (ms since epoch) inherited from an outer call; wins over `deadlineMs`. */
  deadlineAt?: number | null;
  /** An encoded query string appended to the request's own (the query of a polled Location). */
  extraQuery?: string;
}

/** The result of `runOperation`: a decoded outcome, possibly produced by reconciliation. */
export interface OperationResult extends DecodedResponse {
  /** True when a guarded conflict was reconciled by reading the resource (runtime README, "Retries"). */
  reconciled: boolean;
  /** Absolute URL the request was sent to (Location references resolve against it). */
  requestUrl: string;
  /** How many attempts the call made, 1 when the first one succeeded (retries included, polls not). */
  attempts: number;
}
