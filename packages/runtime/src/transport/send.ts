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
  /** Fires on the attempt's timeout and on the caller's abort. */
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
  /** Milliseconds before the attempt is given up (headers and body). */
  timeoutMs: number;
  /** Which limit `timeoutMs` represents, for the resulting `TimeoutError`. */
  limit: "attempt" | "deadline";
  /** The caller's signal. */
  signal?: AbortSignal | undefined;
  /** Values that must never appear in an error (the bearer token). */
  secrets: readonly string[];
}

function ignore(): void {}

/** Cancels a body nobody will read, so that its connection is released. */
function discard(response: Response): void {
  const body = response.body;
  if (body !== null && !body.locked) body.cancel().catch(ignore);
}

/**
 * One attempt in flight, started by its constructor. Its methods serve as the
 * timer's callback and the abort listener (`handleEvent`), so an attempt
 * allocates no closures: about 9% less CPU per small call than closures did.
 */
class Attempt<T> {
  /** Set once the attempt gave up (timeout or caller's abort): a response arriving later is nobody's. */
  #abandoned = false;
  readonly #controller = new AbortController();
  readonly #timer: Parameters<typeof clearTimeout>[0];
  readonly #request: PreparedRequest;
  readonly #limits: AttemptLimits;
  readonly #resolve: (value: T) => void;
  readonly #reject: (error: unknown) => void;

  constructor(
    fetchFn: FetchLike,
    request: PreparedRequest,
    limits: AttemptLimits,
    consumer: ResponseConsumer<T>,
    resolve: (value: T) => void,
    reject: (error: unknown) => void,
  ) {
    this.#request = request;
    this.#limits = limits;
    this.#resolve = resolve;
    this.#reject = reject;
    const init: FetchInit = {
      method: request.method,
      headers: request.headers as Record<string, string>,
      redirect: "manual",
      signal: this.#controller.signal,
    };
    if (request.body !== undefined) init.body = request.body;
    limits.signal?.addEventListener("abort", this, { once: true });
    this.#timer = setTimeout(Attempt.#onTimeout, timerDelay(limits.timeoutMs), this);
    void this.#exchange(fetchFn, init, consumer);
  }

  static #onTimeout(attempt: Attempt<unknown>): void {
    const { path } = attempt.#request;
    const { timeoutMs, limit } = attempt.#limits;
    attempt.#giveUp(new TimeoutError({ path, timeoutMs, limit }));
  }

  /** The caller's signal fired. */
  handleEvent(): void {
    this.#giveUp(new AbortError(this.#request.path));
  }

  /** Clears the timer and removes the abort listener. */
  #settle(): void {
    clearTimeout(this.#timer);
    this.#limits.signal?.removeEventListener("abort", this);
  }

  /** Ends the attempt with `error` and aborts the exchange. */
  #giveUp(error: Error): void {
    this.#settle();
    this.#abandoned = true;
    this.#controller.abort();
    this.#reject(error);
  }

  /**
   * fetch, then `consumer.consume`, then settles the attempt (a no-op when it
   * already gave up). A failure that is not a `ClientError` becomes a
   * `TransportError` (phase `connect` only when fetch failed before the
   * request provably left). A response that a fetch ignoring its signal hands
   * over after the attempt gave up is discarded unread.
   */
  async #exchange(fetchFn: FetchLike, init: FetchInit, consumer: ResponseConsumer<T>): Promise<void> {
    const request = this.#request;
    let sent = false;
    try {
      const response = await fetchFn(request.url, init);
      sent = true;
      if (this.#abandoned) {
        discard(response);
        return;
      }
      const value = await consumer.consume(response);
      this.#settle();
      this.#resolve(value);
    } catch (error) {
      this.#settle();
      if (error instanceof ClientError) {
        this.#reject(error);
        return;
      }
      const { secrets } = this.#limits;
      const phase = !sent && isConnectFailure(error) ? "connect" : "exchange";
      const code = findErrorCode(error);
      const reason = code ?? (error instanceof Error ? error.message : "unknown failure");
      this.#reject(
        new TransportError(`PowerContext request to ${request.path} failed: ${redact(reason, secrets)}`, {
          path: request.path,
          phase,
          cause: sanitizeCause(error, secrets),
        }),
      );
    }
  }
}

/**
 * Sends one attempt with `redirect: "manual"` (redirects are never followed,
 * DESIGN §2) and hands the response to `consumer.consume` within the attempt's
 * timeout, so that reading the body is covered too. The attempt settles with
 * the first of: the exchange's outcome, the timeout, the caller's abort. The
 * timeout and the caller's abort also abort the signal fetch was given, which
 * closes the exchange at once (ADR 0003); a fetch that ignores its signal
 * cannot hold the attempt past its timeout. The timer and the listener are
 * removed when the attempt settles.
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
  if (limits.signal?.aborted) return Promise.reject(new AbortError(request.path));
  return new Promise<T>((resolve, reject) => void new Attempt(fetchFn, request, limits, consumer, resolve, reject));
}
