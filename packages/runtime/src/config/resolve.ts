/**
 * A client's options checked and completed (`resolveConfig`): every bad
 * argument fails here, before any request.
 */
import { ConfigurationError } from "../errors.js";
import { DEFAULT_BACKOFF, type Jitter } from "../retry/backoff.js";
import { RetryBudget } from "../retry/budget.js";
import type { RetryOptions } from "../retry/policy.js";
import type { RetryEvent } from "../retry/run-with-retry.js";
import type { SpanStarter } from "../telemetry/call-span.js";
import { headerFieldProblem, tokenProblem } from "../transport/header-field.js";
import { secretsOf } from "../transport/sanitize.js";
import type { Transport } from "../transport/port.js";
import { DEFAULT_MAX_RESPONSE_BYTES } from "../transport/read-body.js";
import { normalizeBaseUrl } from "../transport/url.js";
import type { Middleware } from "./middleware-hooks.js";
import { numberOption } from "../number-option.js";
import type { ClientOptions, Logger } from "./options.js";
import { FETCH_PLATFORM, transportOf, type Platform } from "./platform.js";

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
