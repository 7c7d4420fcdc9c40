// A token that no HTTP header can carry is a configuration error, found when the client is
// built: it is never sent, never retried, and the error names the problem, not the token.
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "@powercontext/runtime";
import { PowerContextClient } from "../../src/client.js";

const BASE = "http://127.0.0.1:9";

describe("a token the transport cannot send", () => {
  it.each([
    ["an emoji", "tok-\u{1F600}-abc123"],
    ["a character beyond Latin-1", "tok-\u0100-abc123"],
    ["NUL", "tok-\u0000-abc123"],
    ["DEL", "tok-\u007f-abc123"],
    ["a line feed", "tok-abc123\n"],
    ["a space in front", " tok-abc123"],
    ["a tab at the end", "tok-abc123\t"],
  ])("with %s is refused when the client is built, before any request", (_label, token) => {
    let sent = 0;
    const build = () =>
      new PowerContextClient({
        baseUrl: BASE,
        token,
        fetch: async () => {
          sent += 1;
          return new Response("{}");
        },
      });
    expect(build).toThrow(ConfigurationError);
    let message = "";
    try {
      build();
    } catch (error) {
      message = `${(error as Error).message} ${(error as Error).stack}`;
    }
    expect(message).toMatch(/^token /);
    expect(message).toContain("the token is not shown");
    expect(message).not.toContain(token.trim().slice(0, 7));
    expect(sent).toBe(0);
  });

  it("fromEnv refuses it the same way", () => {
    const env = { POWERCONTEXT_CLIENT_API_TOKEN: "tok-\u{1F600}-abc123" };
    expect(() => PowerContextClient.fromEnv({}, env)).toThrow(ConfigurationError);
  });

  it("accepts a Latin-1 token, which a header carries", () => {
    expect(() => new PowerContextClient({ baseUrl: BASE, token: "caf\u00e9-token" })).not.toThrow();
  });
});
