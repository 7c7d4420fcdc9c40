import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../../src/errors.js";
import { isLoopbackHost, normalizeBaseUrl } from "../../src/transport/url.js";
import { LOOPBACK_CASES } from "./loopback-table.js";

describe("normalizeBaseUrl (docs/compatibility.md)", () => {
  it.each([
    ["https://pc.example.com", "https://pc.example.com"],
    ["https://pc.example.com/", "https://pc.example.com"],
    ["https://pc.example.com/api/", "https://pc.example.com/api"],
    ["http://localhost:8000", "http://localhost:8000"],
    ["http://127.0.0.1:8000/", "http://127.0.0.1:8000"],
    ["http://127.255.3.9", "http://127.255.3.9"],
    ["http://[::1]:8000", "http://[::1]:8000"],
  ])("accepts %s", (raw, normalized) => {
    expect(normalizeBaseUrl(raw)).toBe(normalized);
  });

  it.each([
    "http://pc.example.com",
    "http://10.0.0.5:8000",
    "http://128.0.0.1",
    "http://localhost.example.com",
    "http://127.0.0.1.example.com",
  ])("refuses plaintext to a non-loopback host: %s", (raw) => {
    expect(() => normalizeBaseUrl(raw)).toThrow(ConfigurationError);
  });

  it("accepts plaintext to any host only for a caller transport declared secure", () => {
    expect(() => normalizeBaseUrl("http://pc.internal", { trustTransportSecurity: true })).toThrow(
      /requires a caller-supplied fetch/,
    );
    expect(normalizeBaseUrl("http://pc.internal", { trustTransportSecurity: true, customTransport: true })).toBe(
      "http://pc.internal",
    );
    expect(() => normalizeBaseUrl("http://pc.internal", { customTransport: true })).toThrow(ConfigurationError);
  });

  it.each([
    ["userinfo", "https://user:s3cret@pc.example.com"],
    ["user only", "https://user@pc.example.com"],
    ["query", "https://pc.example.com/?a=1"],
    ["empty query", "https://pc.example.com/?"],
    ["fragment", "https://pc.example.com/#x"],
    ["empty fragment", "https://pc.example.com/#"],
    ["scheme", "ftp://pc.example.com"],
    ["relative", "/v1"],
  ])("refuses %s", (_label, raw) => {
    expect(() => normalizeBaseUrl(raw)).toThrow(ConfigurationError);
  });

  it("never repeats userinfo in the error", () => {
    let error: unknown;
    try {
      normalizeBaseUrl("https://user:s3cret@pc.example.com");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(JSON.stringify(error) + String(error) + (error as Error).stack).not.toContain("s3cret");
  });

  it.each(LOOPBACK_CASES.map((entry) => [entry.url, entry.loopback, entry.why] as const))(
    "plaintext to %j is allowed: %s (%s)",
    (url, loopback) => {
      if (loopback) expect(normalizeBaseUrl(url)).toMatch(/^http:\/\/(localhost|127\.[\d.]+|\[::1\])(:\d+)?$/);
      else expect(() => normalizeBaseUrl(url)).toThrow(/plaintext http:\/\/ is for loopback hosts only/);
    },
  );

  it("sends a rewritten spelling to the host it was judged as", () => {
    expect(normalizeBaseUrl("http://0x7f.1:8000/api")).toBe("http://127.0.0.1:8000/api");
    expect(normalizeBaseUrl("http://[0:0:0:0:0:0:0:1]:8000")).toBe("http://[::1]:8000");
  });

  it("keeps https to a trailing-dot name", () => {
    expect(normalizeBaseUrl("https://localhost.:8443")).toBe("https://localhost.:8443");
  });

  it("knows loopback", () => {
    expect(["localhost", "LOCALHOST", "[::1]", "127.0.0.1", "127.1.2.3"].every(isLoopbackHost)).toBe(true);
    expect(
      ["127.0.0.256", "0.0.0.0", "::2", "example.com", "localhost.", "127.0.0.1.", "127.000.0.1"].some(isLoopbackHost),
    ).toBe(false);
  });
});
