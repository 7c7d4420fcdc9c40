/**
 * Human durations for `--deadline`: `500ms`, `60s`, `2m`, `1h`, and
 * concatenations such as `1m30s`. Decimal amounts are allowed (`1.5s`).
 */

const UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
};

/** The longest duration accepted, 24 hours, in milliseconds. */
export const MAX_DURATION_MS = 24 * 3_600_000;

const WHOLE = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h))+$/;
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;

/** Thrown by {@link parseDuration} for text that is not a usable duration. */
export class DurationSyntaxError extends Error {
  constructor(text: string, reason: string) {
    super(`invalid duration '${text}': ${reason}`);
    this.name = "DurationSyntaxError";
  }
}

/**
 * Parses a duration into whole milliseconds (fractions round up, so `0.5ms`
 * is 1 ms and a deadline is never shortened).
 *
 * @param text for example `500ms`, `60s`, `2m`, `1m30s`; surrounding blanks are ignored.
 * @returns milliseconds, at least 1 and at most {@link MAX_DURATION_MS}.
 * @throws DurationSyntaxError when the text is empty, has no unit (`60`), uses an
 *   unknown unit, is zero, or exceeds 24 hours.
 */
export function parseDuration(text: string): number {
  const trimmed = text.trim();
  if (trimmed === "") {
    throw new DurationSyntaxError(text, "it is empty");
  }
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) {
    throw new DurationSyntaxError(text, "add a unit, for example 500ms, 60s or 2m");
  }
  if (!WHOLE.test(trimmed)) {
    throw new DurationSyntaxError(text, "use digits followed by ms, s, m or h, for example 500ms, 60s or 2m");
  }
  let total = 0;
  for (const match of trimmed.matchAll(PART)) {
    const amount = Number(match[1]);
    const unit = UNIT_MS[match[2] ?? ""] ?? Number.NaN;
    total += amount * unit;
  }
  const ms = Math.ceil(total);
  if (!Number.isFinite(ms) || ms <= 0) {
    throw new DurationSyntaxError(text, "it must be longer than zero");
  }
  if (ms > MAX_DURATION_MS) {
    throw new DurationSyntaxError(text, "it must be at most 24h");
  }
  return ms;
}

/**
 * Formats milliseconds for messages and progress lines: `850ms`, `4.2s`,
 * `2m05s`, `1h02m`.
 *
 * @param ms a duration in milliseconds; negative values are shown as `0ms`.
 */
export function formatDuration(ms: number): string {
  const value = Math.max(0, Math.floor(ms));
  if (value < 1_000) {
    return `${value}ms`;
  }
  if (value < 60_000) {
    const tenths = Math.floor(value / 100);
    return tenths % 10 === 0 ? `${tenths / 10}s` : `${(tenths / 10).toFixed(1)}s`;
  }
  if (value < 3_600_000) {
    const minutes = Math.floor(value / 60_000);
    const seconds = Math.floor((value % 60_000) / 1_000);
    return `${minutes}m${String(seconds).padStart(2, "0")}s`;
  }
  const hours = Math.floor(value / 3_600_000);
  const minutes = Math.floor((value % 3_600_000) / 60_000);
  return `${hours}h${String(minutes).padStart(2, "0")}m`;
}
