import { AbortError, ServerResponseError } from "../errors.js";
import { SPAN_KIND_CLIENT, type SpanLike, type TelemetryOptions } from "./tracer.js";

/** How a call ended, as recorded on its span. */
export type CallOutcome = "success" | "failure" | "cancelled";

/** A span around one client call. */
export interface CallSpan {
  /** Adds propagation headers for this span to `headers`. */
  inject(headers: Record<string, string>): void;
  /** Ends the span with a success and the response status. */
  succeed(statusCode: number): void;
  /** Ends the span with `failure` or, for an abort, `cancelled`. */
  fail(error: unknown): void;
}

/**
 * Starts the span of one call; the value of the `telemetry` client option.
 * Build one with {@link openTelemetry}. Anything it or its span throws is
 * ignored by the client.
 */
export type SpanStarter = (operationId: string, method: string, pathTemplate: string) => CallSpan;

const NOOP: CallSpan = { inject() {}, succeed() {}, fail() {} };

function guard(action: () => void): void {
  try {
    action();
  } catch {
    // Tracing must never fail a request.
  }
}

function traceparentOf(span: SpanLike): string | null {
  const context = span.spanContext?.();
  if (context === undefined || !/^[0-9a-f]{32}$/.test(context.traceId) || !/^[0-9a-f]{16}$/.test(context.spanId)) {
    return null;
  }
  const flags = (context.traceFlags & 0xff).toString(16).padStart(2, "0");
  return `00-${context.traceId}-${context.spanId}-${flags}`;
}

/**
 * Tracing for the `telemetry` client option (docs/compatibility.md), on any
 * OpenTelemetry-compatible tracer:
 * `new PowerContextClient({ baseUrl, telemetry: openTelemetry({ tracer }) })`.
 * Kept out of the client unless used, so untraced bundles carry none of it.
 */
export function openTelemetry(telemetry: TelemetryOptions): SpanStarter {
  return (operationId, method, pathTemplate) => startCallSpan(telemetry, operationId, method, pathTemplate);
}

/**
 * Starts the CLIENT span of one call (docs/compatibility.md): named
 * `PowerContextClient <operationId>`, with `powercontext.operation_id`,
 * `http.request.method` and `url.template`, and on end
 * `powercontext.outcome` (success, failure, cancelled),
 * `http.response.status_code` when a response arrived and `error.type`.
 * Never records URLs with query strings, headers, bodies or the token.
 * Returns a no-op span when tracing is off or the tracer throws.
 */
export function startCallSpan(
  telemetry: TelemetryOptions | undefined,
  operationId: string,
  method: string,
  pathTemplate: string,
): CallSpan {
  if (telemetry === undefined) return NOOP;
  let span: SpanLike;
  try {
    span = telemetry.tracer.startSpan(`PowerContextClient ${operationId}`, {
      kind: SPAN_KIND_CLIENT,
      attributes: {
        "powercontext.operation_id": operationId,
        "http.request.method": method,
        "url.template": pathTemplate,
      },
    });
  } catch {
    return NOOP;
  }
  const end = (outcome: CallOutcome, statusCode: number | null, errorType: string | null): void => {
    guard(() => span.setAttribute("powercontext.outcome", outcome));
    if (statusCode !== null) guard(() => span.setAttribute("http.response.status_code", statusCode));
    if (errorType !== null) guard(() => span.setAttribute("error.type", errorType));
    guard(() => span.setStatus?.(outcome === "success" ? { code: 1 } : { code: 2, message: errorType ?? outcome }));
    guard(() => span.end());
  };
  return {
    inject(headers) {
      guard(() => {
        if (telemetry.propagate !== undefined) telemetry.propagate(span, headers);
        else {
          const traceparent = traceparentOf(span);
          if (traceparent !== null) headers.traceparent = traceparent;
        }
      });
    },
    succeed(statusCode) {
      end("success", statusCode, null);
    },
    fail(error) {
      const statusCode = error instanceof ServerResponseError ? error.statusCode : null;
      const errorType = error instanceof Error ? error.name : "Error";
      end(error instanceof AbortError ? "cancelled" : "failure", statusCode, errorType);
    },
  };
}
