/**
 * Connection settings of one CLI run: command-line flags first, then the
 * environment variables the SDK reads (`optionsFromEnv`, docs/compatibility.md).
 *
 * | setting | flag | environment | default |
 * | --- | --- | --- | --- |
 * | server URL | `--server-url` | `POWERCONTEXT_CLIENT_SERVER_URL` | the SDK's `DEFAULT_SERVER_URL`, `http://127.0.0.1:8000` (as the Python client) |
 * | per-request timeout | `--timeout <seconds>` | `POWERCONTEXT_CLIENT_TIMEOUT` (seconds) | the SDK's 10 s |
 * | bearer token | none, on purpose | `POWERCONTEXT_CLIENT_API_TOKEN` | no token (no header) |
 *
 * Both timeout sources are converted by the SDK's `parseSecondsToMs` (rounded
 * up to whole milliseconds), so `--timeout X` and `POWERCONTEXT_CLIENT_TIMEOUT=X`
 * always give the same per-request timeout.
 *
 * The token has no flag so that it never shows up in `ps`, shell history or CI
 * logs of the command line.
 */
import {
  ConfigurationError,
  ENV_API_TOKEN,
  optionsFromEnv,
  parseSecondsToMs,
  type ClientOptions,
} from "@powercontext/sdk";
import { UsageError } from "./usage-error.js";

/** Global options as commander hands them over. */
export interface GlobalOptions {
  serverUrl?: string;
  /**
   * Per-request timeout from `--timeout`, already converted from seconds to
   * whole milliseconds by {@link parseSecondsFlag}.
   */
  timeout?: number;
  json?: boolean;
}

/**
 * Parses a flag value given as a positive number of seconds (`--timeout`)
 * into milliseconds, with the same rules and rounding as the SDK applies to
 * `POWERCONTEXT_CLIENT_TIMEOUT` (`parseSecondsToMs`: fractions allowed,
 * rounded up to a whole millisecond, so `0.0005` is 1 ms).
 *
 * @param text the flag value as typed, for example `"2.5"`.
 * @param flag the flag name for the error message, for example `--timeout`.
 * @returns whole milliseconds, at least 1.
 * @throws UsageError naming `flag` and quoting `text` when the text is not a
 *   positive finite number.
 */
export function parseSecondsFlag(text: string, flag: string): number {
  try {
    return parseSecondsToMs(text, flag);
  } catch (error) {
    if (error instanceof ConfigurationError) {
      throw new UsageError(`${flag} must be a positive number of seconds, got '${text}'`);
    }
    throw error;
  }
}

/**
 * Combines flags and environment into SDK client options.
 *
 * @param options parsed global options (`timeout` already in milliseconds).
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
  if (options.serverUrl !== undefined) {
    overrides.baseUrl = options.serverUrl;
  }
  if (options.timeout !== undefined) {
    overrides.timeoutMs = options.timeout;
  }
  return optionsFromEnv({ ...env }, overrides);
}

/**
 * Values the CLI must never print: the token as set in the environment and as
 * the SDK uses it (trimmed). Empty when no token is configured, including a
 * blank one: the SDK sends no token then, and scrubbing whitespace would
 * mangle every line of output.
 */
export function secretsOf(env: Readonly<Record<string, string | undefined>>): string[] {
  const raw = env[ENV_API_TOKEN];
  if (raw === undefined || raw.trim() === "") {
    return [];
  }
  return [...new Set([raw, raw.trim()])];
}

/**
 * Whether `POWERCONTEXT_CLIENT_API_TOKEN` gives the SDK a token: `unset` when
 * the variable is absent, `blank` when it is empty or only whitespace (the SDK
 * trims it and sends no `Authorization` header), `set` otherwise.
 */
export type TokenState = "unset" | "blank" | "set";

/**
 * Tells whether the environment configures a token, without returning it.
 *
 * @param env the process environment.
 * @returns see {@link TokenState}.
 */
export function tokenState(env: Readonly<Record<string, string | undefined>>): TokenState {
  const raw = env[ENV_API_TOKEN];
  if (raw === undefined) {
    return "unset";
  }
  return raw.trim() === "" ? "blank" : "set";
}
