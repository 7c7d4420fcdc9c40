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

/** Reads a response within its attempt (body reading is covered by the attempt's timeout). */
export interface ResponseConsumer<T> {
  consume(response: Response): Promise<T>;
}

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

function abortOnTimeout(controller: AbortController): void {
  controller.abort();
}

/**
 * Sends one attempt with `redirect: "manual"` (redirects are never followed,
 * DESIGN §2) and hands the response to `consumer.consume` while the attempt's timer and
 * abort link are still armed, so that reading the body is covered too. The
 * timer and the listener are always removed before this returns.
 *
 * @throws AbortError when the caller's signal fires;
 *   TimeoutError when `timeoutMs` passes;
 *   TransportError (phase `connect` when the request provably never left) for
 *   any other failure of `fetch` or of reading the body;
 *   whatever `ClientError` `consumer.consume` throws, unchanged.
 */
export async function sendAttempt<T>(
  fetchFn: FetchLike,
  request: PreparedRequest,
  limits: AttemptLimits,
  consumer: ResponseConsumer<T>,
): Promise<T> {
  const { signal } = limits;
  if (signal?.aborted) throw new AbortError(request.path);
  // One controller per attempt: fetch needs a signal it can be aborted with.
  // The timer callback is shared; a listener on the caller's signal is created
  // only when the caller passed one.
  const controller = new AbortController();
  const timer = setTimeout(abortOnTimeout, limits.timeoutMs, controller);
  let onAbort: (() => void) | undefined;
  if (signal !== undefined) {
    onAbort = () => controller.abort();
    signal.addEventListener("abort", onAbort, { once: true });
  }
  let sent = false;
  try {
    const init: FetchInit = { method: request.method, headers: request.headers, redirect: "manual", signal: controller.signal };
    if (request.body !== undefined) init.body = request.body;
    const response = await fetchFn(request.url, init);
    sent = true;
    return await consumer.consume(response);
  } catch (error) {
    if (signal?.aborted) throw new AbortError(request.path);
    // Only the timer and the caller's signal abort the controller; the caller was checked first.
    if (controller.signal.aborted) {
      throw new TimeoutError({ path: request.path, timeoutMs: limits.timeoutMs, limit: limits.limit });
    }
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
    if (onAbort !== undefined) signal?.removeEventListener("abort", onAbort);
  }
}
