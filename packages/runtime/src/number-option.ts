import { ConfigurationError } from "./errors.js";

/**
 * A numeric option: `value`, or `fallback` when it is undefined.
 *
 * @param name the option's name, for the message.
 * @param strict above 0 (positive) rather than at least 0.
 * @param unit what the number counts, for the message (milliseconds, tokens).
 * @throws ConfigurationError naming the option unless `value` is a finite
 *   number that is at least 0 (above 0 when `strict`).
 */
export function numberOption(
  name: string,
  value: unknown,
  fallback: number,
  strict: boolean,
  unit = "milliseconds",
): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || (strict && value === 0)) {
    throw new ConfigurationError(`${name} must be a ${strict ? "positive" : "non-negative"} finite number of ${unit}`);
  }
  return value;
}
