/**
 * Client options from the environment, as the Python client reads them.
 */
import { ConfigurationError } from "../errors.js";
import type { ClientOptions } from "./options.js";
import { processEnv, readableEnv } from "../env-access.js";

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
