import type { RawResponse, WithResponse } from "../core/call-promise.js";
import { runOperation, type CallContext, type OperationResult } from "../core/run-operation.js";
import { descriptorFor, type Runtime } from "../core/runtime.js";
import type { OperationDescriptor } from "../descriptor.js";
import { InvalidResponseError } from "../errors.js";
import { DOT_SEGMENT } from "../transport/path-segment.js";
import { operationIdFromLocation } from "./location.js";
import { waitForOperation } from "./wait-for-operation.js";

/** Outcome of submitting an operation that may run asynchronously. */
export type Submission<T = unknown> =
  | {
      /** The operation completed at once. */
      accepted: false;
      /** The success status. */
      statusCode: number;
      /** `X-PowerContext-Request-ID` of the response, or null. */
      requestId: string | null;
      /** The validated success body. */
      result: T;
      /** True when a guarded conflict was reconciled by reading the resource. */
      reconciled: boolean;
      /** The response (status, headers, request id, attempts). */
      response: RawResponse;
    }
  | {
      /** The operation was accepted and runs on. */
      accepted: true;
      /** The accepted response (status, headers, request id, attempts). */
      response: RawResponse;
      /** The accepted status, for example 202. */
      statusCode: number;
      /** `X-PowerContext-Request-ID` of the response, or null. */
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
function keyed(result: { statusCode: number; data: unknown; headers: Headers }): {
  status: number;
  body: unknown;
  headers: Headers;
} {
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

/**
 * The {@link RawResponse} of a runtime result; its `headers` are read from
 * the result when asked for, so a call that never looks builds none.
 */
class ResultResponse implements RawResponse {
  readonly status: number;
  readonly requestId: string | null;
  readonly attempts: number;
  readonly url: string;
  readonly reconciled: boolean;
  readonly #result: OperationResult;

  constructor(result: OperationResult) {
    this.status = result.statusCode;
    this.requestId = result.requestId;
    this.attempts = result.attempts;
    this.url = result.requestUrl;
    this.reconciled = result.reconciled;
    this.#result = result;
  }

  /** The response headers as received. */
  get headers(): Headers {
    return this.#result.headers;
  }
}

function rawResponseOf(result: OperationResult): RawResponse {
  return new ResultResponse(result);
}

function idFromBody(body: unknown, field: string | undefined): string | null {
  if (typeof body !== "object" || body === null || field === undefined) return null;
  const id = (body as Record<string, unknown>)[field];
  return typeof id === "string" && id !== "" ? id : null;
}

/**
 * Sends an operation once (with retries) and reports whether it completed or
 * was accepted for asynchronous processing (seed 002, docs/architecture.md). The
 * Operation id comes from `Location`, or from the accepted body's member named
 * by `async.operationIdField` when the server sent no Location.
 *
 * @throws InvalidResponseError when an accepted response names no operation, or
 *   names it by an id that is a dot segment (`..`, which as a path segment would
 *   poll another resource), plus everything `runOperation` throws.
 */
export async function submit(
  runtime: Runtime,
  descriptor: OperationDescriptor,
  request: unknown,
  context: CallContext = {},
): Promise<Submission> {
  const result = await runOperation(runtime, descriptor, request, context);
  const { statusCode, requestId } = result;
  const response = rawResponseOf(result);
  if (!result.accepted || descriptor.async === null) {
    return {
      accepted: false,
      statusCode,
      requestId,
      result: descriptor.keyedResult === true ? keyed(result) : result.data,
      reconciled: result.reconciled,
      response,
    };
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
  // The id becomes a path segment of every poll: a dot segment would poll another resource.
  if (operationId === null || DOT_SEGMENT.test(operationId)) {
    throw new InvalidResponseError("accepted response names no operation to poll", {
      statusCode,
      requestId,
      issues: [operationId === null ? "missing Location header" : "dot segment id"],
    });
  }
  return {
    accepted: true,
    response,
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
 * Runs an operation with its synchronous meaning (docs/architecture.md): a plain
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
  return (await callWithResponse(runtime, descriptor, request, context)).data;
}

/**
 * {@link callOperation}, plus the raw response the call's result rests on:
 * the operation's own response (for an asynchronous operation, the
 * submission's `200` or `202`, not a poll's).
 *
 * @throws everything {@link callOperation} throws.
 */
export async function callWithResponse(
  runtime: Runtime,
  descriptor: OperationDescriptor,
  request: unknown,
  context: CallContext = {},
): Promise<WithResponse<unknown>> {
  if (descriptor.async === null) {
    const result = await runOperation(runtime, descriptor, request, context);
    return { data: descriptor.keyedResult === true ? keyed(result) : result.data, response: rawResponseOf(result) };
  }
  const deadlineAt = context.deadlineAt ?? Date.now() + (context.deadlineMs ?? runtime.operationDeadlineMs);
  const submission = await submit(runtime, descriptor, request, { ...context, deadlineAt });
  if (!submission.accepted) return { data: submission.result, response: submission.response };
  const wait: Parameters<typeof waitForOperation>[3] = { deadlineAt };
  // A query in the Location (a shard, a signature) belongs to the resource: polls keep it.
  const query = submission.location === null ? "" : locationQuery(submission.location, submission.requestUrl);
  if (query !== "") wait.locationQuery = query;
  if (submission.retryAfterMs !== null) wait.initialDelayMs = submission.retryAfterMs;
  if (context.signal !== undefined) wait.signal = context.signal;
  if (context.timeoutMs !== undefined) wait.timeoutMs = context.timeoutMs;
  if (context.headers !== undefined) wait.headers = context.headers;
  const operation = await waitForOperation(runtime, descriptor.async.pollOperation, submission.operationId, wait);
  return { data: operation[descriptor.async.resultField] ?? null, response: submission.response };
}
