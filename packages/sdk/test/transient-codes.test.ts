// The retry policy reads the spec's error-code registry: a retryable status
// whose envelope code is not transient (503 inference_unavailable: no model is
// configured) is sent once; a transient code (503 runtime_not_ready) and a code
// the registry does not know are retried as the status says
// (docs/retry-classes.md, "Transient error codes"). Real HTTP over loopback.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ServiceUnavailableError, createCaller, decideRetry, type RetryClass } from "@powercontext/runtime";
import { errorCodes, retryStopCodes } from "../src/generated/error-codes.js";
import { getServerInfoDescriptor, prepareHandoffDescriptor } from "../src/generated/operations.js";

let server: Server;
let base = "";
let code: string | null = null;
let requests = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    requests += 1;
    request.resume();
    request.on("end", () => {
      response.writeHead(503, { "content-type": "application/json" });
      response.end(
        code === null ? "upstream unavailable" : JSON.stringify({ error: { code, message: "not now", details: null } }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  requests = 0;
});

/** Calls a safe operation with two retries and near-zero backoff; resolves to its error. */
async function fail(answer: string | null, descriptor = getServerInfoDescriptor): Promise<unknown> {
  code = answer;
  const call = createCaller({ baseUrl: base, maxRetries: 2, retry: { baseDelayMs: 1, maxDelayMs: 2 } }, descriptor);
  return call({}).then(
    () => null,
    (error: unknown) => error,
  );
}

describe("transient error codes over loopback", () => {
  it("the registry marks inference_unavailable not transient and runtime_not_ready transient", () => {
    expect(errorCodes.inference_unavailable).toEqual({ status: 503, transient: false });
    expect(errorCodes.runtime_not_ready).toEqual({ status: 503, transient: true });
    expect(getServerInfoDescriptor.errorCodes).toBe(retryStopCodes);
    expect(prepareHandoffDescriptor.errorCodes).toBe(retryStopCodes);
  });

  it("the descriptors' smaller table decides every retry as the whole registry would", () => {
    const options = { maxRetries: 2, baseDelayMs: 0, maxDelayMs: 0, jitter: "none" as const };
    const classes: RetryClass[] = ["safe", "replay", "guarded", "never"];
    const statuses = [
      ...new Set([400, 404, 409, 422, 429, 500, 502, 503, 504, ...Object.values(errorCodes).map((row) => row.status)]),
    ];
    let compared = 0;
    for (const code of [...Object.keys(errorCodes), "not_in_the_registry", null]) {
      for (const statusCode of statuses) {
        for (const retryClass of classes) {
          const outcome = { kind: "status" as const, statusCode, code, retryAfterMs: null };
          const whole = decideRetry({ retryClass, outcome, attempt: 1, options, errorCodes, random: () => 0 });
          const stop = decideRetry({
            retryClass,
            outcome,
            attempt: 1,
            options,
            errorCodes: retryStopCodes,
            random: () => 0,
          });
          expect(stop, `${statusCode} ${code} ${retryClass}`).toEqual(whole);
          compared += 1;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
    // And the smaller table is smaller: only codes that stop a retry.
    expect(Object.keys(retryStopCodes).length).toBeLessThan(Object.keys(errorCodes).length / 3);
    expect(Object.keys(retryStopCodes)).toContain("inference_unavailable");
    expect(Object.keys(retryStopCodes)).not.toContain("runtime_not_ready");
  });

  it("503 inference_unavailable is sent exactly once", async () => {
    const error = await fail("inference_unavailable");
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as ServiceUnavailableError).code).toBe("inference_unavailable");
    expect(requests).toBe(1);
  });

  it("503 generation_unavailable on a model-backed read is sent exactly once too", async () => {
    await fail("generation_unavailable", prepareHandoffDescriptor);
    expect(requests).toBe(1);
  });

  it("503 runtime_not_ready is retried: three requests with two retries", async () => {
    const error = await fail("runtime_not_ready");
    expect((error as ServiceUnavailableError).code).toBe("runtime_not_ready");
    expect(requests).toBe(3);
  });

  it("a 503 with a code the registry does not know, or without the envelope, is retried as before", async () => {
    await fail("some_new_code");
    expect(requests).toBe(3);
    requests = 0;
    const plain = await fail(null);
    expect((plain as ServiceUnavailableError).code).toBeNull();
    expect(requests).toBe(3);
  });
});
