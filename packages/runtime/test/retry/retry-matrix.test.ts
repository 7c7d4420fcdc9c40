import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/core/runtime.js";
import { runOperation } from "../../src/core/run-operation.js";
import {
  ConflictError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  ServiceUnavailableError,
  TransportError,
  type ClientError,
} from "../../src/errors.js";
import type { RetryClass } from "../../src/descriptor.js";
import { classDescriptor } from "../helpers/descriptors.js";
import { connectError, envelope, scripted, socketClosed, type Step } from "@powercontext/runtime/testing";

type Failure = "transport" | "connect" | 429 | 500 | 502 | 503 | 504 | 404 | 409;

function failure(kind: Failure): () => Step {
  if (kind === "transport") return socketClosed;
  if (kind === "connect") return () => connectError();
  return () => envelope(kind, kind === 404 ? "not_found" : kind === 409 ? "conflict" : "failed");
}

const errorClass: Record<string, abstract new (...args: never[]) => ClientError> = {
  transport: TransportError,
  connect: TransportError,
  429: RateLimitError,
  500: InternalServerError,
  502: InternalServerError,
  503: ServiceUnavailableError,
  504: InternalServerError,
  404: NotFoundError,
  409: ConflictError,
};

// runtime README, "Retries" with maxRetries = 2: 3 attempts when retried, 1 when surfaced.
const resend: Record<Failure, number> = {
  transport: 3,
  connect: 3,
  429: 3,
  500: 1,
  502: 3,
  503: 3,
  504: 3,
  404: 1,
  409: 1,
};
const never: Record<Failure, number> = {
  transport: 1,
  connect: 3,
  429: 1,
  500: 1,
  502: 1,
  503: 1,
  504: 1,
  404: 1,
  409: 1,
};
const expected: Record<RetryClass, Record<Failure, number>> = { safe: resend, replay: resend, guarded: resend, never };

const cases = (Object.keys(expected) as RetryClass[]).flatMap((retryClass) =>
  (Object.keys(resend) as Failure[]).map((kind) => ({
    retryClass,
    kind: kind as Failure,
    attempts: expected[retryClass][kind],
  })),
);

describe("retry matrix (runtime README, Retries)", () => {
  it.each(cases)("$retryClass on $kind -> $attempts attempt(s)", async ({ retryClass, kind, attempts }) => {
    const steps = Array.from({ length: 5 }, () => failure(kind)());
    const server = scripted(...steps);
    const runtime = createRuntime({
      baseUrl: "https://pc.example.com",
      fetch: server.fetch,
      maxRetries: 2,
      retry: { baseDelayMs: 0, maxDelayMs: 0 },
    });
    const error = await runOperation(runtime, classDescriptor(retryClass), { scope_id: "s" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errorClass[String(kind)]);
    expect(server.seen).toHaveLength(attempts);
  });

  it("succeeds on the attempt after retryable failures and reports each retry", async () => {
    const server = scripted(
      socketClosed(),
      envelope(503, "unavailable"),
      new Response('{"ok":true}', { status: 200, headers: { "content-type": "application/json" } }),
    );
    const events: unknown[] = [];
    const runtime = createRuntime({
      baseUrl: "https://pc.example.com",
      fetch: server.fetch,
      maxRetries: 3,
      retry: { baseDelayMs: 0, maxDelayMs: 0 },
      onRetry: (event) => events.push(event),
    });
    const result = await runOperation(runtime, classDescriptor("safe"), { scope_id: "s" });
    expect(result.statusCode).toBe(200);
    expect(result.data).toEqual({ ok: true });
    expect(server.seen).toHaveLength(3);
    expect(events).toEqual([
      {
        operationId: "op_safe",
        attempt: 1,
        reason: "transport_error",
        waitMs: 0,
        statusCode: null,
        requestId: null,
        budgetRemaining: 495,
      },
      {
        operationId: "op_safe",
        attempt: 2,
        reason: "status_503",
        waitMs: 0,
        statusCode: 503,
        requestId: "req-503",
        budgetRemaining: 490,
      },
    ]);
  });

  it("honours maxRetries = 0", async () => {
    const server = scripted(envelope(503, "unavailable"));
    const runtime = createRuntime({ baseUrl: "https://pc.example.com", fetch: server.fetch, maxRetries: 0 });
    await expect(runOperation(runtime, classDescriptor("safe"), {})).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(server.seen).toHaveLength(1);
  });
});
