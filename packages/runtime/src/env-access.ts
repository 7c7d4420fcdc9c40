import { ConfigurationError } from "./errors.js";

type Env = Record<string, string | undefined>;

/**
 * `process.env` where the runtime has one. On Cloudflare Workers without
 * `nodejs_compat` there is none, and an empty environment would quietly
 * point the client at the default URL: that is a ConfigurationError saying
 * to pass the Worker's `env`. Browsers keep an empty environment.
 *
 * @throws ConfigurationError on Workers without `process.env`.
 */
export function processEnv(): Env {
  const env = (globalThis as { process?: { env?: Env } }).process?.env;
  if (env !== undefined) return env;
  if ((globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === "Cloudflare-Workers") {
    throw new ConfigurationError(
      "no process.env on this Worker: pass the Worker's env (fromEnv({}, env) or optionsFromEnv(env)), or enable the nodejs_compat flag",
    );
  }
  return {};
}

/**
 * The variables `names` of `env` as plain strings, read once here so that a runtime
 * that guards its environment fails with a ConfigurationError instead of its
 * own error (Deno without `--allow-env` throws `NotCapable` on the read).
 *
 * @throws ConfigurationError naming the flag that grants the read.
 */
export function readableEnv(env: Env, names: readonly string[]): Env {
  const values: Env = {};
  for (const name of names) {
    let value: unknown;
    try {
      value = env[name];
    } catch (error) {
      const denied = error instanceof Error ? error.name : "an error";
      throw new ConfigurationError(
        `cannot read ${name} from the environment (${denied}): allow it (Deno: --allow-env=${names.join(",")}) or pass the variables as an object`,
      );
    }
    if (typeof value === "string") values[name] = value;
  }
  return values;
}
