import { AbortError, ServerResponseError } from "../errors.js";
import type { RetryEvent } from "../retry/run-with-retry.js";
import { type AttemptSpan, startAttemptSpan } from "./attempt-span.js";
import { guard, injectInto } from "./span-context.js";
import { SPAN_KIND_INTERNAL, type SpanLike, type TelemetryOptions } from "./tracer.js";

export type { AttemptSpan } from "./attempt-span.js";

/** How a call ended, as recorded on its span. */
export type CallOutcome = "success" | "failure" | "cancelled";

/**
 * The span of one client call. `attempt` and `backoff` are optional, so that
 * a hand-written {@link SpanStarter} of one span per call keeps working:
 * without `attempt`, the call's span is injected into the request once.
 */
export interface CallSpan {
  /** Adds propagation headers for this span to `headers` (used only when there is no `attempt`). */
  inject(headers: Record<string, string>): void;
  /** Starts the span of HTTP attempt `attempt` (1-based) to `url` (absolute, with its query string: never record it whole). */
  attempt?(attempt: number, url: string): AttemptSpan | null;
  /** Records the wait before the next attempt (one event per wait; never inside an attempt's span). */
  backoff?(event: RetryEvent): void;
  /** Ends the span with a success, the response status and the number of attempts. */
  succeed(statusCode: number, attempts?: number): void;
  /** Ends the span with `failure` or, for an abort, `cancelled`, and the number of attempts. */
  fail(error: unknown, attempts?: number): void;
}

/**
 * Starts the span of one call; the value of the `telemetry` client option.
 * Build one with {@link openTelemetry}. Anything it or its span throws is
 * ignored by the client.
 */
export type SpanStarter = (operationId: string, method: string, pathTemplate: string) => CallSpan;

const NOOP: CallSpan = { inject() {}, succeed() {}, fail() {} };

/**
 * Tracing for the `telemetry` client option (docs/telemetry.md), on any
 * OpenTelemetry-compatible tracer:
 * `new PowerContextClient({ baseUrl, telemetry: openTelemetry({ tracer }) })`.
 * Kept out of the client unless used, so untraced bundles carry none of it.
 */
export function openTelemetry(telemetry: TelemetryOptions): SpanStarter {
  return (operationId, method, pathTemplate) => startCallSpan(telemetry, operationId, method, pathTemplate);
}

/**
 * Starts the span of one call (docs/telemetry.md): INTERNAL, named
 * `PowerContextClient <operationId>`, with `powercontext.operation_id`, and
 * on end `powercontext.outcome` (success, failure, cancelled),
 * `powercontext.attempts`, `http.response.status_code` of the last response
 * and `error.type`. Under it, one CLIENT span per HTTP attempt
 * ({@link startAttemptSpan}); each backoff wait is an event
 * `powercontext.retry.backoff` on it (`powercontext.retry.attempt`, the
 * attempt that failed; `powercontext.retry.reason`; `powercontext.retry.wait_ms`).
 * Returns a no-op span when tracing is off or the tracer throws.
 */
function startCallSpan(
  telemetry: TelemetryOptions | undefined,
  operationId: string,
  method: string,
  pathTemplate: string,
): CallSpan {
  if (telemetry === undefined) return NOOP;
  let span: SpanLike;
  try {
    span = telemetry.tracer.startSpan(`PowerContextClient ${operationId}`, {
      kind: SPAN_KIND_INTERNAL,
      attributes: { "powercontext.operation_id": operationId },
    });
  } catch {
    return NOOP;
  }
  const end = (
    outcome: CallOutcome,
    statusCode: number | null,
    errorType: string | null,
    attempts: number | undefined,
  ): void => {
    guard(() => span.setAttribute("powercontext.outcome", outcome));
    if (attempts !== undefined && attempts > 0) guard(() => span.setAttribute("powercontext.attempts", attempts));
    if (statusCode !== null) guard(() => span.setAttribute("http.response.status_code", statusCode));
    if (errorType !== null) guard(() => span.setAttribute("error.type", errorType));
    guard(() => span.setStatus?.(outcome === "success" ? { code: 1 } : { code: 2, message: errorType ?? outcome }));
    guard(() => span.end());
  };
  return {
    inject: (headers) => injectInto(telemetry, span, headers),
    attempt: (attempt, url) => startAttemptSpan(telemetry, span, { method, pathTemplate, url, attempt }),
    backoff(event) {
      guard(() =>
        span.addEvent?.("powercontext.retry.backoff", {
          "powercontext.retry.attempt": event.attempt,
          "powercontext.retry.reason": event.reason,
          "powercontext.retry.wait_ms": event.waitMs,
        }),
      );
    },
    succeed(statusCode, attempts) {
      end("success", statusCode, null, attempts);
    },
    fail(error, attempts) {
      const statusCode = error instanceof ServerResponseError ? error.statusCode : null;
      const errorType = error instanceof Error ? error.name : "Error";
      end(error instanceof AbortError ? "cancelled" : "failure", statusCode, errorType, attempts);
    },
  };
}
