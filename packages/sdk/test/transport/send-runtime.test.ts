import { afterEach, describe, expect, it, vi } from "vitest";
import type { PreparedRequest } from "../../src/transport/build-request.js";
import type { FetchInit } from "../../src/transport/send.js";

const request: PreparedRequest = { method: "GET", url: "https://pc.example.com/x", path: "/x", headers: {}, body: undefined };

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

/** Loads send.ts afresh under the current globals and reports whether fetch got a signal. */
async function fetchGetsSignal(): Promise<boolean> {
  vi.resetModules();
  const { createExchangeLedger, sendAttempt } = await import("../../src/transport/send.js");
  let init: FetchInit | undefined;
  await sendAttempt(
    async (_url, i) => {
      init = i;
      return new Response("ok");
    },
    request,
    { timeoutMs: 1000, limit: "attempt", secrets: [], exchanges: createExchangeLedger() },
    { consume: (response) => response.text() },
  );
  return init?.signal !== undefined;
}

describe("sendAttempt: which runtimes may skip the signal", () => {
  it("Node.js without navigator (Node 20): no signal on a healthy client", async () => {
    vi.stubGlobal("navigator", undefined);
    expect(await fetchGetsSignal()).toBe(false);
  });

  it("Node.js with navigator (Node 21 and later): no signal on a healthy client", async () => {
    vi.stubGlobal("navigator", { userAgent: "Node.js/22" });
    expect(await fetchGetsSignal()).toBe(false);
  });

  it.each([
    ["an Electron renderer", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) app/1.0.0 Chrome/130.0.0.0 Electron/33.0.0 Safari/537.36"],
    ["Bun", "Bun/1.2.0"],
    ["Deno", "Deno/2.1.0"],
    ["Cloudflare Workers", "Cloudflare-Workers"],
  ])("%s, which also reports process.versions.node: always a signal", async (_label, userAgent) => {
    vi.stubGlobal("navigator", { userAgent });
    expect(await fetchGetsSignal()).toBe(true);
  });
});
