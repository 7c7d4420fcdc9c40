import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/core/runtime.js";
import { runOperation } from "../../src/core/run-operation.js";
import { openTelemetry } from "../../src/telemetry/call-span.js";
import type { SpanAttributeValue, SpanLike, TracerLike } from "../../src/telemetry/tracer.js";
import { descriptor, flushMemory, table } from "../helpers/descriptors.js";
import { callOperation } from "../../src/operations/submit.js";
import { context, SpanKind, SpanStatusCode, trace, type Span } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { envelope, json, scripted } from "@powercontext/runtime/testing";

interface Recorded {
  name: string;
  kind: number | undefined;
  attributes: Record<string, SpanAttributeValue>;
  status: { code: number } | null;
  ended: number;
}

function recordingTracer(): { tracer: TracerLike; spans: Recorded[] } {
  const spans: Recorded[] = [];
  const tracer: TracerLike = {
    startSpan(name, options) {
      const record: Recorded = {
        name,
        kind: options?.kind,
        attributes: { ...options?.attributes },
        status: null,
        ended: 0,
      };
      spans.push(record);
      const span: SpanLike = {
        setAttribute: (key, value) => (record.attributes[key] = value),
        setStatus: (status) => (record.status = status),
        end: () => (record.ended += 1),
        spanContext: () => ({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", traceFlags: 1 }),
      };
      return span;
    },
  };
  return { tracer, spans };
}

const op = descriptor({ operationId: "search_memory", path: "/v1/memory/search" });

/** An OpenTelemetry SDK tracer whose finished spans land in the returned in-memory exporter. */
function otelTracer() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { tracer: provider.getTracer("powercontext-test"), exporter };
}

describe("telemetry (docs/telemetry.md)", () => {
  it("records the call's span and one CLIENT span per attempt, resend_count on the retry, the backoff as an event", async () => {
    const { tracer, exporter } = otelTracer();
    const server = scripted(envelope(503, "unavailable", null, { "retry-after": "0" }), json(200, { hits: [] }));
    const runtime = createRuntime({
      baseUrl: "https://pc.example.com:8443",
      token: "tok-secret-value",
      fetch: server.fetch,
      telemetry: openTelemetry({ tracer }),
      retry: { baseDelayMs: 0, maxDelayMs: 0 },
    });
    await runOperation(runtime, op, {});
    const spans = exporter.getFinishedSpans();
    const call = spans.find((span) => span.name === "PowerContextClient search_memory");
    const attempts = spans.filter((span) => span.kind === SpanKind.CLIENT);
    expect(spans).toHaveLength(3);
    expect(call).toMatchObject({
      kind: SpanKind.INTERNAL,
      status: { code: SpanStatusCode.OK },
      attributes: {
        "powercontext.operation_id": "search_memory",
        "powercontext.outcome": "success",
        "powercontext.attempts": 2,
        "http.response.status_code": 200,
      },
    });
    expect(attempts.map((span) => span.name)).toEqual(["POST /v1/memory/search", "POST /v1/memory/search"]);
    expect(attempts.map((span) => span.parentSpanContext?.spanId)).toEqual([
      call?.spanContext().spanId,
      call?.spanContext().spanId,
    ]);
    expect(attempts.map((span) => span.spanContext().traceId)).toEqual([
      call?.spanContext().traceId,
      call?.spanContext().traceId,
    ]);
    expect(attempts[0]?.attributes).toEqual({
      "http.request.method": "POST",
      "url.template": "/v1/memory/search",
      "server.address": "pc.example.com",
      "server.port": 8443,
      "http.response.status_code": 503,
      "error.type": "503",
    });
    expect(attempts[0]?.status.code).toBe(SpanStatusCode.ERROR);
    expect(attempts[1]?.attributes).toMatchObject({ "http.request.resend_count": 1, "http.response.status_code": 200 });
    expect(attempts[1]?.attributes["error.type"]).toBeUndefined();
    // Each attempt carries its own span's traceparent.
    expect(server.seen.map((request) => request.headers.traceparent)).toEqual(
      attempts.map((span) => `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`),
    );
    // The wait is an event of the call's span, after the first attempt ended and before the second began.
    const [backoff] = call?.events ?? [];
    expect(backoff).toMatchObject({
      name: "powercontext.retry.backoff",
      attributes: { "powercontext.retry.attempt": 1, "powercontext.retry.reason": "status_503" },
    });
    // OpenTelemetry starts each span at Date.now() (whole milliseconds) and times its events and end from there
    // with performance.now(), so two spans' times agree only to within the millisecond one of them dropped.
    const at = (time: [number, number]) => BigInt(time[0]) * 1_000_000_000n + BigInt(time[1]);
    const millisecond = 1_000_000n;
    const backoffAt = at(backoff?.time as [number, number]);
    expect(backoffAt + millisecond).toBeGreaterThanOrEqual(at(attempts[0]?.endTime as [number, number]));
    expect(backoffAt).toBeLessThanOrEqual(at(attempts[1]?.startTime as [number, number]) + millisecond);
    expect(JSON.stringify(spans.map((span) => [span.attributes, span.events]))).not.toContain("tok-secret-value");
  });

  it("starts attempt spans in the context the context hook builds (@opentelemetry/api's trace.setSpan)", async () => {
    const { tracer, exporter } = otelTracer();
    const parents: unknown[] = [];
    const runtime = createRuntime({
      baseUrl: "https://pc.example.com",
      fetch: scripted(json(200, {})).fetch,
      telemetry: openTelemetry({
        tracer,
        context: (span: Span) => {
          parents.push(span);
          return trace.setSpan(context.active(), span);
        },
      }),
    });
    await runOperation(runtime, op, {});
    const [attempt, call] = exporter.getFinishedSpans();
    expect(parents).toEqual([call]);
    expect(attempt?.parentSpanContext?.spanId).toBe(call?.spanContext().spanId);
  });

  it("traces each poll of an asynchronous call as a call with its attempt", async () => {
    const { tracer, exporter } = otelTracer();
    let polls = 0;
    const runtime = createRuntime(
      {
        baseUrl: "https://pc.example.com",
        minPollIntervalMs: 1,
        maxPollIntervalMs: 5,
        telemetry: openTelemetry({ tracer }),
        fetch: async (url) => {
          if (new URL(url).pathname === "/v1/memory/flush")
            return new Response(null, {
              status: 202,
              headers: { location: "/v1/operations/op_1", "retry-after": "0" },
            });
          polls += 1;
          const status = polls < 2 ? "running" : "succeeded";
          return json(200, {
            operation_id: "op_1",
            kind: "memory_flush",
            status,
            version: polls,
            error: null,
            result: {},
          });
        },
      },
      { operations: table },
    );
    await callOperation(runtime, flushMemory, { scope_id: "s1" });
    const names = exporter.getFinishedSpans().map((span) => [span.name, span.attributes["http.response.status_code"]]);
    expect(names).toEqual([
      ["POST /v1/memory/flush", 202],
      ["PowerContextClient flush_memory", 202],
      ["GET /v1/operations/{operation_id}", 200],
      ["PowerContextClient get_operation", 200],
      ["GET /v1/operations/{operation_id}", 200],
      ["PowerContextClient get_operation", 200],
    ]);
  });

  it("marks failures and cancellations; an aborted call sent no attempt", async () => {
    const { tracer, exporter } = otelTracer();
    const runtime = createRuntime({
      baseUrl: "https://pc.example.com",
      fetch: scripted(envelope(404, "not_found")).fetch,
      telemetry: openTelemetry({ tracer }),
    });
    await runOperation(runtime, op, {}).catch(() => undefined);
    await runOperation(runtime, op, {}, { signal: AbortSignal.abort() }).catch(() => undefined);
    expect(
      exporter
        .getFinishedSpans()
        .map((span) => [
          span.kind,
          span.attributes["powercontext.outcome"],
          span.attributes["http.response.status_code"],
          span.attributes["error.type"],
          span.status.code,
        ]),
    ).toEqual([
      [SpanKind.CLIENT, undefined, 404, "404", SpanStatusCode.ERROR],
      [SpanKind.INTERNAL, "failure", 404, "NotFoundError", SpanStatusCode.ERROR],
      [SpanKind.CLIENT, undefined, undefined, "AbortError", SpanStatusCode.ERROR],
      [SpanKind.INTERNAL, "cancelled", undefined, "AbortError", SpanStatusCode.ERROR],
    ]);
  });

  it("keeps a hand-written span of one span per call working: injected once, for every attempt", async () => {
    const injected: string[] = [];
    const server = scripted(envelope(503, "unavailable", null, { "retry-after": "0" }), json(200, {}));
    const runtime = createRuntime({
      baseUrl: "https://pc.example.com",
      fetch: server.fetch,
      retry: { baseDelayMs: 0, maxDelayMs: 0 },
      telemetry: () => ({
        inject: (headers) => {
          injected.push("inject");
          headers.traceparent = "00-one-per-call";
        },
        succeed: () => undefined,
        fail: () => undefined,
      }),
    });
    await runOperation(runtime, op, {});
    expect(injected).toEqual(["inject"]);
    expect(server.seen.map((request) => request.headers.traceparent)).toEqual(["00-one-per-call", "00-one-per-call"]);
  });

  it("uses the propagate hook when given", async () => {
    const { tracer } = recordingTracer();
    const server = scripted(json(200, {}));
    const runtime = createRuntime({
      baseUrl: "https://pc.example.com",
      fetch: server.fetch,
      telemetry: openTelemetry({ tracer, propagate: (_span, headers) => (headers.traceparent = "00-custom") }),
    });
    await runOperation(runtime, op, {});
    expect(server.seen[0]?.headers.traceparent).toBe("00-custom");
  });

  it("never fails a request because the tracer throws", async () => {
    const throwing: TracerLike = {
      startSpan: () => {
        throw new Error("tracer down");
      },
    };
    const brokenSpan: TracerLike = {
      startSpan: () => ({
        setAttribute: () => {
          throw new Error("attr");
        },
        setStatus: () => {
          throw new Error("status");
        },
        end: () => {
          throw new Error("end");
        },
        spanContext: () => {
          throw new Error("context");
        },
      }),
    };
    const throwingStarter = () => {
      throw new Error("starter");
    };
    const throwingSpan = () => ({
      inject: () => {
        throw new Error("inject");
      },
      succeed: () => {
        throw new Error("succeed");
      },
      fail: () => {
        throw new Error("fail");
      },
    });
    for (const telemetry of [throwingStarter, throwingSpan]) {
      const runtime = createRuntime({
        baseUrl: "https://pc.example.com",
        fetch: scripted(json(200, { ok: 1 })).fetch,
        telemetry,
      });
      await expect(runOperation(runtime, op, {})).resolves.toMatchObject({ data: { ok: 1 } });
    }
    for (const tracer of [throwing, brokenSpan]) {
      const runtime = createRuntime({
        baseUrl: "https://pc.example.com",
        fetch: scripted(json(200, { ok: 1 })).fetch,
        telemetry: openTelemetry({
          tracer,
          propagate: () => {
            throw new Error("propagate");
          },
        }),
      });
      await expect(runOperation(runtime, op, {})).resolves.toMatchObject({ data: { ok: 1 } });
    }
  });
});
