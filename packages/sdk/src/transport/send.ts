import { AbortError, ClientError, TimeoutError, TransportError } from "../errors.js";
import type { PreparedRequest } from "./build-request.js";
import { findErrorCode, isConnectFailure, redact, sanitizeCause } from "./sanitize.js";

/** The subset of `RequestInit` the client passes to `fetch`. */
export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  redirect: "manual";
  signal: AbortSignal;
}

/**
 * A `fetch`-compatible function: the global `fetch`, undici's `fetch`, or a
 * test double. The client never closes it or its dispatcher.
 */
export type FetchLike = (url: string, init: FetchInit) => Promise<Response>;

/** One attempt's limits. */
export interface AttemptLimits {
  /** Milliseconds before the attempt is aborted (headers and body). */
  timeoutMs: number;
  /** Which limit `timeoutMs` represents, for the resulting `TimeoutError`. */
  limit: "attempt" | "deadline";
  /** The caller's signal. */
  signal?: AbortSignal | undefined;
  /** Values that must never appear in an error (the bearer token). */
  secrets: readonly string[];
}

/**
 * Sends one attempt with `redirect: "manual"` (redirects are never followed,
 * DESIGN §2) and hands the response to `consume` while the attempt's timer and
 * abort link are still armed, so that reading the body is covered too. The
 * timer and the listener are always removed before this returns.
 *
 * @throws AbortError when the caller's signal fires;
 *   TimeoutError when `timeoutMs` passes;
 *   TransportError (phase `connect` when the request provably never left) for
 *   any other failure of `fetch` or of reading the body;
 *   whatever `ClientError` `consume` throws, unchanged.
 */
export async function sendAttempt<T>(
  fetchFn: FetchLike,
  request: PreparedRequest,
  limits: AttemptLimits,
  consume: (response: Response) => Promise<T>,
): Promise<T> {
  const { signal } = limits;
  if (signal?.aborted) throw new AbortError(request.path);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, Math.max(0, limits.timeoutMs));
  const onAbort = (): void => controller.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  let sent = false;
  try {
    const init: FetchInit = {
      method: request.method,
      headers: request.headers as Record<string, string>,
      redirect: "manual",
      signal: controller.signal,
    };
    if (request.body !== undefined) init.body = request.body;
    const response = await fetchFn(request.url, init);
    sent = true;
    return await consume(response);
  } catch (error) {
    if (signal?.aborted) throw new AbortError(request.path);
    if (timedOut) throw new TimeoutError({ path: request.path, timeoutMs: limits.timeoutMs, limit: limits.limit });
    if (error instanceof ClientError) throw error;
    const phase = !sent && isConnectFailure(error) ? "connect" : "exchange";
    const code = findErrorCode(error);
    const reason = code ?? (error instanceof Error ? error.message : "unknown failure");
    throw new TransportError(`PowerContext request to ${request.path} failed: ${redact(reason, limits.secrets)}`, {
      path: request.path,
      phase,
      cause: sanitizeCause(error, limits.secrets),
    });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}
