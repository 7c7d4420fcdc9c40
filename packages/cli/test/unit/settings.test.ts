import { ConfigurationError, DEFAULT_SERVER_URL } from "@powercontext/sdk";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/usage-error.js";
import { parseSecondsFlag, resolveClientOptions, secretsOf, tokenState } from "../../src/settings.js";

const env = {
  POWERCONTEXT_CLIENT_SERVER_URL: "http://127.0.0.1:7001",
  POWERCONTEXT_CLIENT_API_TOKEN: " tok-123 ",
  POWERCONTEXT_CLIENT_TIMEOUT: "2.5",
};

describe("resolveClientOptions", () => {
  it("reads URL, token and timeout (seconds) from the environment", () => {
    expect(resolveClientOptions({}, env)).toMatchObject({
      baseUrl: "http://127.0.0.1:7001",
      token: "tok-123",
      timeoutMs: 2_500,
    });
  });

  it("lets --server-url and --timeout win over the environment", () => {
    const timeout = parseSecondsFlag("0.25", "--timeout");
    expect(resolveClientOptions({ serverUrl: "http://localhost:9", timeout }, env)).toMatchObject({
      baseUrl: "http://localhost:9",
      timeoutMs: 250,
    });
  });

  it.each(["0.0005", "1e-9", "1.0001", "2.007", "2.5", "30"])(
    "converts --timeout %s and POWERCONTEXT_CLIENT_TIMEOUT=%s to the same whole milliseconds",
    (seconds) => {
      const fromFlag = resolveClientOptions({ timeout: parseSecondsFlag(seconds, "--timeout") }, {}).timeoutMs;
      const fromEnv = resolveClientOptions({}, { POWERCONTEXT_CLIENT_TIMEOUT: seconds }).timeoutMs;
      expect(fromFlag).toBe(fromEnv);
      expect(Number.isInteger(fromFlag)).toBe(true);
      expect(fromFlag).toBeGreaterThanOrEqual(Number(seconds) * 1_000 - 1e-9);
      expect(fromFlag).toBeLessThan(Number(seconds) * 1_000 + 1);
    },
  );

  it("never turns a tiny positive timeout into 0 ms", () => {
    expect(resolveClientOptions({ timeout: parseSecondsFlag("0.0005", "--timeout") }, {}).timeoutMs).toBe(1);
    expect(resolveClientOptions({}, { POWERCONTEXT_CLIENT_TIMEOUT: "0.0005" }).timeoutMs).toBe(1);
  });

  it("falls back to the Python CLI's default server and the SDK's default timeout", () => {
    const options = resolveClientOptions({}, {});
    expect(options.baseUrl).toBe(DEFAULT_SERVER_URL);
    expect(options.timeoutMs).toBeUndefined();
    expect(options.token).toBeUndefined();
  });

  it("refuses a malformed POWERCONTEXT_CLIENT_TIMEOUT, naming the variable", () => {
    expect(() => resolveClientOptions({}, { POWERCONTEXT_CLIENT_TIMEOUT: "ten" })).toThrow(ConfigurationError);
    expect(() => resolveClientOptions({}, { POWERCONTEXT_CLIENT_TIMEOUT: "ten" })).toThrow(
      /^POWERCONTEXT_CLIENT_TIMEOUT must be a positive number of seconds$/,
    );
  });
});

describe("parseSecondsFlag", () => {
  it("returns whole milliseconds, rounded up", () => {
    expect(parseSecondsFlag("0.5", "--timeout")).toBe(500);
    expect(parseSecondsFlag(" 2 ", "--timeout")).toBe(2_000);
    expect(parseSecondsFlag("0.0005", "--timeout")).toBe(1);
    expect(parseSecondsFlag("1.0001", "--timeout")).toBe(1_001);
  });

  it.each(["0", "-1", "", " ", "1s", "Infinity", "NaN"])("refuses %j as a usage error naming the flag", (text) => {
    expect(() => parseSecondsFlag(text, "--timeout")).toThrow(UsageError);
    expect(() => parseSecondsFlag(text, "--timeout")).toThrow(
      `--timeout must be a positive number of seconds, got '${text}'`,
    );
  });
});

describe("secretsOf", () => {
  it("lists the token as set and as trimmed, and nothing without a token", () => {
    expect(secretsOf(env)).toEqual([" tok-123 ", "tok-123"]);
    expect(secretsOf({})).toEqual([]);
    expect(secretsOf({ POWERCONTEXT_CLIENT_API_TOKEN: "" })).toEqual([]);
  });

  it("treats a blank token as no token, so whitespace is never scrubbed from output", () => {
    expect(secretsOf({ POWERCONTEXT_CLIENT_API_TOKEN: "  " })).toEqual([]);
    expect(secretsOf({ POWERCONTEXT_CLIENT_API_TOKEN: "\t\n" })).toEqual([]);
  });
});

describe("tokenState", () => {
  it("tells an unset, a blank and a configured token apart", () => {
    expect(tokenState({})).toBe("unset");
    expect(tokenState({ POWERCONTEXT_CLIENT_API_TOKEN: "" })).toBe("blank");
    expect(tokenState({ POWERCONTEXT_CLIENT_API_TOKEN: "  " })).toBe("blank");
    expect(tokenState(env)).toBe("set");
  });
});
