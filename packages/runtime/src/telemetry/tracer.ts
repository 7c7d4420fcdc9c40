/**
 * Minimal structural types of an OpenTelemetry tracer, so that the SDK works
 * with `@opentelemetry/api` without depending on it: a real `Tracer` and `Span`
 * satisfy these interfaces.
 */

/** Attribute values the SDK sets. */
export type SpanAttributeValue = string | number | boolean;

/** The part of an OpenTelemetry `Span` the SDK uses. */
export interface SpanLike {
  /** Sets one attribute of the span. */
  setAttribute(key: string, value: SpanAttributeValue): unknown;
  /** `code`: 1 = OK, 2 = ERROR (OpenTelemetry `SpanStatusCode`). */
  setStatus?(status: { code: number; message?: string }): unknown;
  /** Ends the span. */
  end(): unknown;
  /** When present, used to build a W3C `traceparent` if no `propagate` hook is given. */
  spanContext?(): {
    /** 32 lowercase hex digits. */
    traceId: string;
    /** 16 lowercase hex digits. */
    spanId: string;
    /** W3C trace flags; 1 = sampled. */
    traceFlags: number;
  };
}

/** The part of an OpenTelemetry `Tracer` the SDK uses. */
export interface TracerLike {
  /** Starts a span; the SDK passes `kind` CLIENT and its attributes. */
  startSpan(name: string, options?: { kind?: number; attributes?: Record<string, SpanAttributeValue> }): SpanLike;
}

/** Tracing options of the client. */
export interface TelemetryOptions {
  /** The tracer spans are started on, for example `trace.getTracer("my-app")`. */
  tracer: TracerLike;
  /**
   * Writes propagation headers (`traceparent`, `tracestate`, baggage) for
   * `span` into `headers`. With `@opentelemetry/api`:
   * `(span, headers) => propagation.inject(trace.setSpan(context.active(), span), headers)`.
   * Without it, the SDK writes `traceparent` from `span.spanContext()`.
   */
  propagate?: (span: SpanLike, headers: Record<string, string>) => void;
}

/** OpenTelemetry `SpanKind.CLIENT`. */
export const SPAN_KIND_CLIENT = 2;
