/**
 * Value parsers for commander options. Each throws commander's
 * `InvalidArgumentError`, which the program turns into one usage line and
 * exit code 2 (see cli.ts), before anything is sent to the server.
 */
import { InvalidArgumentError } from "commander";
import { DurationSyntaxError, parseDuration } from "./duration.js";
import { UsageError } from "./usage-error.js";
import { parseSecondsFlag } from "./settings.js";

/**
 * `--timeout <seconds>`: a positive number of seconds, fractions allowed.
 *
 * @returns whole milliseconds, rounded up (see `parseSecondsFlag` in settings.ts).
 * @throws InvalidArgumentError naming `--timeout` when the value is not a positive number.
 */
export function secondsOption(text: string): number {
  try {
    return parseSecondsFlag(text, "--timeout");
  } catch (error) {
    throw new InvalidArgumentError(error instanceof UsageError ? error.message : String(error));
  }
}

/** `--deadline <duration>`: `500ms`, `60s`, `2m`, ... in milliseconds (duration.ts). */
export function durationOption(text: string): number {
  try {
    return parseDuration(text);
  } catch (error) {
    throw new InvalidArgumentError(error instanceof DurationSyntaxError ? error.message : String(error));
  }
}

/**
 * A whole number within `[min, max]`, written in decimal digits only (no sign,
 * exponent or fraction), for `--expected-version` and `--page-size`.
 */
export function integerOption(min: number, max: number = Number.MAX_SAFE_INTEGER): (text: string) => number {
  return (text: string) => {
    const trimmed = text.trim();
    const value = Number(trimmed);
    if (!/^\d+$/.test(trimmed) || !Number.isSafeInteger(value) || value < min || value > max) {
      const range =
        max === Number.MAX_SAFE_INTEGER ? `a whole number >= ${min}` : `a whole number from ${min} to ${max}`;
      throw new InvalidArgumentError(`expected ${range}, got '${text}'`);
    }
    return value;
  };
}
