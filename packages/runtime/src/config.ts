import { ConfigurationError } from "./errors.js";
import { DEFAULT_BACKOFF, type BackoffOptions, type Jitter } from "./retry/backoff.js";
import { RetryBudget, type RetryBudgetOptions } from "./retry/budget.js";
import type { RetryOptions } from "./retry/policy.js";
import type { RetryEvent } from "./retry/run-with-retry.js";
import type { Middleware } from "./core/middleware.js";
import type { SpanStarter } from "./telemetry/call-span.js";
import { DEFAULT_MAX_RESPONSE_BYTES } from "./transport/read-body.js";
import { fetchTransport, type FetchLike } from "./transport/fetch-adapter.js";
import type { Transport } from "./transport/port.js";
import { globalFetchTransport } from "./transport/global-fetch.js";
import { processEnv, readableEnv } from "./env-access.js";
import { headerFieldProblem, tokenProblem } from "./transport/header-field.js";
import { secretsOf } from "./transport/sanitize.js";
import { numberOption } from "./number-option.js";
import { normalizeBaseUrl } from "./transport/url.js";

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

/** Options after validation and defaults. */
export interface ResolvedConfig {
  /** The normalised base URL, without a trailing slash. */
  baseUrl: string;
  /** The bearer token; empty when none. */
  token: string;
  /** Per-attempt timeout in milliseconds. */
  timeoutMs: number;
  /** Default total budget of a plain call, in ms. */
  deadlineMs: number;
  /** Retry count, backoff and the cap on a server-requested wait. */
  retry: RetryOptions & {
    /** The longest `Retry-After` a retry waits for, in ms; a longer one surfaces the error. */
    maxRetryAfterMs: number;
  };
  /** The client's retry budget; null when disabled. */
  retryBudget: RetryBudget | null;
  /** Where requests go: the port every attempt is sent through. */
  transport: Transport;
  /** Headers sent with every request. */
  headers: Record<string, string>;
  /** Cap on a response body, in bytes. */
  maxResponseBytes: number;
  /** Default total budget of polling, in milliseconds. */
  operationDeadlineMs: number;
  /** Shortest wait between polls, in milliseconds. */
  minPollIntervalMs: number;
  /** Longest wait between polls, in milliseconds. */
  maxPollIntervalMs: number;
  /** Called before every retry wait. */
  onRetry: ((event: RetryEvent) => void) | undefined;
  /** The logger, if any. */
  logger: Logger | undefined;
  /** Tracing, if any. */
  telemetry: SpanStarter | undefined;
  /** The middleware, in the order given (empty when none). */
  middleware: readonly Middleware[];
  /** Random source for jitter. */
  random: () => number;
  /** Values that must never appear in an error or log (the token). */
  secrets: readonly string[];
}

/** Duration options that must be positive, with their defaults (ms). */
const POSITIVE_DEFAULTS = {
  timeoutMs: 10_000,
  deadlineMs: 120_000,
  maxRetryAfterMs: 30_000,
  maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
  operationDeadlineMs: 60_000,
  minPollIntervalMs: 200,
  maxPollIntervalMs: 5000,
} as const;

const JITTERS: readonly Jitter[] = ["full", "equal", "none"];

/** The budget named by the `retryBudget` option. @throws ConfigurationError for a bad setting. */
function retryBudgetOf(option: ClientOptions["retryBudget"]): RetryBudget | null {
  if (option === false) return null;
  if (option instanceof RetryBudget) return option;
  if (option !== undefined && (typeof option !== "object" || option === null)) {
    throw new ConfigurationError("retryBudget must be settings, a RetryBudget or false");
  }
  return new RetryBudget(option);
}

/** What differs between the runtime's entries: the default transport, and whether a dispatcher can be used. */
export interface Platform {
  /** The transport of a client that names none; undefined when there is none (no global fetch). */
  defaultTransport(): Transport | undefined;
  /**
   * Wraps a caller's undici dispatcher; absent where undici is not available (browsers).
   * @throws ConfigurationError when it is no dispatcher (it has no `request` method).
   */
  dispatcherTransport?: (dispatcher: DispatcherLike) => Transport;
}

/** The browser entry's platform (also Deno's, Bun's and Workers'): the global `fetch`, no dispatcher. */
export const FETCH_PLATFORM: Platform = { defaultTransport: globalFetchTransport };

/** The transport named by the options, or the platform's default. @throws ConfigurationError */
function transportOf(options: ClientOptions, platform: Platform): Transport {
  const given = [options.fetch, options.dispatcher, options.transport].filter((value) => value !== undefined).length;
  if (given > 1) throw new ConfigurationError("pass at most one of fetch, dispatcher and transport");
  if (options.fetch !== undefined) {
    if (typeof options.fetch !== "function") throw new ConfigurationError("fetch must be a function");
    return fetchTransport(options.fetch);
  }
  if (options.dispatcher !== undefined) {
    if (platform.dispatcherTransport === undefined)
      throw new ConfigurationError("dispatcher needs Node (the runtime's node entry)");
    return platform.dispatcherTransport(options.dispatcher);
  }
  if (options.transport !== undefined) {
    if (typeof (options.transport as { send?: unknown } | null)?.send !== "function") {
      throw new ConfigurationError("transport must have a send function");
    }
    return options.transport;
  }
  const transport = platform.defaultTransport();
  if (transport === undefined) throw new ConfigurationError("no global fetch: pass fetch, dispatcher or transport");
  return transport;
}

/**
 * Validates options and fills defaults; a bad argument fails here, before any request.
 *
 * @param platform the entry's defaults (`FETCH_PLATFORM` in browsers; the node entry passes the undici one).
 * @throws ConfigurationError naming the offending option (never its value when it may be secret).
 */
export function resolveConfig(options: ClientOptions, platform: Platform = FETCH_PLATFORM): ResolvedConfig {
  if (typeof options !== "object" || options === null) throw new ConfigurationError("options are required");
  const token = options.token ?? "";
  if (typeof token !== "string") throw new ConfigurationError("token must be a string");
  const problem = tokenProblem(token);
  if (problem !== null) throw new ConfigurationError(`token ${problem} (the token is not shown)`);
  const transport = transportOf(options, platform);
  const baseUrl = normalizeBaseUrl(options.baseUrl, {
    trustTransportSecurity: options.trustTransportSecurity === true,
    customTransport: options.fetch !== undefined || options.dispatcher !== undefined || options.transport !== undefined,
  });
  const maxRetries = options.maxRetries ?? 2;
  if (!Number.isInteger(maxRetries) || maxRetries < 0 || maxRetries > 10) {
    throw new ConfigurationError("maxRetries must be an integer from 0 to 10");
  }
  const retry = options.retry ?? {};
  const jitter = retry.jitter ?? DEFAULT_BACKOFF.jitter;
  if (!JITTERS.includes(jitter)) throw new ConfigurationError(`retry.jitter must be one of ${JITTERS.join(", ")}`);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    const problem = headerFieldProblem(name, value, token);
    if (problem !== null) throw new ConfigurationError(problem);
    headers[name] = value as string;
  }
  if (options.telemetry !== undefined && typeof options.telemetry !== "function") {
    throw new ConfigurationError("telemetry must be a function");
  }
  const middleware = [...(options.middleware ?? [])];
  if (middleware.some((entry) => typeof entry !== "object" || entry === null)) {
    throw new ConfigurationError("middleware must be an array of objects with onRequest, onResponse or onError hooks");
  }
  const durations = { ...POSITIVE_DEFAULTS } as Record<keyof typeof POSITIVE_DEFAULTS, number>;
  for (const name of Object.keys(durations) as (keyof typeof POSITIVE_DEFAULTS)[]) {
    durations[name] = numberOption(name, options[name], durations[name], true);
  }
  if (durations.maxPollIntervalMs < durations.minPollIntervalMs) {
    throw new ConfigurationError("maxPollIntervalMs must be >= minPollIntervalMs");
  }
  const { maxRetryAfterMs, ...limits } = durations;
  return {
    ...limits,
    baseUrl,
    token,
    retry: {
      maxRetries,
      maxRetryAfterMs,
      baseDelayMs: numberOption("retry.baseDelayMs", retry.baseDelayMs, DEFAULT_BACKOFF.baseDelayMs, false),
      maxDelayMs: numberOption("retry.maxDelayMs", retry.maxDelayMs, DEFAULT_BACKOFF.maxDelayMs, false),
      jitter,
    },
    retryBudget: retryBudgetOf(options.retryBudget),
    transport,
    headers,
    onRetry: options.onRetry,
    logger: options.logger,
    telemetry: options.telemetry,
    middleware,
    random: options.random ?? Math.random,
    secrets: secretsOf(token),
  };
}

/**
 * Makes `token` and `secrets` non-enumerable on a resolved configuration or a
 * runtime built from one, so logging, inspecting (`util.inspect`) or serialising
 * it (`JSON.stringify`, `Object.entries`), or a client that holds it, shows
 * neither; code that names them still reads them. Returns `value`.
 */
export function hideSecrets<T extends ResolvedConfig>(value: T): T {
  for (const key of ["token", "secrets"] as const)
    Object.defineProperty(value, key, { value: value[key], enumerable: false });
  return value;
}

/**
 * Converts a positive number of seconds written as text (the unit of
 * `POWERCONTEXT_CLIENT_TIMEOUT` and of the Python client) to milliseconds.
 * Surrounding whitespace is ignored; fractions and exponents are allowed
 * (`"2.5"`, `"0.0005"`, `"1e-3"`).
 *
 * Rounding: the result is rounded up to a whole number of milliseconds, so a
 * tiny positive value becomes 1 ms, never 0, and a timeout is never shorter
 * than asked. The product is first rounded to 15 significant digits so that
 * binary floating-point noise does not add a millisecond (`"2.007"` is
 * 2007 ms, not 2008).
 *
 * @param text the number of seconds, for example `"2.5"`.
 * @param setting the name of the setting the text came from, used in the error message.
 * @returns whole milliseconds, at least 1.
 * @throws ConfigurationError naming `setting` (not the text) when the text is
 *   empty, not a number, not finite, or not above 0.
 */
export function parseSecondsToMs(text: string, setting: string): number {
  const trimmed = text.trim();
  const seconds = Number(trimmed);
  if (trimmed === "" || !Number.isFinite(seconds) || seconds <= 0) {
    throw new ConfigurationError(`${setting} must be a positive number of seconds`);
  }
  return Math.ceil(Number((seconds * 1000).toPrecision(15)));
}

/** Server URL used when the environment names none: the Python client's default. */
export const DEFAULT_SERVER_URL = "http://127.0.0.1:8000";

/** Environment variables read by {@link optionsFromEnv} (the Python client's names). */
export const ENV_SERVER_URL = "POWERCONTEXT_CLIENT_SERVER_URL";
/** Environment variable with the bearer token. */
export const ENV_API_TOKEN = "POWERCONTEXT_CLIENT_API_TOKEN";
/** Environment variable with the per-attempt timeout, in seconds. */
export const ENV_TIMEOUT = "POWERCONTEXT_CLIENT_TIMEOUT";

/**
 * Reads client options from the environment like the Python client:
 * `POWERCONTEXT_CLIENT_SERVER_URL` (unset or blank: {@link DEFAULT_SERVER_URL},
 * `http://127.0.0.1:8000`, as in Python), `POWERCONTEXT_CLIENT_API_TOKEN`
 * (optional), `POWERCONTEXT_CLIENT_TIMEOUT` (optional, in seconds, may be
 * fractional; converted by {@link parseSecondsToMs}, so rounded up to whole
 * milliseconds). `overrides` win over the environment.
 *
 * @param env defaults to `process.env` where it exists (an empty object in
 *   browsers); on Workers, pass the Worker's `env` (`process.env` needs
 *   `nodejs_compat` there).
 * @throws ConfigurationError when the timeout is not a positive number, or
 *   when the environment cannot be read (Deno without `--allow-env`, a Worker
 *   without `nodejs_compat` and no `env` passed): its message says what to do.
 */
export function optionsFromEnv(
  env: Record<string, string | undefined> = processEnv(),
  overrides: Partial<ClientOptions> = {},
): ClientOptions {
  return optionsFrom(readableEnv(env, [ENV_SERVER_URL, ENV_API_TOKEN, ENV_TIMEOUT]), overrides);
}

function optionsFrom(env: Record<string, string | undefined>, overrides: Partial<ClientOptions>): ClientOptions {
  const fromEnv = env[ENV_SERVER_URL]?.trim();
  const baseUrl = overrides.baseUrl ?? (fromEnv === undefined || fromEnv === "" ? DEFAULT_SERVER_URL : fromEnv);
  const options: ClientOptions = { ...overrides, baseUrl };
  const token = env[ENV_API_TOKEN];
  if (overrides.token === undefined && token !== undefined) options.token = token.trim();
  const timeout = env[ENV_TIMEOUT]?.trim();
  if (overrides.timeoutMs === undefined && timeout !== undefined && timeout !== "") {
    options.timeoutMs = parseSecondsToMs(timeout, ENV_TIMEOUT);
  }
  return options;
}
