/**
 * What every check of the runtime conformance suite shares: the fault
 * front's control calls, a small assertion, and how one check is run and
 * recorded. Runtime-neutral: only `fetch`, `URL` and `AbortController`.
 */
import type { FaultStep } from "../fault-server.js";

/** One check's verdict. */
export interface CheckResult {
  /** The check's name, the same on every runtime. */
  readonly name: string;
  /** `pass`, `fail`, or `n/a` where the runtime has no such thing (said in `detail`). */
  readonly status: "pass" | "fail" | "n/a";
  /** Why it failed, or why it does not apply. */
  readonly detail: string;
}

/** What a check is handed. */
export interface SuiteContext {
  /** The fault front (forwards to the mock). */
  readonly url: string;
  /** A loopback URL where nothing listens (a refused connection). */
  readonly refusedUrl: string;
  /** The runtime's name, as the harness calls it (`node`, `deno`, `bun`, `workerd`). */
  readonly runtime: string;
}

/** Thrown by a check that does not apply to the runtime; recorded as `n/a`. */
export class NotApplicable extends Error {}

/** A failed expectation; its message is the check's detail. */
export class CheckFailure extends Error {}

/** Fails the check with `message` unless `condition` holds. */
export function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailure(message);
}

/** The next requests of `route` (`"POST /v1/memory/remember"`) meet `steps`; its counters restart. */
export async function script(context: SuiteContext, route: string, steps: readonly FaultStep[]): Promise<void> {
  const answer = await fetch(`${context.url}/__conformance/script`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ route, steps }),
  });
  expect(answer.ok, `the front refused the script of ${route}: ${answer.status}`);
  await answer.arrayBuffer();
}

/** What the front saw of `route` since its script. */
export interface Arrivals {
  /** Requests read in full. */
  readonly arrivals: number;
  /** Requests that reached the mock (took effect). */
  readonly forwarded: number;
  /** The `traceparent` and `idempotency-key` headers of each arrival. */
  readonly headers: ReadonlyArray<Record<string, string | null>>;
}

/** The counters of `route`. */
export async function arrivals(context: SuiteContext, route: string): Promise<Arrivals> {
  const answer = await fetch(`${context.url}/__conformance/arrivals?route=${encodeURIComponent(route)}`);
  return (await answer.json()) as Arrivals;
}

/** A short, token-free description of what a check caught. */
export function describe(error: unknown): string {
  if (error instanceof Error) {
    const extra = ["phase", "statusCode", "code"]
      .map((key) => [key, (error as unknown as Record<string, unknown>)[key]] as const)
      .filter(([, value]) => value !== undefined && value !== null)
      .map(([key, value]) => `${key}=${String(value)}`);
    return `${error.name}: ${error.message}${extra.length > 0 ? ` (${extra.join(", ")})` : ""}`;
  }
  return String(error);
}

/** Runs `body` for `what` and expects it to reject; returns the rejection. */
export async function rejection(what: string, body: () => Promise<unknown>): Promise<unknown> {
  try {
    const value = await body();
    throw new CheckFailure(`${what} resolved (${JSON.stringify(value)?.slice(0, 120)}) where it should have failed`);
  } catch (error) {
    if (error instanceof CheckFailure) throw error;
    return error;
  }
}

/** One named check. */
export interface Check {
  readonly name: string;
  run(context: SuiteContext): Promise<void>;
}

/** The most a single check may take, in ms: a hung check fails instead of hanging the lane. */
const CHECK_LIMIT_MS = 20_000;

/** Runs `checks` one after another and records each verdict; never throws. */
export async function runChecks(checks: readonly Check[], context: SuiteContext): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of checks) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new CheckFailure(`no verdict within ${CHECK_LIMIT_MS} ms`)), CHECK_LIMIT_MS);
    });
    try {
      await Promise.race([check.run(context), limit]);
      results.push({ name: check.name, status: "pass", detail: "" });
    } catch (error) {
      results.push(
        error instanceof NotApplicable
          ? { name: check.name, status: "n/a", detail: error.message }
          : { name: check.name, status: "fail", detail: describe(error) },
      );
    } finally {
      clearTimeout(timer);
    }
  }
  return results;
}
