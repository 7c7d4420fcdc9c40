import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "../../src/retry/retry-after.js";
import { backoffDelay } from "../../src/retry/backoff.js";
import { decideRetry } from "../../src/retry/policy.js";

const NOW = Date.parse("2026-11-30T12:00:00Z");

describe("parseRetryAfter", () => {
  it.each([
    ["3", 3000],
    ["0", 0],
    [" 12 ", 12000],
    ["Mon, 30 Nov 2026 12:00:05 GMT", 5000],
    ["Mon, 30 Nov 2026 11:59:00 GMT", 0],
    ["Thu, 01 Jan 1970 00:00:00 GMT", 0],
    // The two obsolete forms RFC 9110 requires a recipient to accept.
    ["Monday, 30-Nov-26 12:00:05 GMT", 5000],
    ["Mon Nov 30 12:00:07 2026", 7000],
    ["Tue Dec  1 12:00:00 2026", 86_400_000],
  ])("%s -> %d ms", (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms);
  });

  it.each([
    null,
    undefined,
    "",
    "soon",
    "-1",
    "1.5",
    "NaN",
    "Mon, 99 Foo 2026 GMT",
    "2026-11-30T12:00:05Z",
    "Mon, 31 Feb 2026 12:00:05 GMT",
    "Mon, 30 Nov 2026 12:00:05 UTC",
    "Mon Nov 30 12:00:07 2026 GMT",
  ])("%s -> null (backoff applies)", (value) => {
    expect(parseRetryAfter(value, NOW)).toBeNull();
  });

  it("caps absurd values at one day", () => {
    expect(parseRetryAfter("999999999", NOW)).toBe(86_400_000);
  });

  it("feeds the policy: Retry-After wins over backoff, garbage falls back to backoff", () => {
    const options = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1000, jitter: "none" as const };
    const withHeader = decideRetry({
      retryClass: "safe",
      attempt: 1,
      options,
      outcome: { kind: "status", statusCode: 429, retryAfterMs: parseRetryAfter("2", NOW) },
    });
    expect(withHeader).toEqual({ retry: true, delayMs: 2000, reason: "status_429" });
    const withGarbage = decideRetry({
      retryClass: "safe",
      attempt: 2,
      options,
      outcome: { kind: "status", statusCode: 503, retryAfterMs: parseRetryAfter("later", NOW) },
    });
    expect(withGarbage).toEqual({ retry: true, delayMs: 200, reason: "status_503" });
  });
});

describe("backoffDelay", () => {
  const options = { baseDelayMs: 100, maxDelayMs: 1000, jitter: "none" as const };
  it("doubles and caps", () => {
    expect([1, 2, 3, 4, 5, 6].map((retry) => backoffDelay(retry, options))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });
  it("full jitter draws from [0, d)", () => {
    expect(backoffDelay(3, { ...options, jitter: "full" }, () => 0)).toBe(0);
    expect(backoffDelay(3, { ...options, jitter: "full" }, () => 0.5)).toBe(200);
  });
  it("equal jitter draws from [d/2, d)", () => {
    expect(backoffDelay(3, { ...options, jitter: "equal" }, () => 0)).toBe(200);
    expect(backoffDelay(3, { ...options, jitter: "equal" }, () => 0.99)).toBe(398);
  });
});
