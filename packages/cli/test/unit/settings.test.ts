import { ConfigurationError } from "@powercontext/sdk";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import { DEFAULT_SERVER_URL, parseSeconds, resolveClientOptions, secretsOf } from "../../src/settings.js";

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
    expect(resolveClientOptions({ serverUrl: "http://localhost:9", timeout: 0.25 }, env)).toMatchObject({
      baseUrl: "http://localhost:9",
      timeoutMs: 250,
    });
  });

  it("falls back to the Python CLI's default server and the SDK's default timeout", () => {
    const options = resolveClientOptions({}, {});
    expect(options.baseUrl).toBe(DEFAULT_SERVER_URL);
    expect(options.timeoutMs).toBeUndefined();
    expect(options.token).toBeUndefined();
  });

  it("refuses a malformed POWERCONTEXT_CLIENT_TIMEOUT", () => {
    expect(() => resolveClientOptions({}, { POWERCONTEXT_CLIENT_TIMEOUT: "ten" })).toThrow(ConfigurationError);
  });
});

describe("parseSeconds", () => {
  it("accepts positive numbers only", () => {
    expect(parseSeconds("0.5", "--timeout")).toBe(0.5);
    for (const text of ["0", "-1", "", "1s", "Infinity"]) {
      expect(() => parseSeconds(text, "--timeout")).toThrow(UsageError);
    }
  });
});

describe("secretsOf", () => {
  it("lists the token as set and as trimmed, and nothing without a token", () => {
    expect(secretsOf(env)).toEqual([" tok-123 ", "tok-123"]);
    expect(secretsOf({})).toEqual([]);
    expect(secretsOf({ POWERCONTEXT_CLIENT_API_TOKEN: "" })).toEqual([]);
  });
});
