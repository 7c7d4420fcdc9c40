import type { OperationDescriptor, OperationValidators } from "../descriptor.js";
import { InvalidRequestError } from "../errors.js";
import { runWithRetry, type RetryLoopInput } from "../retry/run-with-retry.js";
import type { CallSpan } from "../telemetry/call-span.js";
import { traceAttempt } from "../telemetry/trace-attempt.js";
import { buildRequest } from "../transport/build-request.js";
import { redact } from "../transport/sanitize.js";
import { sendAttempt, type AttemptLimits, type ResponseConsumer } from "../transport/send.js";
import type { CallContext, OperationResult } from "./call-context.js";
import { decodeResponse, issuesOf } from "./decode-response.js";
import { validatorsFor, type Runtime } from "./runtime.js";

export type { CallContext, OperationResult } from "./call-context.js";

/** Returns `value` when it is a positive finite number. @throws InvalidRequestError naming the option otherwise. */
function positiveMs(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0)
    throw new InvalidRequestError(`${name} must be a positive number of milliseconds`);
  return value;
}

/** The call's absolute deadline: inherited, else `deadlineMs` of the call, else the client's default. */
function deadlineOf(context: CallContext, runtime: Runtime): number {
  if (context.deadlineAt !== undefined && context.deadlineAt !== null) return context.deadlineAt;
  return Date.now() + positiveMs("deadlineMs", context.deadlineMs ?? runtime.deadlineMs);
}

/** Starts the call's span, or returns null without tracing or when the tracer throws. */
function startSpan(runtime: Runtime, descriptor: OperationDescriptor): CallSpan | null {
  try {
    return runtime.telemetry?.(descriptor.operationId, descriptor.method, descriptor.path) ?? null;
  } catch {
    return null;
  }
}

/** Calls one span method; nothing a span throws reaches the call (tracing never fails a request). */
function record(span: CallSpan | null, action: (span: CallSpan) => void): void {
  if (span === null) return;
  try {
    action(span);
  } catch {
    // ignored on purpose
  }
}

/**
 * Runs one operation end to end (docs/compatibility.md and the runtime README): validates the request
 * (nothing is sent when it fails), builds it once, sends it under the retry
 * policy of its class within one total deadline, decodes and validates the
 * response, reconciles a guarded `409 version_conflict` after an uncertain
 * re-send, and records the call's span with one CLIENT span per attempt (docs/telemetry.md).
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
  let attempts = 0;
  try {
    const requestValidator = validators?.request;
    if (requestValidator !== undefined && !requestValidator(request ?? {})) {
      const issues = issuesOf(requestValidator);
      throw new InvalidRequestError(
        `${descriptor.operationId}: the request does not match the schema: ${issues[0]}`,
        issues,
      );
    }
    const timeoutMs = positiveMs("timeoutMs", context.timeoutMs ?? runtime.timeoutMs);
    // buildRequest returns fresh headers, so the span may write into them.
    const prepared = buildRequest({
      baseUrl: runtime.baseUrl,
      descriptor,
      request,
      token: runtime.token,
      extraQuery: context.extraQuery,
      headers: context.headers === undefined ? runtime.headers : { ...runtime.headers, ...context.headers },
    });
    // A span of one span per call (a hand-written SpanStarter) is injected once; attempt spans inject their own.
    if (span !== null && span.attempt === undefined)
      record(span, (call) => call.inject(prepared.headers as Record<string, string>));
    const deadlineAt = deadlineOf(context, runtime);
    const requestUrl = prepared.url;
    // The retry loop's input and the attempt's response consumer in one object;
    // its hooks are methods, so a call allocates no function wrappers.
    const call: RetryLoopInput<OperationResult> & ResponseConsumer<OperationResult> = {
      operationId: descriptor.operationId,
      path: prepared.path,
      retryClass: descriptor.retryClass,
      errorCodes: descriptor.errorCodes,
      options: runtime.retry,
      budget: runtime.retryBudget,
      deadlineAt,
      signal: context.signal,
      random: runtime.random,
      attempt({ attempt, remainingMs }) {
        attempts = attempt;
        const perAttempt = Math.min(remainingMs, timeoutMs);
        const limits: AttemptLimits = {
          timeoutMs: perAttempt,
          limit: perAttempt < timeoutMs ? "deadline" : "attempt",
          signal: context.signal,
          secrets: runtime.secrets,
        };
        const runner = runtime.runMiddleware;
        return traceAttempt(span, attempt, prepared, (sent) =>
          runner === null
            ? sendAttempt(runtime.transport, sent, limits, call)
            : runner(runtime, descriptor.operationId, attempt, sent, limits, call),
        );
      },
      async consume(response) {
        const decoded = (await decodeResponse(response, descriptor, validators, runtime)) as OperationResult;
        decoded.reconciled = false;
        decoded.requestUrl = requestUrl;
        return decoded;
      },
      onRetry(event) {
        record(span, (call) => call.backoff?.(event));
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
      },
      recover(error, earlierUncertain) {
        const reconcile = runtime.reconcile;
        return reconcile === null
          ? Promise.resolve(undefined)
          : reconcile({ runtime, descriptor, request, context, deadlineAt, requestUrl }, error, earlierUncertain);
      },
    };
    const result = await runWithRetry(call);
    result.attempts = attempts;
    record(span, (call) => call.succeed(result.statusCode, attempts));
    return result;
  } catch (error) {
    record(span, (call) => call.fail(error, attempts));
    throw error;
  }
}
