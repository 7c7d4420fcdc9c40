import { abortReason } from "../transport/abort-reason.js";
import { runOperation, type CallContext } from "../core/run-operation.js";
import { descriptorFor, type Runtime } from "../core/runtime.js";
import { AbortError, TimeoutError } from "../errors.js";
import {
  OperationCancelledError,
  OperationFailedError,
  OperationPendingError,
  type OperationErrorClassification,
} from "./operation-errors.js";
import { sleep } from "../retry/sleep.js";
import type { OperationResourceFields } from "../descriptor.js";
import { forError } from "../core/redact-answer.js";

/** Options of `waitForOperation`; durations in milliseconds. */
export interface WaitOptions {
  /** Total budget counted from the call. Default: the client's `operationDeadlineMs` (60 000 ms). */
  deadlineMs?: number;
  /** Absolute deadline (ms since epoch) inherited from a submitting call; wins over `deadlineMs`. */
  deadlineAt?: number;
  /** Cancels the wait; rejects with `AbortError` promptly, also between polls. */
  signal?: AbortSignal;
  /** Called with every Operation resource read, terminal or not. Exceptions are ignored. */
  onProgress?: (operation: Record<string, unknown>) => void;
  /** Wait before the first poll (for example the accepted response's Retry-After). Default 0. */
  initialDelayMs?: number;
  /** Per-attempt timeout of each poll. */
  timeoutMs?: number;
  /** Extra headers for every poll (never `Authorization`). */
  headers?: Record<string, string>;
  /** An encoded query string (without `?`) sent with every poll: the query of the accepted response's Location. */
  locationQuery?: string;
}

function classificationOf(operation: Record<string, unknown>, errorField: string): OperationErrorClassification {
  const error = operation[errorField];
  const record = typeof error === "object" && error !== null ? (error as Record<string, unknown>) : {};
  return {
    category: typeof record.category === "string" ? record.category : null,
    code: typeof record.code === "string" ? record.code : null,
  };
}

/**
 * The resource names polling reads, from the `x-powercontext-async` of an
 * operation that polls `pollOperationId` (every such operation names the same resource).
 *
 * @throws Error when no descriptor of the table declares them (a table that was not generated from the spec).
 */
function resourceFields(runtime: Runtime, pollOperationId: string): OperationResourceFields {
  for (const row of Object.values(runtime.operations ?? {})) {
    const spec = row?.async;
    if (spec?.pollOperation !== pollOperationId) continue;
    const { operationIdField, statusField, errorField, terminalStates } = spec;
    if (
      operationIdField !== undefined &&
      statusField !== undefined &&
      errorField !== undefined &&
      terminalStates !== undefined
    ) {
      return { operationIdField, statusField, errorField, terminalStates };
    }
  }
  throw new Error(`no asynchronous operation of the table names the fields of ${pollOperationId}'s resource`);
}

/**
 * Polls an Operation (seed 002) until it is terminal (docs/architecture.md):
 * `succeeded` resolves to the Operation resource; `failed` throws
 * OperationFailedError with the bounded {category, code}; `cancelled` throws
 * OperationCancelledError. Between polls it waits the response's Retry-After,
 * or an interval growing ×1.5 from `minPollIntervalMs`, always clamped to
 * [`minPollIntervalMs`, `maxPollIntervalMs`], so it never busy-loops.
 *
 * @param pollOperationId the operation that reads an Operation (`get_operation`).
 * @throws OperationPendingError (id and last resource read) when the deadline
 *   passes first; AbortError on abort; the poll's own errors (404, ...) otherwise.
 */
export async function waitForOperation(
  runtime: Runtime,
  pollOperationId: string,
  operationId: string,
  options: WaitOptions = {},
): Promise<Record<string, unknown>> {
  const descriptor = descriptorFor(runtime, pollOperationId);
  const fields = resourceFields(runtime, pollOperationId);
  const [idParameter] = descriptor.pathParameters;
  if (idParameter === undefined) throw new Error(`${pollOperationId} has no path parameter to name the operation`);
  const deadlineAt = options.deadlineAt ?? Date.now() + (options.deadlineMs ?? runtime.operationDeadlineMs);
  const abortError = (): Error => new AbortError(descriptor.path, abortReason(options.signal));
  const clamp = (ms: number): number => Math.min(runtime.maxPollIntervalMs, Math.max(runtime.minPollIntervalMs, ms));
  let lastKnown: Record<string, unknown> | null = null;
  // An error carries copies without the secrets; the caller's own data (the result) stays as sent.
  const shown = <T>(value: T): T => forError(value, runtime.secrets);
  const pending = (): OperationPendingError => new OperationPendingError(shown(operationId), shown(lastKnown));
  let interval = runtime.minPollIntervalMs;
  let waitMs = options.initialDelayMs === undefined ? 0 : clamp(options.initialDelayMs);

  for (;;) {
    const remaining = deadlineAt - Date.now();
    if (remaining <= 0) throw pending();
    if (waitMs > 0) await sleep(Math.min(waitMs, remaining), options.signal, abortError);
    if (deadlineAt - Date.now() <= 0) throw pending();
    const call: CallContext & { deadlineAt: number } = { deadlineAt };
    if (options.signal !== undefined) call.signal = options.signal;
    if (options.timeoutMs !== undefined) call.timeoutMs = options.timeoutMs;
    if (options.headers !== undefined) call.headers = options.headers;
    if (options.locationQuery !== undefined) call.extraQuery = options.locationQuery;
    let result: Awaited<ReturnType<typeof runOperation>>;
    try {
      result = await runOperation(runtime, descriptor, { [idParameter]: operationId }, call);
    } catch (error) {
      if (error instanceof TimeoutError && error.limit === "deadline") throw pending();
      throw error;
    }
    const operation = (result.data ?? {}) as Record<string, unknown>;
    lastKnown = operation;
    try {
      options.onProgress?.(operation);
    } catch {
      // Progress callbacks cannot break polling.
    }
    const status = operation[fields.statusField];
    const { succeeded, failed, cancelled } = fields.terminalStates;
    if (typeof status === "string") {
      if (succeeded.includes(status)) return operation;
      if (failed.includes(status))
        throw new OperationFailedError(
          shown(operationId),
          shown(classificationOf(operation, fields.errorField)),
          shown(operation),
        );
      if (cancelled.includes(status)) throw new OperationCancelledError(shown(operationId), shown(operation));
    }
    waitMs = clamp(result.retryAfterMs ?? interval);
    interval = Math.min(runtime.maxPollIntervalMs, interval * 1.5);
  }
}
