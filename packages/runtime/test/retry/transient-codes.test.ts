import { describe, expect, it } from "vitest";
import type { ErrorCodeTable, RetryClass } from "../../src/descriptor.js";
import { decideRetry, isPermanentCode, type AttemptOutcome } from "../../src/retry/policy.js";

// A table as the generator writes it from a spec's error-code registry; the runtime knows no code itself.
const table: ErrorCodeTable = {
  wait_helps: { status: 503, transient: true },
  no_wait_helps: { status: 503, transient: false },
  slow_down: { status: 429, transient: true },
};
const options = { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 1, jitter: "none" as const };

function decide(retryClass: RetryClass, statusCode: number, code: string | null, errorCodes: ErrorCodeTable = table) {
  const outcome: AttemptOutcome = { kind: "status", statusCode, retryAfterMs: null, code };
  return decideRetry({ retryClass, outcome, attempt: 1, options, errorCodes }).retry;
}

describe("the retry policy reads the error-code table", () => {
  it.each(["safe", "replay", "guarded"] as const)(
    "%s: a non-transient code is not re-sent, a transient or unknown one is",
    (retryClass) => {
      expect(decide(retryClass, 503, "no_wait_helps")).toBe(false);
      expect(decide(retryClass, 503, "wait_helps")).toBe(true);
      expect(decide(retryClass, 503, "not_in_the_table")).toBe(true);
      expect(decide(retryClass, 503, null)).toBe(true);
      expect(decide(retryClass, 429, "slow_down")).toBe(true);
    },
  );

  it("without a table every retryable status is re-sent, whatever its code", () => {
    const outcome: AttemptOutcome = { kind: "status", statusCode: 503, retryAfterMs: null, code: "no_wait_helps" };
    expect(decideRetry({ retryClass: "safe", outcome, attempt: 1, options }).retry).toBe(true);
  });

  it("a code that arrives with another status than the registry's counts as unknown: the status decides", () => {
    expect(decide("safe", 429, "no_wait_helps")).toBe(true);
    expect(isPermanentCode({ kind: "status", statusCode: 502, retryAfterMs: null, code: "no_wait_helps" }, table)).toBe(
      false,
    );
    expect(isPermanentCode({ kind: "status", statusCode: 503, retryAfterMs: null, code: "no_wait_helps" }, table)).toBe(
      true,
    );
  });

  it("never looks a code up on the prototype chain", () => {
    expect(isPermanentCode({ kind: "status", statusCode: 503, retryAfterMs: null, code: "constructor" }, table)).toBe(
      false,
    );
    expect(isPermanentCode({ kind: "transport", phase: "exchange", timeout: false }, table)).toBe(false);
  });

  it("a transient code does not make a never operation re-send, nor a non-retryable status retried", () => {
    expect(decide("never", 503, "wait_helps")).toBe(false);
    expect(decide("safe", 409, "wait_helps")).toBe(false);
  });
});
