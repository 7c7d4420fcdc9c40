import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/core/runtime.js";
import { runOperation } from "../../src/core/run-operation.js";
import { openTelemetry } from "../../src/telemetry/call-span.js";
import type { SpanAttributeValue, SpanLike, TracerLike } from "../../src/telemetry/tracer.js";
import { descriptor } from "../helpers/descriptors.js";
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

describe("telemetry (docs/compatibility.md)", () => {
  it("records one CLIENT span per call with outcome and status, and propagates traceparent", async () => {
    const { tracer, spans } = recordingTracer();
    const server = scripted(envelope(503, "unavailable"), json(200, { hits: [] }));
    const runtime = createRuntime({
      baseUrl: "https://pc.example.com",
      token: "tok",
      fetch: server.fetch,
      telemetry: openTelemetry({ tracer }),
      retry: { baseDelayMs: 0, maxDelayMs: 0 },
    });
    await runOperation(runtime, op, {});
    expect(spans).toHaveLength(1);
    expect(spans[0]).toMatchObject({
      name: "PowerContextClient search_memory",
      kind: 2,
      ended: 1,
      status: { code: 1 },
      attributes: {
        "powercontext.outcome": "success",
        "http.response.status_code": 200,
        "powercontext.operation_id": "search_memory",
      },
    });
    expect(server.seen.map((request) => request.headers.traceparent)).toEqual([
      "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
      "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    ]);
    expect(JSON.stringify(spans)).not.toContain("tok");
  });

  it("marks failures and cancellations", async () => {
    const { tracer, spans } = recordingTracer();
    const runtime = createRuntime({
      baseUrl: "https://pc.example.com",
      fetch: scripted(envelope(404, "not_found")).fetch,
      telemetry: openTelemetry({ tracer }),
    });
    await runOperation(runtime, op, {}).catch(() => undefined);
    await runOperation(runtime, op, {}, { signal: AbortSignal.abort() }).catch(() => undefined);
    expect(
      spans.map((span) => [
        span.attributes["powercontext.outcome"],
        span.attributes["http.response.status_code"],
        span.status?.code,
      ]),
    ).toEqual([
      ["failure", 404, 2],
      ["cancelled", undefined, 2],
    ]);
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
