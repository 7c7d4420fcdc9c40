// Numbers, and the check that a value taken from an answer fits a request member's
// schema before it is sent as valid input.
import { numericBounds, type Schema } from "./contract.js";
import { patternOf } from "./strings.js";
import type { Random } from "./rng.js";

/** The least and the most value a number schema allows, exclusive bounds stepped inside. */
export function numberRange(schema: Schema): { low: number; high: number; integer: boolean } {
  const integer = schema.type === "integer";
  const bounds = numericBounds(schema);
  const step = integer ? 1 : 0.5;
  let low = bounds.min ?? (bounds.max !== undefined ? Math.min(0, bounds.max - 100) : 0);
  let high = bounds.max ?? low + 1000;
  if (bounds.minExclusive) low += integer ? 1 : Math.min(step, (high - low) / 2);
  if (bounds.maxExclusive) high -= integer ? 1 : Math.min(step, (high - low) / 2);
  if (integer) [low, high] = [Math.ceil(low), Math.floor(high)];
  return { low, high, integer };
}

/** A number at a bound, just inside one, or typical (integers for `integer`). */
export function drawNumber(rng: Random, schema: Schema): number {
  const { low, high, integer } = numberRange(schema);
  const roll = rng.float();
  if (roll < 0.15) return low;
  if (roll < 0.27) return high;
  if (integer && roll < 0.35) return Math.min(high, low + 1);
  if (integer && roll < 0.42) return Math.max(low, high - 1);
  const top = Math.min(high, low + 100);
  if (integer) return rng.int(low, top);
  return Math.round((low + rng.float() * (top - low)) * 100) / 100;
}

/** True when a scalar from an answer meets the member's schema (type, enum, length, pattern, bounds). */
export function fitsScalar(schema: Schema, value: unknown): boolean {
  if (Array.isArray(schema.enum)) return schema.enum.includes(value);
  if (typeof value === "string") {
    if (schema.type !== undefined && schema.type !== "string") return false;
    const length = [...value].length;
    if (typeof schema.minLength === "number" && length < schema.minLength) return false;
    if (typeof schema.maxLength === "number" && length > schema.maxLength) return false;
    return patternOf(schema)?.test(value) ?? true;
  }
  if (typeof value === "number") {
    if (schema.type !== "integer" && schema.type !== "number") return false;
    if (schema.type === "integer" && !Number.isInteger(value)) return false;
    const { min, max, minExclusive, maxExclusive } = numericBounds(schema);
    if (min !== undefined && (minExclusive ? value <= min : value < min)) return false;
    return max === undefined || (maxExclusive ? value < max : value <= max);
  }
  return false;
}
