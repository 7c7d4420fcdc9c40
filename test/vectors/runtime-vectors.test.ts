// The runtime behaviour vectors both languages run (test/vectors/runtime/*.json): retry
// decisions, Retry-After, the budget, reconciliation, path segments, and whole calls of
// openapi.yaml's operations against scripted answers on a fake clock. The Python runtime
// runs the same files in python/tests/test_shared_vectors.py.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as runtime from "@powercontext/runtime";
import type { ErrorCodeTable, FetchLike, RetryClass } from "@powercontext/runtime";
import { decideRetry, type AttemptOutcome } from "../../packages/runtime/src/retry/policy.js";
import { parseRetryAfter } from "../../packages/runtime/src/retry/retry-after.js";
import { RetryBudget } from "../../packages/runtime/src/retry/budget.js";
import { showsRequestedTransition } from "../../packages/runtime/src/retry/reconcile.js";
import { encodePathSegment } from "../../packages/runtime/src/transport/path-segment.js";
import * as contractErrors from "../../packages/sdk/src/generated/contract-errors.js";
import { PowerContextClient } from "../../packages/sdk/src/client.js";
import { repoRoot } from "../real/tools.js";

type Json = any; // vectors are JSON read at run time

const read = (name: string): Json =>
  JSON.parse(readFileSync(join(repoRoot, "test/vectors/runtime", `${name}.json`), "utf8"));
const retry = read("retry");
const reconcile = read("reconcile");
const segments = read("path-segments");
const exchanges = read("exchanges");

afterEach(() => {
  vi.useRealTimers();
});

describe("retry decisions, Retry-After and the budget", () => {
  const errorCodes = retry.error_codes as ErrorCodeTable;
  it.each(retry.decisions.map((v: Json) => [v.why, v]))("%s", (_why, v: Json) => {
    const o = { ...retry.options, ...(v.options ?? {}) };
    const outcome: AttemptOutcome =
      "transport" in v.outcome
        ? {
            kind: "transport",
            phase: v.outcome.transport === "connect" ? "connect" : "exchange",
            timeout: v.outcome.transport === "timeout",
          }
        : {
            kind: "status",
            statusCode: v.outcome.status,
            retryAfterMs: v.outcome.retry_after_ms,
            code: v.outcome.code,
          };
    const options = {
      maxRetries: o.max_retries,
      baseDelayMs: o.base_delay_ms,
      maxDelayMs: o.max_delay_ms,
      jitter: o.jitter,
      maxRetryAfterMs: o.max_retry_after_ms,
    };
    const decision = decideRetry({
      retryClass: v.retry_class as RetryClass,
      outcome,
      attempt: v.attempt,
      options,
      errorCodes,
      random: () => v.random,
    });
    expect(decision.retry).toBe(v.expect.retry);
    if (decision.retry) expect([decision.delayMs, decision.reason]).toEqual([v.expect.delay_ms, v.expect.reason]);
  });

  it.each(retry.retry_after.map((v: Json) => [JSON.stringify(v.value), v]))("Retry-After %s", (_value, v: Json) => {
    expect(parseRetryAfter(v.value, retry.retry_after_now_ms)).toBe(v.expect_ms);
  });

  it.each(retry.budget.map((v: Json) => [v.why, v]))("%s", (_why, v: Json) => {
    const o = v.options;
    const budget = new RetryBudget({
      capacity: o.capacity,
      retryCost: o.retry_cost,
      timeoutRetryCost: o.timeout_retry_cost,
      successRefund: o.success_refund,
    });
    for (const step of v.steps) {
      if ("spend" in step) expect(budget.spend(step.spend)).toBe(step.expect);
      else budget.succeeded(step.succeeded);
      expect(budget.available).toBe(step.available);
    }
  });
});

describe("reconciliation and path segments", () => {
  it.each(reconcile.cases.map((v: Json) => [v.why, v]))("%s", (_why, v: Json) => {
    const fields = { statusField: reconcile.fields.status_field, versionField: reconcile.fields.version_field };
    expect(showsRequestedTransition(v.resource, v.holds_when, v.expected_version, fields)).toBe(v.holds);
  });

  it.each(segments.segments.map((v: Json) => [JSON.stringify(v.value), v]))("segment %s", (_value, v: Json) => {
    if (v.refused) expect(() => encodePathSegment("op", "id", v.value)).toThrow(runtime.InvalidRequestError);
    else expect(encodePathSegment("op", "id", v.value)).toBe(v.encoded);
  });
});

function errorClass(name: string): new (...args: never[]) => Error {
  const found = (runtime as Record<string, unknown>)[name] ?? (contractErrors as Record<string, unknown>)[name];
  if (typeof found !== "function") throw new Error(`no class ${name} in the runtime or the SDK's contract errors`);
  return found as new (
    ...args: never[]
  ) => Error;
}

/** A scripted server on the fake clock: the n-th request gets the n-th answer (the last repeats). */
function scripted(answers: Json[]) {
  const seen: [string, number][] = [];
  const start = Date.now();
  const fetch: FetchLike = async (url, init) => {
    const parsed = new URL(url);
    seen.push([`${init.method} ${parsed.pathname}`, Date.now() - start]);
    const answer = answers[Math.min(seen.length - 1, answers.length - 1)];
    if (answer.fail === "connect")
      throw Object.assign(new TypeError("fetch failed"), {
        cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
      });
    if (answer.fail === "reset")
      throw Object.assign(new TypeError("fetch failed"), {
        cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }),
      });
    const body = answer.status === 204 || answer.body === "" ? null : answer.body;
    return new Response(body, {
      status: answer.status,
      headers: { "content-type": "application/json", ...answer.headers },
    });
  };
  return { fetch, seen };
}

function client(fetch: FetchLike, settings: Json) {
  return new PowerContextClient({
    baseUrl: segments.base_url,
    token: "secret-token",
    fetch,
    maxRetries: settings.max_retries ?? 2,
    retry: { baseDelayMs: 100, jitter: "none" },
    minPollIntervalMs: 200,
    maxPollIntervalMs: 5000,
    operationDeadlineMs: settings.operation_deadline_ms ?? 60_000,
  });
}

/** Timers and Date on a fake clock, installed before the scripted server reads the time. */
function fakeClock(): void {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
}

/** Runs `call` to its end on the fake clock; resolves to its value or its error. */
async function settle(call: () => Promise<unknown>): Promise<{ value?: unknown; error?: unknown }> {
  let outcome: { value?: unknown; error?: unknown } | null = null;
  call().then(
    (value) => (outcome = { value }),
    (error: unknown) => (outcome = { error }),
  );
  for (let turns = 0; outcome === null && turns < 1000; turns += 1) await vi.advanceTimersToNextTimerAsync();
  if (outcome === null) throw new Error("the call did not end");
  return outcome;
}

function checkError(error: unknown, want: Json): void {
  expect(error).toBeInstanceOf(errorClass(want.class));
  const e = error as Record<string, unknown> & { error?: { category?: unknown; code?: unknown } };
  const failed = error instanceof runtime.OperationFailedError;
  const members: Record<string, unknown> = {
    status: e.statusCode,
    code: failed ? e.error?.code : e.code,
    server_message: e.serverMessage,
    details: e.details,
    request_id: e.requestId,
    body: e.body,
    operation_id: e.operationId,
    category: e.error?.category,
    outcome_unknown: e.outcomeUnknown,
    retry_after_ms: e.retryAfterMs,
  };
  for (const key of Object.keys(members)) if (key in want) expect(members[key], key).toEqual(want[key]);
}

describe("whole calls against scripted answers", () => {
  it.each(exchanges.scenarios.map((v: Json) => [v.name, v]))("%s", async (_name, v: Json) => {
    fakeClock();
    const server = scripted(v.answers);
    const sdk = client(server.fetch, v.client);
    const outcome = await settle(() => sdk.request(v.operation, v.request));
    if ("error" in v.expect) {
      expect(outcome.error, `resolved to ${JSON.stringify(outcome.value)}`).toBeDefined();
      checkError(outcome.error, v.expect.error);
    } else {
      expect(outcome.error).toBeUndefined();
      const { reconciled, ...data } = outcome.value as Record<string, unknown>;
      expect(data).toEqual(v.expect.result);
      expect(reconciled === true).toBe(v.expect.reconciled === true);
    }
    expect(server.seen.map(([request]) => request)).toEqual(v.expect.requests);
    expect(server.seen.map(([, at]) => at)).toEqual(v.expect.at_ms);
  });

  it.each(segments.accepted.map((v: Json) => [v.why, v]))("202: %s", async (_why, v: Json) => {
    fakeClock();
    const body = JSON.stringify({ ...segments.accepted_body, operation_id: v.body_id });
    const server = scripted([
      { status: 202, headers: v.location === null ? {} : { location: v.location }, body },
      { status: 200, headers: {}, body: JSON.stringify(segments.succeeded) },
    ]);
    const outcome = await settle(() => client(server.fetch, {}).flushMemory({ scope_id: "team" }));
    if ("error" in v.expect) {
      expect(outcome.error).toBeInstanceOf(errorClass(v.expect.error));
      expect(server.seen).toHaveLength(1);
    } else {
      expect(outcome.error).toBeUndefined();
      expect(server.seen[1]?.[0]).toBe(`GET ${v.expect.polls}`);
    }
  });

  it.each(segments.caller_ids.map((v: Json) => [v.why, v]))("%s", async (_why, v: Json) => {
    fakeClock();
    const server = scripted([{ status: 200, headers: {}, body: JSON.stringify(segments.succeeded) }]);
    const outcome = await settle(() => client(server.fetch, {}).getOperation({ operation_id: v.operation_id }));
    if ("error" in v) {
      expect(outcome.error).toBeInstanceOf(errorClass(v.error));
      expect(server.seen).toHaveLength(0);
    } else {
      expect(server.seen[0]?.[0]).toBe(`GET ${v.polls}`);
    }
  });
});
