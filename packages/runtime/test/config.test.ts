import { describe, expect, it } from "vitest";
import { optionsFromEnv, parseSecondsToMs } from "../src/config/env.js";
import { resolveConfig } from "../src/config/resolve.js";
import { ConfigurationError } from "../src/errors.js";

const fetch = async () => new Response("{}");

describe("optionsFromEnv", () => {
  it("reads the Python client's variables; the timeout is in seconds", () => {
    const options = optionsFromEnv({
      POWERCONTEXT_CLIENT_SERVER_URL: "https://pc.example.com",
      POWERCONTEXT_CLIENT_API_TOKEN: "tok",
      POWERCONTEXT_CLIENT_TIMEOUT: "2.5",
    });
    expect(options).toEqual({ baseUrl: "https://pc.example.com", token: "tok", timeoutMs: 2500 });
    expect(resolveConfig({ ...options, fetch }).timeoutMs).toBe(2500);
  });

  it("lets explicit overrides win", () => {
    const options = optionsFromEnv(
      { POWERCONTEXT_CLIENT_SERVER_URL: "https://a.example.com", POWERCONTEXT_CLIENT_TIMEOUT: "5" },
      { baseUrl: "https://b.example.com", timeoutMs: 100 },
    );
    expect(options).toMatchObject({ baseUrl: "https://b.example.com", timeoutMs: 100 });
  });

  it("rounds the timeout up to whole milliseconds, so a tiny positive value never becomes 0", () => {
    const env = { POWERCONTEXT_CLIENT_SERVER_URL: "https://a.example.com" };
    expect(optionsFromEnv({ ...env, POWERCONTEXT_CLIENT_TIMEOUT: "0.0005" }).timeoutMs).toBe(1);
    expect(optionsFromEnv({ ...env, POWERCONTEXT_CLIENT_TIMEOUT: "1.0001" }).timeoutMs).toBe(1001);
    expect(optionsFromEnv({ ...env, POWERCONTEXT_CLIENT_TIMEOUT: "2.007" }).timeoutMs).toBe(2007);
  });

  it.each([{}, { POWERCONTEXT_CLIENT_SERVER_URL: "  " }])(
    "uses the Python client's default server URL for %j",
    (env) => {
      expect(optionsFromEnv(env).baseUrl).toBe("http://127.0.0.1:8000");
      expect(optionsFromEnv(env, { baseUrl: "https://b.example.com" }).baseUrl).toBe("https://b.example.com");
    },
  );

  it.each([
    [{ POWERCONTEXT_CLIENT_SERVER_URL: "https://a.example.com", POWERCONTEXT_CLIENT_TIMEOUT: "ten" }, /TIMEOUT/],
    [{ POWERCONTEXT_CLIENT_SERVER_URL: "https://a.example.com", POWERCONTEXT_CLIENT_TIMEOUT: "0" }, /TIMEOUT/],
    [{ POWERCONTEXT_CLIENT_SERVER_URL: "https://a.example.com", POWERCONTEXT_CLIENT_TIMEOUT: "-2" }, /TIMEOUT/],
  ])("refuses %j", (env, message) => {
    expect(() => optionsFromEnv(env)).toThrow(ConfigurationError);
    expect(() => optionsFromEnv(env)).toThrow(message);
  });
});

describe("parseSecondsToMs", () => {
  it.each([
    ["2.5", 2500],
    [" 10 ", 10_000],
    ["1e-3", 1],
    ["1.0001", 1001],
    ["0.0005", 1],
    ["1e-9", 1],
    ["2.007", 2007],
    ["4.35", 4350],
  ])("converts %j seconds to %d ms, rounding up to a whole millisecond", (text, expected) => {
    expect(parseSecondsToMs(text, "SETTING")).toBe(expected);
  });

  it.each(["", "  ", "0", "-1", "ten", "1s", "Infinity", "NaN"])("refuses %j, naming the setting", (text) => {
    expect(() => parseSecondsToMs(text, "THE_SETTING")).toThrow(ConfigurationError);
    expect(() => parseSecondsToMs(text, "THE_SETTING")).toThrow(/^THE_SETTING must be a positive number of seconds$/);
  });
});

describe("resolveConfig", () => {
  it("defaults to 10 s, 2 retries, 1 MiB and no token", () => {
    const config = resolveConfig({ baseUrl: "https://pc.example.com", fetch });
    expect(config).toMatchObject({
      timeoutMs: 10_000,
      token: "",
      maxResponseBytes: 1_048_576,
      retry: { maxRetries: 2 },
    });
    expect(config.secrets).toEqual([]);
  });

  it.each([
    { timeoutMs: 0 },
    { timeoutMs: Number.NaN },
    { maxRetries: -1 },
    { maxRetries: 1.5 },
    { retry: { jitter: "random" as never } },
    { headers: { Authorization: "Bearer x" }, token: "t" },
    { token: "a\nb" },
    { minPollIntervalMs: 100, maxPollIntervalMs: 10 },
  ])("refuses %j before any request", (bad) => {
    expect(() => resolveConfig({ baseUrl: "https://pc.example.com", fetch, ...bad })).toThrow(ConfigurationError);
  });
});
