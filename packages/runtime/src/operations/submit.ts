import { runOperation, type CallContext } from "../core/run-operation.js";
import { descriptorFor, type Runtime } from "../core/runtime.js";
import type { OperationDescriptor } from "../descriptor.js";
import { InvalidResponseError } from "../errors.js";
import { operationIdFromLocation } from "./location.js";
import { waitForOperation } from "./wait-for-operation.js";

/** Outcome of submitting an operation that may run asynchronously. */
export type Submission<T = unknown> =
  | { accepted: false; statusCode: number; requestId: string | null; result: T; reconciled: boolean }
  | {
      accepted: true;
      statusCode: number;
      requestId: string | null;
      /** Id of the Operation resource to poll. */
      operationId: string;
      /** Raw Location header, or null when the id came from the body. */
      location: string | null;
      /** Retry-After of the accepted response in ms, or null. */
      retryAfterMs: number | null;
      /** Accepted body (null when empty). */
      body: unknown;
      /** Absolute URL of the submitting request (the Location resolves against it). */
      requestUrl: string;
    };

/** A result keyed by status, for operations with several outcomes (`keyedResult`). */
function keyed(result: { statusCode: number; data: unknown; headers: Headers }): { status: number; body: unknown; headers: Headers } {
  return { status: result.statusCode, body: result.data, headers: result.headers };
}

/** The encoded query of a Location (without `?`), or "" when it has none or does not parse. */
function locationQuery(location: string, requestUrl: string): string {
  try {
    return new URL(location, requestUrl).search.slice(1);
  } catch {
    return "";
  }
}

function idFromBody(body: unknown, field: string | undefined): string | null {
  if (typeof body !== "object" || body === null || field === undefined) return null;
  const id = (body as Record<string, unknown>)[field];
  return typeof id === "string" && id !== "" ? id : null;
}

/**
 * Sends an operation once (with retries) and reports whether it completed or
 * was accepted for asynchronous processing (DESIGN §3, seed 002). The
 * Operation id comes from `Location`, or from the accepted body's member named
 * by `async.operationIdField` when the server sent no Location.
 *
 * @throws InvalidResponseError when an accepted response names no operation,
 *   plus everything `runOperation` throws.
 */
export async function submit(
  runtime: Runtime,
  descriptor: OperationDescriptor,
  request: unknown,
  context: CallContext = {},
): Promise<Submission> {
  const result = await runOperation(runtime, descriptor, request, context);
  const { statusCode, requestId } = result;
  if (!result.accepted || descriptor.async === null) {
    return { accepted: false, statusCode, requestId, result: descriptor.keyedResult === true ? keyed(result) : result.data, reconciled: result.reconciled };
  }
  let operationId: string | null;
  if (result.location !== null) {
    const poll = descriptorFor(runtime, descriptor.async.pollOperation);
    operationId = operationIdFromLocation(result.location, poll, {
      baseUrl: runtime.baseUrl,
      requestUrl: result.requestUrl,
      statusCode,
      requestId,
    });
  } else {
    operationId = idFromBody(result.data, descriptor.async.operationIdField);
  }
  if (operationId === null) {
    throw new InvalidResponseError("accepted response names no operation (no Location)", {
      statusCode,
      requestId,
      issues: ["missing Location header"],
    });
  }
  return {
    accepted: true,
    statusCode,
    requestId,
    operationId,
    location: result.location,
    retryAfterMs: result.retryAfterMs,
    body: result.data,
    requestUrl: result.requestUrl,
  };
}

/**
 * Runs an operation with its synchronous meaning (DESIGN §3): a plain
 * operation resolves to its body (a reconciled guarded call to the resource
 * marked `reconciled: true`); an asynchronous one that was accepted is polled
 * until terminal within one deadline and resolves to the succeeded
 * Operation's result field.
 *
 * @throws OperationPendingError past the deadline (resume with
 *   `waitForOperation`), OperationFailedError, OperationCancelledError, plus
 *   everything `runOperation` throws.
 */
export async function callOperation(
  runtime: Runtime,
  descriptor: OperationDescriptor,
  request: unknown,
  context: CallContext = {},
): Promise<unknown> {
  if (descriptor.async === null) {
    const result = await runOperation(runtime, descriptor, request, context);
    return descriptor.keyedResult === true ? keyed(result) : result.data;
  }
  const deadlineAt = context.deadlineAt ?? Date.now() + (context.deadlineMs ?? runtime.operationDeadlineMs);
  const submission = await submit(runtime, descriptor, request, { ...context, deadlineAt });
  if (!submission.accepted) return submission.result;
  const wait: Parameters<typeof waitForOperation>[3] = { deadlineAt };
  // A query in the Location (a shard, a signature) belongs to the resource: polls keep it.
  const query = submission.location === null ? "" : locationQuery(submission.location, submission.requestUrl);
  if (query !== "") wait.locationQuery = query;
  if (submission.retryAfterMs !== null) wait.initialDelayMs = submission.retryAfterMs;
  if (context.signal !== undefined) wait.signal = context.signal;
  if (context.timeoutMs !== undefined) wait.timeoutMs = context.timeoutMs;
  if (context.headers !== undefined) wait.headers = context.headers;
  const operation = await waitForOperation(runtime, descriptor.async.pollOperation, submission.operationId, wait);
  return operation[descriptor.async.resultField] ?? null;
}
