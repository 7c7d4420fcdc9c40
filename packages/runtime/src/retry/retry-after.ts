import { parseHttpDate } from "./http-date.js";

/** Upper bound on a Retry-After the client will honour: one day, in milliseconds. */
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * Parses an HTTP `Retry-After` value (RFC 9110 §10.2.3) into milliseconds.
 *
 * - delay-seconds (`"3"`, `"0"`) -> seconds × 1000;
 * - an HTTP-date in any of its three forms (IMF-fixdate, RFC 850, asctime;
 *   `parseHttpDate`) -> the time until that date; a date in the past -> 0;
 * - absent, empty, negative, fractional or otherwise unparseable -> null, so
 *   that the caller falls back to its own backoff.
 *
 * The result is never NaN and never above one day.
 *
 * @param now current time in ms since the epoch (injectable for tests).
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (text === "") return null;
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  const at = parseHttpDate(text, now);
  if (at === null) return null;
  return Math.min(Math.max(0, at - now), MAX_RETRY_AFTER_MS);
}
