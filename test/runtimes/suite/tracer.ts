/**
 * A tracer that records spans in memory, with the shape of OpenTelemetry's
 * `Tracer` the SDK uses, for the suite's telemetry check on runtimes where
 * the OpenTelemetry SDK is not installed (the repository's own tests use the
 * OpenTelemetry SDK's in-memory exporter).
 */

/** One recorded span. */
export interface RecordedSpan {
  readonly name: string;
  readonly kind: number | undefined;
  readonly spanId: string;
  readonly attributes: Record<string, unknown>;
  readonly events: Array<{ name: string; attributes: Record<string, unknown> | undefined }>;
  ended: boolean;
}

let counter = 0;

function hex(value: number, width: number): string {
  return value.toString(16).padStart(width, "0");
}

/** A tracer whose spans land in `spans`, in start order. */
export function recordingTracer() {
  const spans: RecordedSpan[] = [];
  const traceId = hex(Date.now(), 16) + hex(counter + 1, 16);
  return {
    spans,
    startSpan(name: string, options: { kind?: number; attributes?: Record<string, unknown> } = {}) {
      counter += 1;
      const span: RecordedSpan = {
        name,
        kind: options.kind,
        spanId: hex(counter, 16),
        attributes: { ...options.attributes },
        events: [],
        ended: false,
      };
      spans.push(span);
      return {
        setAttribute(key: string, value: unknown) {
          span.attributes[key] = value;
        },
        addEvent(eventName: string, attributes?: Record<string, unknown>) {
          span.events.push({ name: eventName, attributes });
        },
        setStatus() {},
        end() {
          span.ended = true;
        },
        spanContext: () => ({ traceId, spanId: span.spanId, traceFlags: 1 }),
      };
    },
  };
}
