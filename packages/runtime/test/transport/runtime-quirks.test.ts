// What the runtime does about the ways Deno, Bun and workerd differ from Node
// (docs/runtimes.md), checked here on Node with their errors and globals as
// those runtimes make them; the conformance suite (test/runtimes) checks the
// same on the runtimes themselves.
import { afterEach, describe, expect, it, vi } from "vitest";
import { optionsFromEnv } from "../../src/config/env.js";
import { ConfigurationError } from "../../src/errors.js";
import { fetchTransport, type FetchInit } from "../../src/transport/fetch-adapter.js";
import { globalFetchTransport } from "../../src/transport/global-fetch.js";
import { isConnectFailure } from "../../src/transport/sanitize.js";

afterEach(() => {
  vi.unstubAllGlobals();
});

const request = (neverResend: boolean) => ({
  method: "POST",
  url: "http://127.0.0.1:1/v1/x",
  headers: {},
  body: "{}",
  timeoutMs: 1000,
  signal: undefined,
  neverResend,
});

describe("connect failures without an error code", () => {
  it("classes Deno's failed connect (its cause says client error (Connect)) as a connect failure", () => {
    const cause = new Error(
      "error sending request for url (http://127.0.0.1:45999/): client error (Connect): tcp connect error: Connection refused (os error 111)",
    );
    expect(isConnectFailure(new TypeError("fetch failed", { cause }))).toBe(true);
  });

  it("keeps Deno's lost connection and workerd's ambiguous failure as exchange failures", () => {
    const lost = new Error(
      "error sending request: client error (SendRequest): connection closed before message completed",
    );
    expect(isConnectFailure(new TypeError("fetch failed", { cause: lost }))).toBe(false);
    expect(isConnectFailure(Object.assign(new Error("Network connection lost."), { retryable: true }))).toBe(false);
  });

  it("decides on the code when there is one", () => {
    expect(isConnectFailure(Object.assign(new Error("client error (Connect)"), { code: "ECONNRESET" }))).toBe(false);
  });
});

describe("never-resend requests through fetch", () => {
  it("go through the never-resend fetch; other requests through the usual one", async () => {
    const used: string[] = [];
    const answer = () => Promise.resolve(new Response("{}", { status: 200 }));
    const transport = fetchTransport(
      () => {
        used.push("pooled");
        return answer();
      },
      {
        neverResendFetch: () => {
          used.push("fresh");
          return answer();
        },
      },
    );
    (await transport.send(request(true))).cancel();
    (await transport.send(request(false))).cancel();
    expect(used).toEqual(["fresh", "pooled"]);
  });

  it("on Deno, send a never-resend request through an HttpClient that keeps no idle connection", async () => {
    const clients: unknown[] = [];
    const seen: Array<FetchInit & { client?: unknown }> = [];
    vi.stubGlobal("Deno", {
      createHttpClient: (options: unknown) => {
        clients.push(options);
        return { options };
      },
    });
    vi.stubGlobal("fetch", (_url: string, init: FetchInit) => {
      seen.push(init);
      return Promise.resolve(new Response("{}", { status: 200 }));
    });
    const transport = globalFetchTransport();
    (await transport?.send(request(true)))?.cancel();
    (await transport?.send(request(true)))?.cancel();
    (await transport?.send(request(false)))?.cancel();
    expect(clients).toEqual([{ poolMaxIdlePerHost: 0 }]);
    expect(seen.map((init) => init.client)).toEqual([
      { options: { poolMaxIdlePerHost: 0 } },
      { options: { poolMaxIdlePerHost: 0 } },
      undefined,
    ]);
  });
});

describe("optionsFromEnv where the environment is guarded", () => {
  it("answers a ConfigurationError naming --allow-env when reading a variable throws (Deno's NotCapable)", () => {
    const guarded = new Proxy(
      {},
      {
        get() {
          throw Object.assign(new Error('Requires env access to "POWERCONTEXT_CLIENT_SERVER_URL"'), {
            name: "NotCapable",
          });
        },
      },
    );
    expect(() => optionsFromEnv(guarded)).toThrow(ConfigurationError);
    expect(() => optionsFromEnv(guarded)).toThrow(/--allow-env=POWERCONTEXT_CLIENT_SERVER_URL/);
  });

  it("answers a ConfigurationError on a Worker without process.env, telling to pass the Worker's env", () => {
    vi.stubGlobal("process", undefined);
    vi.stubGlobal("navigator", { userAgent: "Cloudflare-Workers" });
    let thrown: unknown;
    try {
      optionsFromEnv();
    } catch (error) {
      thrown = error;
    }
    vi.unstubAllGlobals();
    expect(thrown).toBeInstanceOf(ConfigurationError);
    expect(String(thrown)).toMatch(/pass the Worker's env.*nodejs_compat/);
  });

  it("reads a Worker's env passed in, ignoring bindings that are not strings", () => {
    const env = {
      POWERCONTEXT_CLIENT_SERVER_URL: "https://pc.example.com",
      POWERCONTEXT_CLIENT_API_TOKEN: { kv: true },
    };
    expect(optionsFromEnv(env as never)).toEqual({ baseUrl: "https://pc.example.com" });
  });
});
