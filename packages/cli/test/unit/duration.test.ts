import { describe, expect, it } from "vitest";
import { DurationSyntaxError, MAX_DURATION_MS, formatDuration, parseDuration } from "../../src/duration.js";

describe("parseDuration", () => {
  it.each([
    ["500ms", 500],
    ["60s", 60_000],
    ["2m", 120_000],
    ["1h", 3_600_000],
    ["1m30s", 90_000],
    ["1.5s", 1_500],
    ["0.5ms", 1],
    [" 10s ", 10_000],
    ["24h", MAX_DURATION_MS],
  ])("%s is %d ms", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([
    ["", /empty/],
    ["60", /add a unit/],
    ["5d", /use digits/],
    ["-1s", /use digits/],
    ["s", /use digits/],
    ["1 s", /use digits/],
    ["0s", /longer than zero/],
    ["25h", /at most 24h/],
  ])("rejects %j", (text, reason) => {
    expect(() => parseDuration(text)).toThrow(DurationSyntaxError);
    expect(() => parseDuration(text)).toThrow(reason);
  });
});

describe("formatDuration", () => {
  it.each([
    [0, "0ms"],
    [850, "850ms"],
    [1_000, "1s"],
    [4_250, "4.2s"],
    [59_999, "59.9s"],
    [125_000, "2m05s"],
    [3_720_000, "1h02m"],
    [-5, "0ms"],
  ])("%d ms is %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
