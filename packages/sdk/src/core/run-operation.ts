import type { CallOptions } from "../call-options.js";
import type { OperationDescriptor, OperationValidators } from "../descriptor.js";
import { InvalidRequestError, VersionConflictError } from "../errors.js";
import { runWithRetry, type RetryEvent } from "../retry/run-with-retry.js";
import type { CallSpan } from "../telemetry/call-span.js";
import { buildRequest } from "../transport/build-request.js";
import { redact } from "../transport/sanitize.js";
import { sendAttempt } from "../transport/send.js";
import { decodeResponse, issuesOf, type DecodedResponse } from "./decode-response.js";
import { descriptorFor, validatorsFor, type Runtime } from "./runtime.js";

/** Internal per-call state shared with nested reads (reconciliation, polling). */
export interface CallContext extends CallOptions {
  /** Absolute deadline (ms since epoch) inherited from an outer call; wins over `deadlineMs`. */
  deadlineAt?: number | null;
}

/** The result of {@link runOperation}: a decoded outcome, possibly produced by reconciliation. */
export interface OperationResult extends DecodedResponse {
  /** True when a guarded conflict was reconciled by reading the resource (DESIGN §4). */
  reconciled: boolean;
  /** Absolute URL the request was sent to (Location references resolve against it). */
  requestUrl: string;
}

function deadlineOf(runtime: Runtime, context: CallContext): number | null {
  if (context.deadlineAt !== undefined && context.deadlineAt !== null) return context.deadlineAt;
  if (context.deadlineMs === undefined) return null;
  if (!Number.isFinite(context.deadlineMs) || context.deadlineMs <= 0) {
    throw new InvalidRequestError("deadlineMs must be a positive number of milliseconds");
  }
  return Date.now() + context.deadlineMs;
}

const NO_SPAN: CallSpan = { inject() {}, succeed() {}, fail() {} };

/** Wraps a span so that nothing it throws reaches the call: tracing never fails a request. */
function startSpan(runtime: Runtime, descriptor: OperationDescriptor): CallSpan {
  let span: CallSpan;
  try {
    span = runtime.telemetry?.(descriptor.operationId, descriptor.method, descriptor.path) ?? NO_SPAN;
  } catch {
    return NO_SPAN;
  }
  const guard = (action: () => void): void => {
    try {
      action();
    } catch {
      // ignored on purpose
    }
  };
  return {
    inject: (headers) => guard(() => span.inject(headers)),
    succeed: (statusCode) => guard(() => span.succeed(statusCode)),
    fail: (error) => guard(() => span.fail(error)),
  };
}

function reportRetry(runtime: Runtime, event: RetryEvent): void {
  runtime.onRetry?.(event);
  try {
    runtime.logger?.warn?.(
      redact(
        `PowerContextClient ${event.operationId}: attempt ${event.attempt} failed (${event.reason}); retrying in ${event.waitMs} ms`,
        runtime.secrets,
      ),
      { ...event },
    );
  } catch {
    // Logging must not change the call's outcome.
  }
}

/**
 * Runs one operation end to end (DESIGN §2, §4): validates the request
 * (nothing is sent when it fails), builds it once, sends it under the retry
 * policy of its class within one total deadline, decodes and validates the
 * response, reconciles a guarded `409 version_conflict` after an uncertain
 * re-send, and records one CLIENT span.
 *
 * @param validators defaults to the runtime's validators for this operation.
 * @throws InvalidRequestError, TransportError, TimeoutError, AbortError,
 *   InvalidResponseError or a ServerResponseError subclass (see errors.ts).
 */
export async function runOperation(
  runtime: Runtime,
  descriptor: OperationDescriptor,
  request: unknown,
  context: CallContext = {},
  validators: OperationValidators | undefined = validatorsFor(runtime, descriptor.operationId),
): Promise<OperationResult> {
  const span = startSpan(runtime, descriptor);
  try {
    const requestValidator = validators?.request;
    if (requestValidator !== undefined && !requestValidator(request ?? {})) {
      throw new InvalidRequestError(`${descriptor.operationId}: the request does not match the schema`, issuesOf(requestValidator));
    }
    const timeoutMs = context.timeoutMs ?? runtime.timeoutMs;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      throw new InvalidRequestError("timeoutMs must be a positive number of milliseconds");
    }
    const built = buildRequest({
      baseUrl: runtime.baseUrl,
      descriptor,
      request,
      token: runtime.token,
      headers: context.headers === undefined ? runtime.headers : { ...runtime.headers, ...context.headers },
    });
    const headers = { ...built.headers };
    span.inject(headers);
    const prepared = { ...built, headers };
    const deadlineAt = deadlineOf(runtime, context);
    const limits = { maxResponseBytes: runtime.maxResponseBytes, secrets: runtime.secrets };

    const result = await runWithRetry<OperationResult>({
      operationId: descriptor.operationId,
      path: prepared.path,
      retryClass: descriptor.retryClass,
      options: runtime.retry,
      deadlineAt,
      signal: context.signal,
      random: runtime.random,
      onRetry: (event) => reportRetry(runtime, event),
      attempt: async ({ remainingMs }) => {
        const perAttempt = Math.min(timeoutMs, remainingMs);
        const decoded = await sendAttempt(
          runtime.fetch,
          prepared,
          { timeoutMs: perAttempt, limit: perAttempt < timeoutMs ? "deadline" : "attempt", signal: context.signal, secrets: runtime.secrets },
          (response) => decodeResponse(response, descriptor, validators, limits),
        );
        return { ...decoded, reconciled: false, requestUrl: prepared.url };
      },
      recover: async (error, earlierUncertain) => {
        const reconcile = runtime.reconcile;
        if (!(error instanceof VersionConflictError) || !earlierUncertain || descriptor.reconcile === null || reconcile === null) {
          return undefined;
        }
        const resource = await reconcile({
          descriptor,
          request: (request ?? {}) as Record<string, unknown>,
          conflict: error,
          read: async (operationId, readRequest) =>
            (await runOperation(runtime, descriptorFor(runtime, operationId), readRequest, { ...context, deadlineAt })).data,
        });
        return {
          statusCode: descriptor.successStatus,
          data: resource,
          requestId: error.requestId,
          accepted: false,
          retryAfterMs: null,
          location: null,
          reconciled: true,
          requestUrl: prepared.url,
        };
      },
    });
    span.succeed(result.statusCode);
    return result;
  } catch (error) {
    span.fail(error);
    throw error;
  }
}
