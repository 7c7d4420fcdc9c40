import type { SpanLike, TelemetryOptions } from "./tracer.js";

/** Runs `action`; anything it throws is dropped (tracing never fails a request). */
export function guard(action: () => void): void {
  try {
    action();
  } catch {
    // Tracing must never fail a request.
  }
}

/** The W3C `traceparent` of `span`, or null when it has no valid span context. */
export function traceparentOf(span: SpanLike): string | null {
  const context = span.spanContext?.();
  if (context === undefined || !/^[0-9a-f]{32}$/.test(context.traceId) || !/^[0-9a-f]{16}$/.test(context.spanId)) {
    return null;
  }
  const flags = (context.traceFlags & 0xff).toString(16).padStart(2, "0");
  return `00-${context.traceId}-${context.spanId}-${flags}`;
}

/** Writes the propagation headers of `span` into `headers` (the `propagate` hook, else `traceparent`). */
export function injectInto(telemetry: TelemetryOptions, span: SpanLike, headers: Record<string, string>): void {
  guard(() => {
    if (telemetry.propagate !== undefined) telemetry.propagate(span, headers);
    else {
      const traceparent = traceparentOf(span);
      if (traceparent !== null) headers.traceparent = traceparent;
    }
  });
}

/** The key `@opentelemetry/api` keeps a context's span under (`createContextKey` makes it with `Symbol.for`). */
const SPAN_KEY = Symbol.for("OpenTelemetry Context Key SPAN");

/**
 * An immutable OpenTelemetry `Context` (getValue, setValue, deleteValue)
 * holding `entries`, for tracers given no `context` hook: enough for an
 * OpenTelemetry tracer to read the parent span.
 */
class SpanContextCarrier {
  readonly #entries: ReadonlyMap<symbol, unknown>;

  constructor(entries: ReadonlyMap<symbol, unknown>) {
    this.#entries = entries;
  }

  getValue(key: symbol): unknown {
    return this.#entries.get(key);
  }

  setValue(key: symbol, value: unknown): SpanContextCarrier {
    return new SpanContextCarrier(new Map(this.#entries).set(key, value));
  }

  deleteValue(key: symbol): SpanContextCarrier {
    const entries = new Map(this.#entries);
    entries.delete(key);
    return new SpanContextCarrier(entries);
  }
}

/** The context an attempt's span starts in: the `context` hook's, else one holding `parent` alone. */
export function contextWithParent(telemetry: TelemetryOptions, parent: SpanLike): unknown {
  if (telemetry.context !== undefined) return telemetry.context(parent);
  return new SpanContextCarrier(new Map([[SPAN_KEY, parent]]));
}
