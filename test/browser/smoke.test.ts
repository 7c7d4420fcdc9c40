// Headless Chromium loads a page that imports the built SDK (bundled here with esbuild)
// and calls the embedded mock server on another loopback origin, so the SDK's browser
// build and the mock server's CORS answers are both exercised.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkAll, checkFile, repoRoot, requireTools, tryImport } from "../real/tools.js";
import { CHROMIUM_ARGS, chromiumPath, servePage } from "./page-server.js";

const sdkEntry = join(repoRoot, "packages", "sdk", "dist", "index.js");
const enabled = requireTools(
  "test/browser/smoke.test.ts",
  checkAll(
    checkFile(chromiumPath(), "run: bash scripts/ci/chromium.sh"),
    checkFile(join(repoRoot, "node_modules", "playwright-core", "package.json"), "run: npm install"),
    checkFile(sdkEntry, "the built SDK; run: npm start"),
  ),
);

interface MockServerHandle {
  readonly url?: string;
  readonly baseUrl?: string;
  readonly token?: string;
  close?(): Promise<void>;
  stop?(): Promise<void>;
}

async function bundleSdk(): Promise<string> {
  const esbuild = await import("esbuild");
  const dir = await mkdtemp(join(tmpdir(), "sdk-browser-"));
  try {
    const outfile = join(dir, "sdk.js");
    await esbuild.build({
      entryPoints: [sdkEntry],
      bundle: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      outfile,
      logLevel: "silent",
    });
    return await readFile(outfile, "utf8");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>PowerContext SDK smoke</title>
<script type="module">
  import { PowerContextClient, ServerResponseError } from "./sdk.js";
  const config = JSON.parse(document.getElementById("config").textContent);
  const report = {};
  try {
    const client = new PowerContextClient({ baseUrl: config.baseUrl, token: config.token || undefined });
    report.liveness = await client.getLiveness();
    report.capabilities = await client.getCapabilities();
    const anonymous = new PowerContextClient({ baseUrl: config.baseUrl });
    try {
      await anonymous.getTopicMemoryProcessingStatus({ scope_id: "scope-browser" });
      report.anonymous = "no error";
    } catch (error) {
      report.anonymous = {
        isServerResponseError: error instanceof ServerResponseError,
        statusCode: error.statusCode,
        requestId: error.requestId ?? null,
      };
    }
  } catch (error) {
    report.error = String(error && error.stack || error);
  }
  window.__report = report;
</script>`;

describe.skipIf(!enabled)("SDK in headless Chromium", () => {
  it("calls the embedded mock server across origins and gets validated results", async (ctx) => {
    const msw = await tryImport<{ startMockServer(o?: { port?: number; host?: string }): Promise<MockServerHandle> }>(
      "@powercontext/msw/server",
    );
    if (!msw.module) {
      requireTools("browser smoke", { ok: false, missing: `${msw.error} (run: npm start)` });
      return ctx.skip();
    }
    const { chromium } = await import("playwright-core");
    const mock = await msw.module.startMockServer({ port: 0, host: "127.0.0.1" });
    const baseUrl = (mock.url ?? mock.baseUrl)!;
    const config = JSON.stringify({ baseUrl, token: mock.token ?? "" }).replace(/</g, "\\u003c");
    const page = await servePage({
      "/index.html": PAGE.replace("<script type=\"module\">", `<script type="application/json" id="config">${config}</script>\n<script type="module">`),
      "/sdk.js": await bundleSdk(),
    });
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: [...CHROMIUM_ARGS], headless: true });
    try {
      const tab = await browser.newPage();
      const consoleLines: string[] = [];
      tab.on("console", (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
      tab.on("pageerror", (e) => consoleLines.push(`pageerror: ${e.message}`));
      await tab.goto(`${page.origin}/`);
      await tab.waitForFunction(() => (window as unknown as { __report?: unknown }).__report !== undefined, null, {
        timeout: 30_000,
      });
      const report = (await tab.evaluate(() => (window as unknown as { __report: unknown }).__report)) as Record<string, unknown>;
      expect(report.error, `page failed:\n${String(report.error)}\n${consoleLines.join("\n")}`).toBeUndefined();
      expect(report.liveness).toEqual({ status: "ok" });
      expect(report.capabilities).toBeTypeOf("object");
      // the request-id header is only readable cross-origin when the mock exposes it
      expect(report.anonymous).toMatchObject({ isServerResponseError: true, statusCode: 401, requestId: expect.stringMatching(/\S/) });
    } finally {
      await browser.close();
      await page.close();
      await (mock.close ?? mock.stop)?.call(mock);
    }
  }, 120_000);
});
