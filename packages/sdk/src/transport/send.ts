import { AbortError, ClientError, TimeoutError, TransportError } from "../errors.js";
import type { PreparedRequest } from "./build-request.js";
import { findErrorCode, isConnectFailure, redact, sanitizeCause } from "./sanitize.js";
import { timerDelay } from "./timer-delay.js";

/** The subset of `RequestInit` the client passes to `fetch`. */
export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  redirect: "manual";
  /**
   * Present when the caller passed a signal for the call, outside Node.js, for
   * a transport with a bounded pool, and on Node.js while an earlier timed-out
   * exchange of the client is still running: it fires on the caller's abort
   * and on the attempt's timeout.
   * Without one, the attempt's timeout does not go through fetch (see
   * {@link sendAttempt}).
   */
  signal?: AbortSignal;
}

/**
 * A `fetch`-compatible function: the global `fetch`, undici's `fetch`, or a
 * test double. The client never closes it or its dispatcher.
 */
export type FetchLike = ((url: string, init: FetchInit) => Promise<Response>) & {
  /**
   * True when the transport limits connections per origin (as
   * `createNodeTransport({ connections })` does): every attempt then hands
   * fetch an AbortSignal, so a timed-out exchange frees its connection at once
   * instead of holding it while later requests queue (ADR 0003).
   */
  readonly boundedPool?: boolean;
};

/** Reads a response within its attempt (body reading is covered by the attempt's timeout). */
export interface ResponseConsumer<T> {
  consume(response: Response): Promise<T>;
}

/** One attempt's limits. */
export interface AttemptLimits {
  /** Milliseconds before the attempt is given up (headers and body). */
  timeoutMs: number;
  /** Which limit `timeoutMs` represents, for the resulting `TimeoutError`. */
  limit: "attempt" | "deadline";
  /** The caller's signal. */
  signal?: AbortSignal | undefined;
  /** Values that must never appear in an error (the bearer token). */
  secrets: readonly string[];
  /** The client's count of exchanges left running after a timeout (see {@link sendAttempt}). */
  exchanges: ExchangeLedger;
}

/**
 * Per-client count of exchanges that timed out without a signal to abort
 * them and have not ended yet. While it is above zero, every attempt hands
 * fetch a signal, so a server that stops answering leaves at most the
 * exchanges that were in flight when it stopped.
 */
export interface ExchangeLedger {
  running: number;
}

/** Creates an empty {@link ExchangeLedger}. */
export function createExchangeLedger(): ExchangeLedger {
  return { running: 0 };
}

const host = globalThis as { process?: { versions?: { node?: unknown } }; navigator?: { userAgent?: unknown } };
const userAgent = host.navigator?.userAgent;

/**
 * True on Node.js, whose fetch (undici) costs about 10% more per request
 * when it is handed an AbortSignal and whose default connection pool has no
 * per-origin limit. Browsers cap connections per origin, so there a timed-out
 * exchange must always be aborted to free its connection.
 *
 * `process.versions.node` alone is not Node.js: an Electron renderer (browser
 * fetch, six connections per host), Bun, Deno and Cloudflare Workers report it
 * too. Node.js has no `navigator` before version 21 and calls itself
 * `Node.js/<major>` from then on; the others name themselves.
 */
const SIGNAL_OPTIONAL =
  typeof host.process?.versions?.node === "string" && (typeof userAgent !== "string" || userAgent.startsWith("Node.js/"));

/** What the attempt's timer needs to release the exchange it gives up on. */
interface AttemptState {
  /** True once the attempt settled by its timeout or the caller's abort: a response arriving later is nobody's. */
  abandoned: boolean;
  /** The response, once fetch has given it. */
  response: Response | undefined;
}

function ignore(): void {}

/** Cancels a body nobody will read, so the connection is released; a body being read (locked) is left to finish. */
function discard(response: Response | undefined): void {
  const body = response?.body;
  if (body !== null && body !== undefined && !body.locked) body.cancel().catch(ignore);
}

function timeoutError(request: PreparedRequest, limits: AttemptLimits): TimeoutError {
  return new TimeoutError({ path: request.path, timeoutMs: limits.timeoutMs, limit: limits.limit });
}

/**
 * fetch, then `consumer.consume`. A failure that is not a `ClientError`
 * becomes a `TransportError` (phase `connect` only when fetch failed before the
 * request provably left). A response that arrives after the attempt settled
 * (timed out, or aborted by the caller while fetch ignored its signal) is
 * discarded unread.
 */
async function exchange<T>(
  fetchFn: FetchLike,
  request: PreparedRequest,
  init: FetchInit,
  limits: AttemptLimits,
  consumer: ResponseConsumer<T>,
  state: AttemptState,
): Promise<T> {
  const { secrets } = limits;
  let sent = false;
  try {
    const response = await fetchFn(request.url, init);
    sent = true;
    if (state.abandoned) {
      discard(response);
      throw timeoutError(request, limits); // the attempt has already settled: this error goes nowhere
    }
    state.response = response;
    return await consumer.consume(response);
  } catch (error) {
    if (error instanceof ClientError) throw error;
    const phase = !sent && isConnectFailure(error) ? "connect" : "exchange";
    const code = findErrorCode(error);
    const reason = code ?? (error instanceof Error ? error.message : "unknown failure");
    throw new TransportError(`PowerContext request to ${request.path} failed: ${redact(reason, secrets)}`, {
      path: request.path,
      phase,
      cause: sanitizeCause(error, secrets),
    });
  }
}

/**
 * Sends one attempt with `redirect: "manual"` (redirects are never followed,
 * DESIGN §2) and hands the response to `consumer.consume` within the attempt's
 * timeout, so that reading the body is covered too. The attempt settles with
 * the first of: the exchange's outcome, the timeout, the caller's abort.
 * Timers and listeners are removed when it settles.
 *
 * When fetch gets an AbortSignal (ADR 0003): it fires on the caller's abort
 * and on the timeout, and tears the exchange down. fetch gets one when the
 * caller passed a signal, outside Node.js, when `fetchFn.boundedPool` is
 * true, and on Node.js while `limits.exchanges` counts an earlier timed-out
 * exchange still running.
 * Otherwise (the common case on Node.js, where a signal costs about 10% of
 * throughput) a timed-out exchange is left to end by itself and released as
 * soon as possible: a response arriving later has its body cancelled unread,
 * a body already being read is left to finish under the transport's own
 * timeouts.
 *
 * @throws AbortError when the caller's signal fires;
 *   TimeoutError when `timeoutMs` passes;
 *   TransportError (phase `connect` when the request provably never left) for
 *   any other failure of `fetch` or of reading the body;
 *   whatever `ClientError` `consumer.consume` throws, unchanged.
 */
export function sendAttempt<T>(
  fetchFn: FetchLike,
  request: PreparedRequest,
  limits: AttemptLimits,
  consumer: ResponseConsumer<T>,
): Promise<T> {
  const { signal } = limits;
  if (signal?.aborted) return Promise.reject(new AbortError(request.path));
  const init: FetchInit = { method: request.method, headers: request.headers as Record<string, string>, redirect: "manual" };
  if (request.body !== undefined) init.body = request.body;
  const state: AttemptState = { abandoned: false, response: undefined };
  const { exchanges } = limits;
  return new Promise<T>((resolve, reject) => {
    // Everything that could throw runs before the timer is armed, so a throw
    // rejects this promise and leaves no timer behind to fail later.
    const signalled = signal !== undefined || !SIGNAL_OPTIONAL || fetchFn.boundedPool === true || exchanges.running > 0;
    const controller = signalled ? new AbortController() : undefined;
    if (controller !== undefined) init.signal = controller.signal;
    const settle = (): void => {
      clearTimeout(timer);
      if (signal !== undefined) signal.removeEventListener("abort", onAbort);
    };
    const onAbort = (): void => {
      settle();
      state.abandoned = true;
      controller?.abort();
      reject(new AbortError(request.path));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    const timer = setTimeout(() => {
      settle();
      state.abandoned = true;
      if (controller === undefined) {
        // Nothing can abort this exchange: count it until it ends.
        exchanges.running += 1;
        outcome.finally(() => (exchanges.running -= 1)).catch(ignore);
      } else {
        controller.abort();
      }
      discard(state.response);
      reject(timeoutError(request, limits));
    }, timerDelay(limits.timeoutMs));
    const outcome = exchange(fetchFn, request, init, limits, consumer, state);
    outcome.then(
      (value) => {
        settle();
        resolve(value);
      },
      (error: unknown) => {
        settle();
        reject(error);
      },
    );
  });
}
