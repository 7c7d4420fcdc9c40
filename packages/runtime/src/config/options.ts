/**
 * The options a client is built with (`ClientOptions`), as a caller writes
 * them; `resolve.ts` checks them and fills the defaults.
 */
import type { BackoffOptions } from "../retry/backoff.js";
import type { RetryBudget, RetryBudgetOptions } from "../retry/budget.js";
import type { RetryEvent } from "../retry/run-with-retry.js";
import type { SpanStarter } from "../telemetry/call-span.js";
import type { FetchLike } from "../transport/fetch-adapter.js";
import type { Transport } from "../transport/port.js";
import type { Middleware } from "./middleware-hooks.js";

/** A logger; every method is optional. Lines never contain the token, headers or bodies. */
export interface Logger {
  /** Detail lines; `fields` holds bounded values such as the operation id and attempt. */
  debug?(message: string, fields?: Record<string, unknown>): void;
  /** Retries and other conditions a caller may want to see. */
  warn?(message: string, fields?: Record<string, unknown>): void;
}

/**
 * What the client asks of an undici dispatcher (`Agent`, `Pool`,
 * `ProxyAgent`, ...): its `request` method. Written out here instead of
 * imported from undici, so the types every entry shares need neither undici
 * nor `@types/node` (a browser app's TypeScript has neither); every undici
 * `Dispatcher` is one.
 */
export interface DispatcherLike {
  /** undici's `Dispatcher.request`; the node entry calls it with `Dispatcher.RequestOptions`. */
  request(options: never, ...rest: never[]): unknown;
}

/** Options of `PowerContextClient` (docs/compatibility.md and the runtime README). Durations are in milliseconds. */
export interface ClientOptions {
  /** Server URL, for example `https://powercontext.example.com` (rules: `normalizeBaseUrl`). */
  baseUrl: string;
  /** Bearer token. Empty or absent: no `Authorization` header. */
  token?: string;
  /** Per-attempt timeout. Default 10 000 ms (the Python client's 10 s). */
  timeoutMs?: number;
  /** Retries after the first attempt, 0-10. Default 2. */
  maxRetries?: number;
  /**
   * Longest `Retry-After` a retry waits for. Default 30 000 ms. A 429 or 503
   * asking for longer is thrown at once (its `retryAfterMs` says how long the
   * server asked for) instead of sleeping.
   */
  maxRetryAfterMs?: number;
  /**
   * Default total budget of one call (every attempt and every wait between
   * them), used when a call passes no `deadlineMs`. Default 120 000 ms, so no
   * call with default options runs longer than two minutes. Asynchronous
   * calls and `waitForOperation` use `operationDeadlineMs` instead.
   */
  deadlineMs?: number;
  /** Backoff between retries: `baseDelayMs` (250), `maxDelayMs` (8 000), `jitter` (`full`). */
  retry?: Partial<BackoffOptions>;
  /**
   * Client-wide retry budget (a token bucket, see `RetryBudget`): each retry
   * spends tokens, each success refunds some, and an empty bucket ends a call
   * with its error instead of retrying. Default on: `{ capacity: 500,
   * retryCost: 5, timeoutRetryCost: 10, successRefund: 1 }`, at most 100
   * retries while every call fails. Pass settings, a `RetryBudget` to share
   * one bucket between clients, or `false` to bound retries by `maxRetries` alone.
   */
  retryBudget?: Partial<RetryBudgetOptions> | RetryBudget | false;
  /**
   * A `fetch` to send requests with (through the fetch adapter). Default: on
   * Node the undici adapter on a shared keep-alive agent, elsewhere the global
   * `fetch`. The client never closes it. At most one of `fetch`,
   * `dispatcher` and `transport`.
   */
  fetch?: FetchLike;
  /**
   * Node only: an undici dispatcher (`Agent`, `Pool`, `ProxyAgent`, ...) to
   * send requests with, through `Dispatcher.request`. Used as given and never
   * closed by the client. The browser entry refuses it.
   */
  dispatcher?: DispatcherLike;
  /** Any implementation of the transport port (`Transport`, see `transport/port.ts`). */
  transport?: Transport;
  /** Accept `http://` to non-loopback hosts; only together with `fetch`, `dispatcher` or `transport` (Python: `trust_transport_security`). */
  trustTransportSecurity?: boolean;
  /** Headers sent with every request; `Authorization` is refused when a token is set. */
  headers?: Record<string, string>;
  /** Cap on a response body. Default 1 MiB. */
  maxResponseBytes?: number;
  /** Default total budget of `waitForOperation` and asynchronous calls. Default 60 000 ms. */
  operationDeadlineMs?: number;
  /** Shortest wait between operation polls, even when Retry-After says less. Default 200 ms. */
  minPollIntervalMs?: number;
  /** Longest wait between operation polls, even when Retry-After says more. Default 5 000 ms. */
  maxPollIntervalMs?: number;
  /** Called before every retry wait. */
  onRetry?: (event: RetryEvent) => void;
  /** Receives a warning line per retry (never the token, headers or bodies). Default: none. */
  logger?: Logger;
  /** Tracing (optional): `openTelemetry({ tracer, propagate })` or any {@link SpanStarter}. */
  telemetry?: SpanStarter;
  /**
   * Hooks around every HTTP attempt (`onRequest` in order, `onResponse` and
   * `onError` in reverse order), run inside the retry loop. Default: none.
   * They never see or set `Authorization`. The logger and tracing are not
   * middleware and run whatever this holds.
   */
  middleware?: readonly Middleware[];
  /** Uniform random source in [0, 1) for jitter; injectable for tests. */
  random?: () => number;
}
