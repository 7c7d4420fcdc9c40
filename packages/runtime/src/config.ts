import { ConfigurationError } from "./errors.js";
import { DEFAULT_BACKOFF, type BackoffOptions, type Jitter } from "./retry/backoff.js";
import type { RetryOptions } from "./retry/policy.js";
import type { RetryEvent } from "./retry/run-with-retry.js";
import type { SpanStarter } from "./telemetry/call-span.js";
import { DEFAULT_MAX_RESPONSE_BYTES } from "./transport/read-body.js";
import type { FetchLike } from "./transport/send.js";
import { AUTHORIZATION_FROM_TOKEN } from "./transport/build-request.js";
import { normalizeBaseUrl } from "./transport/url.js";

/** A logger; every method is optional. Lines never contain the token, headers or bodies. */
export interface Logger {
  debug?(message: string, fields?: Record<string, unknown>): void;
  warn?(message: string, fields?: Record<string, unknown>): void;
}

/** Options of `PowerContextClient` (DESIGN §2, §4). Durations are in milliseconds. */
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
  /** Transport. Default: the global `fetch`. The client never closes it. */
  fetch?: FetchLike;
  /** Accept `http://` to non-loopback hosts; only together with `fetch` (Python: `trust_transport_security`). */
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
  logger?: Logger;
  /** Tracing (optional): `openTelemetry({ tracer, propagate })` or any {@link SpanStarter}. */
  telemetry?: SpanStarter;
  /** Uniform random source in [0, 1) for jitter; injectable for tests. */
  random?: () => number;
}

/** Options after validation and defaults. */
export interface ResolvedConfig {
  baseUrl: string;
  token: string;
  timeoutMs: number;
  /** Default total budget of a plain call, in ms. */
  deadlineMs: number;
  retry: RetryOptions & { maxRetryAfterMs: number };
  fetch: FetchLike;
  headers: Record<string, string>;
  maxResponseBytes: number;
  operationDeadlineMs: number;
  minPollIntervalMs: number;
  maxPollIntervalMs: number;
  onRetry: ((event: RetryEvent) => void) | undefined;
  logger: Logger | undefined;
  telemetry: SpanStarter | undefined;
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

/**
 * Returns `value`, or `fallback` when it is undefined.
 *
 * @throws ConfigurationError naming the option unless `value` is a finite number
 *   that is at least 0 (above 0 when `strict`).
 */
function numberOption(name: string, value: unknown, fallback: number, strict: boolean): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || (strict && value === 0)) {
    throw new ConfigurationError(`${name} must be a ${strict ? "positive" : "non-negative"} finite number of milliseconds`);
  }
  return value;
}

const JITTERS: readonly Jitter[] = ["full", "equal", "none"];

/**
 * Validates options and fills defaults; a bad argument fails here, before any request.
 *
 * @throws ConfigurationError naming the offending option (never its value when it may be secret).
 */
export function resolveConfig(options: ClientOptions): ResolvedConfig {
  if (typeof options !== "object" || options === null) throw new ConfigurationError("options are required");
  const token = options.token ?? "";
  if (typeof token !== "string" || /[\r\n]/.test(token)) throw new ConfigurationError("token must be a single-line string");
  const fetchFn = options.fetch ?? (globalThis.fetch as FetchLike | undefined);
  if (typeof fetchFn !== "function") throw new ConfigurationError("fetch must be a function");
  const baseUrl = normalizeBaseUrl(options.baseUrl, {
    trustTransportSecurity: options.trustTransportSecurity === true,
    customTransport: options.fetch !== undefined,
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
    if (name.toLowerCase() === "authorization" && token !== "") {
      throw new ConfigurationError(AUTHORIZATION_FROM_TOKEN);
    }
    if (typeof value !== "string") throw new ConfigurationError(`header ${name} must be a string`);
    headers[name] = value;
  }
  if (options.telemetry !== undefined && typeof options.telemetry !== "function") {
    throw new ConfigurationError("telemetry must be a function");
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
    fetch: fetchFn,
    headers,
    onRetry: options.onRetry,
    logger: options.logger,
    telemetry: options.telemetry,
    random: options.random ?? Math.random,
    secrets: token === "" ? [] : [token, `Bearer ${token}`],
  };
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
export const ENV_API_TOKEN = "POWERCONTEXT_CLIENT_API_TOKEN";
export const ENV_TIMEOUT = "POWERCONTEXT_CLIENT_TIMEOUT";

/**
 * Reads client options from the environment like the Python client:
 * `POWERCONTEXT_CLIENT_SERVER_URL` (unset or blank: {@link DEFAULT_SERVER_URL},
 * `http://127.0.0.1:8000`, as in Python), `POWERCONTEXT_CLIENT_API_TOKEN`
 * (optional), `POWERCONTEXT_CLIENT_TIMEOUT` (optional, in seconds, may be
 * fractional; converted by {@link parseSecondsToMs}, so rounded up to whole
 * milliseconds). `overrides` win over the environment.
 *
 * @param env defaults to `process.env` where it exists (an empty object in browsers).
 * @throws ConfigurationError when the timeout is not a positive number.
 */
export function optionsFromEnv(
  env: Record<string, string | undefined> = (globalThis as { process?: { env?: Record<string, string | undefined> } })
    .process?.env ?? {},
  overrides: Partial<ClientOptions> = {},
): ClientOptions {
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
