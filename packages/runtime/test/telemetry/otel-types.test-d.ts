// An OpenTelemetry SDK tracer is a TracerLike as it is: openTelemetry takes it without a cast.
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import { context, trace, type Span } from "@opentelemetry/api";
import { expectTypeOf, it } from "vitest";
import { openTelemetry, type SpanStarter } from "../../src/telemetry/call-span.js";

it("accepts an OpenTelemetry tracer and context hook", () => {
  const tracer = new BasicTracerProvider().getTracer("t");
  expectTypeOf(openTelemetry({ tracer })).toEqualTypeOf<SpanStarter>();
  expectTypeOf(
    openTelemetry({ tracer, context: (span: Span) => trace.setSpan(context.active(), span) }),
  ).toEqualTypeOf<SpanStarter>();
});
