/**
 * The browser app, end to end: built from the released 1.4.1 server's own
 * contract, type-checked strictly, bundled, and run in headless Chromium
 * through its page server (same origin, token added there). Also shows why the
 * page server is needed: the 1.4.1 server answers a CORS preflight with 401, so
 * a page on another origin cannot call it.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_ARGS, chromiumPath } from "../../test/browser/page-server.js";
import { startRealServer, type RealServer } from "../../test/real/server.js";
import { checkAll, checkFile, pythonTools, requireTools } from "../../test/real/tools.js";
import { appDir, buildApp } from "./build.js";
import { startPageServer, type PageServer } from "./page-server.js";

const enabled = requireTools(
  "examples/browser-app (the released server and Chromium)",
  checkAll(pythonTools(), checkFile(chromiumPath(), "run: bash scripts/ci/chromium.sh")),
);

describe.runIf(enabled)("the browser app against the released 1.4.1 server", () => {
  let server: RealServer;
  let page: PageServer;
  let dist = "";

  beforeAll(async () => {
    server = await startRealServer();
    dist = (await buildApp(server.baseUrl, server.token)).dist;
    page = await startPageServer({ dir: dist, upstream: server.baseUrl, token: server.token });
  }, 180_000);
  afterAll(async () => {
    await page?.close();
    await server?.stop();
  });

  it("was generated from the live contract without msw handlers, and its bundle holds no token", () => {
    expect(existsSync(join(appDir, "generated/index.ts"))).toBe(true);
    expect(existsSync(join(appDir, "generated/handlers.ts"))).toBe(false);
    expect(readFileSync(join(appDir, "generated/README.md"), "utf8")).toContain(
      "--targets client,types --lint upstream",
    );
    const bundle = readFileSync(join(dist, "app.js"), "utf8");
    expect(bundle).not.toContain(server.token);
    expect(bundle).not.toMatch(/from\s+["']undici["']|node:/);
  });

  it("reading the contract without the token is refused", async () => {
    expect((await fetch(`${server.baseUrl}/openapi.json`)).status).toBe(401);
  });

  it("shows the default Scope in Chromium, through the page server", async () => {
    const { chromium } = await import("playwright-core");
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: [...CHROMIUM_ARGS], headless: true });
    try {
      const tab = await browser.newPage();
      const requests: string[] = [];
      tab.on("request", (request) => requests.push(request.url()));
      await tab.goto(`${page.url}/`);
      await tab.waitForFunction(
        () => {
          const state = window as unknown as { __card?: unknown; __error?: unknown };
          return state.__card !== undefined || state.__error !== undefined;
        },
        null,
        { timeout: 30_000 },
      );
      const error = await tab.evaluate(() => (window as unknown as { __error?: string }).__error ?? null);
      expect(error).toBeNull();
      const text = await tab.textContent("#out");
      expect(text).toMatch(/^Server live\.\nDefault Scope scp_\S+: .+ \(version \d+\)\.\nSearch modes: .+\.$/);
      // every request stayed on the page's origin
      expect(requests.every((url) => url.startsWith(page.url))).toBe(true);

      // The same call from the page straight to the server (another origin) fails in the browser.
      const direct = await tab.evaluate(async (url) => {
        try {
          await fetch(`${url}/v1/scopes/default`, { headers: { authorization: "Bearer x" } });
          return "answered";
        } catch (error) {
          return (error as Error).name;
        }
      }, server.baseUrl);
      expect(direct).toBe("TypeError");
    } finally {
      await browser.close();
    }
  }, 120_000);

  it("answers a CORS preflight with 401 (why the page needs its own origin or a proxy)", async () => {
    const preflight = await fetch(`${server.baseUrl}/v1/scopes/default`, {
      method: "OPTIONS",
      headers: {
        origin: "http://127.0.0.1:1",
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization",
      },
    });
    expect(preflight.status).toBe(401);
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
  });
});
