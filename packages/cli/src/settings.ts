/**
 * Connection settings of one CLI run: command-line flags first, then the
 * environment variables the SDK reads (`optionsFromEnv`, DESIGN §2).
 *
 * | setting | flag | environment | default |
 * | --- | --- | --- | --- |
 * | server URL | `--server-url` | `POWERCONTEXT_CLIENT_SERVER_URL` | `http://127.0.0.1:8000` (as the Python CLI) |
 * | per-request timeout | `--timeout <seconds>` | `POWERCONTEXT_CLIENT_TIMEOUT` (seconds) | the SDK's 10 s |
 * | bearer token | none, on purpose | `POWERCONTEXT_CLIENT_API_TOKEN` | no token (no header) |
 *
 * The token has no flag so that it never shows up in `ps`, shell history or CI
 * logs of the command line.
 */
import { ENV_API_TOKEN, ENV_SERVER_URL, optionsFromEnv, type ClientOptions } from "@powercontext/sdk";
import { UsageError } from "./errors.js";

/** Server used when neither `--server-url` nor the environment names one (the Python CLI's default). */
export const DEFAULT_SERVER_URL = "http://127.0.0.1:8000";

/** Global options as commander hands them over. */
export interface GlobalOptions {
  serverUrl?: string;
  /** Per-request timeout in seconds (already validated as a positive number). */
  timeout?: number;
  json?: boolean;
}

/**
 * Parses a positive number of seconds (the `--timeout` flag).
 *
 * @returns seconds, a finite number greater than zero.
 * @throws UsageError naming `source` when the text is not such a number.
 */
export function parseSeconds(text: string, source: string): number {
  const value = Number(text.trim());
  if (text.trim() === "" || !Number.isFinite(value) || value <= 0) {
    throw new UsageError(`${source} must be a positive number of seconds, got '${text}'`);
  }
  return value;
}

/**
 * Combines flags and environment into SDK client options.
 *
 * @param options parsed global options.
 * @param env the process environment.
 * @returns options for `new PowerContextClient(...)`.
 * @throws ConfigurationError (from the SDK) when `POWERCONTEXT_CLIENT_TIMEOUT`
 *   is set but is not a positive number; the CLI reports it as bad usage.
 */
export function resolveClientOptions(
  options: GlobalOptions,
  env: Readonly<Record<string, string | undefined>>,
): ClientOptions {
  const overrides: Partial<ClientOptions> = {};
  const envUrl = env[ENV_SERVER_URL]?.trim();
  if (options.serverUrl !== undefined) {
    overrides.baseUrl = options.serverUrl;
  } else if (envUrl === undefined || envUrl === "") {
    overrides.baseUrl = DEFAULT_SERVER_URL;
  }
  if (options.timeout !== undefined) {
    overrides.timeoutMs = Math.ceil(options.timeout * 1_000);
  }
  return optionsFromEnv({ ...env }, overrides);
}

/**
 * Values the CLI must never print: the token as set in the environment and as
 * the SDK uses it (trimmed). Empty when no token is configured.
 */
export function secretsOf(env: Readonly<Record<string, string | undefined>>): string[] {
  const raw = env[ENV_API_TOKEN];
  if (raw === undefined) {
    return [];
  }
  return [...new Set([raw, raw.trim()])].filter((value) => value.length > 0);
}
