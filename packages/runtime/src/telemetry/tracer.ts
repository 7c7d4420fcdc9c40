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
  /** Records an event (a retry's backoff wait); skipped when the span has no such method. */
  addEvent?(name: string, attributes?: Record<string, SpanAttributeValue>): unknown;
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

/** Options the SDK passes to `startSpan`. */
export interface SpanOptionsLike {
  /** OpenTelemetry `SpanKind`: 0 INTERNAL for a call, 2 CLIENT for an HTTP attempt. */
  kind?: number;
  /** The span's first attributes. */
  attributes?: Record<string, SpanAttributeValue>;
}

/** The part of an OpenTelemetry `Tracer` the SDK uses. */
export interface TracerLike {
  /**
   * Starts a span. A call's span is started without `context` (so under the
   * active one); an attempt's span with the context of its call's span as
   * `context` (see {@link TelemetryOptions.context}).
   */
  startSpan(name: string, options?: SpanOptionsLike, context?: unknown): SpanLike;
}

/** Tracing options of the client. */
export interface TelemetryOptions {
  /** The tracer spans are started on, for example `trace.getTracer("my-app")`. */
  tracer: TracerLike;
  /**
   * Writes propagation headers (`traceparent`, `tracestate`, baggage) for
   * `span` (an attempt's span) into `headers`. With `@opentelemetry/api`:
   * `(span, headers) => propagation.inject(trace.setSpan(context.active(), span), headers)`.
   * Without it, the SDK writes `traceparent` from `span.spanContext()`.
   */
  propagate?: (span: SpanLike, headers: Record<string, string>) => void;
  /**
   * The OpenTelemetry context an attempt's span starts in, holding its call's
   * span as the parent. With `@opentelemetry/api`:
   * `(span) => trace.setSpan(context.active(), span)`, which also carries the
   * active context's other entries (baggage). Without it, the SDK passes a
   * context holding the parent span alone, under the key `@opentelemetry/api`
   * reads it from (`Symbol.for("OpenTelemetry Context Key SPAN")`).
   * A method, so that a hook typed with OpenTelemetry's `Span` fits.
   */
  context?(parent: SpanLike): unknown;
}

/** OpenTelemetry `SpanKind.INTERNAL`: the span of one call, around its attempts. */
export const SPAN_KIND_INTERNAL = 0;

/** OpenTelemetry `SpanKind.CLIENT`: the span of one HTTP attempt. */
export const SPAN_KIND_CLIENT = 2;
