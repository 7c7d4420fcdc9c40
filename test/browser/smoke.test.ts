// Headless Chromium loads a page that imports the whole SDK (bundled here from its
// TypeScript sources with esbuild, for the browser platform, validators included, so no
// build step comes first) and calls the embedded mock server on another loopback origin,
// so the SDK's browser entry and the mock server's CORS answers are both exercised:
// JSON POSTs with Authorization, a PUT with If-Match, a GET with If-None-Match and the
// ETag and request-id headers read across origins.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkAll, checkFile, repoRoot, requireTools, tryImport } from "../real/tools.js";
import { CHROMIUM_ARGS, chromiumPath, servePage } from "./page-server.js";

const sdkEntry = join(repoRoot, "packages", "sdk", "src", "index.ts");
const enabled = requireTools(
  "test/browser/smoke.test.ts",
  checkAll(
    checkFile(chromiumPath(), "run: bash scripts/ci/chromium.sh"),
    checkFile(join(repoRoot, "node_modules", "playwright-core", "package.json"), "run: npm install"),
    checkFile(join(repoRoot, "node_modules", "esbuild", "package.json"), "run: npm install"),
  ),
);

interface MockServerHandle {
  readonly url: string;
  close(): Promise<void>;
}

/** The mock's default read-only token (scope.read on every scope). */
const READER_TOKEN = "pc-reader";
/** The mock's default writer (scope.contribute on every scope). */
const WRITER_TOKEN = "pc-writer";

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
    // a JSON POST with Authorization: needs the CORS preflight to pass
    report.status = await client.getTopicMemoryProcessingStatus({ scope_id: "scope-browser" });
    try {
      await client.retryTopicMemoryProcessing({ scope_id: "scope-browser", block_id: "blk-browser" });
      report.forbidden = "no error";
    } catch (error) {
      report.forbidden = { statusCode: error.statusCode, code: error.code, requestId: error.requestId ?? null };
    }
    // Conditional requests across origins: If-None-Match and If-Match need the preflight to
    // allow them (and PUT), and ETag is readable only when the mock exposes it.
    const writer = new PowerContextClient({ baseUrl: config.baseUrl, token: config.writerToken });
    const created = await writer.createArtifact({ scope_id: "scope-browser", family: "atomic-memory", content: { kind: "fact", text: "from the browser" } });
    const address = { scope_id: "scope-browser", family: "atomic-memory", artifact_id: created.artifact_id };
    const read = await writer.getArtifact(address).withResponse();
    const etag = read.response.headers.get("etag");
    const again = await writer.getArtifact({ ...address, "If-None-Match": etag });
    let replaced;
    try {
      replaced = { status: "replaced", revision: (await writer.replaceArtifact({ ...address, "If-Match": etag, content: { kind: "fact", text: "changed in the browser" } })).revision };
    } catch (error) {
      replaced = { status: error.name, statusCode: error.statusCode ?? null };
    }
    report.conditional = { etag, revalidated: again.status, replaced };
    report.bundledValidators = typeof (await import("./sdk.js")).validatorMap.replace_artifact.request === "function";
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
    const msw = await tryImport<{
      startMockServer(o?: {
        port?: number;
        host?: string;
        seed?: number;
        cors?: boolean;
        simulatorOptions?: { scopes?: string[] };
      }): Promise<MockServerHandle>;
    }>("@powercontext/msw/server");
    if (!msw.module) {
      requireTools("browser smoke", { ok: false, missing: `${msw.error} (run: npm start)` });
      return ctx.skip();
    }
    const { chromium } = await import("playwright-core");
    const mock = await msw.module.startMockServer({
      port: 0,
      host: "127.0.0.1",
      seed: 1,
      // The page calls across origins; the release has no CORS, the mock answers it when asked.
      cors: true,
      simulatorOptions: { scopes: ["scope-browser"] },
    });
    const baseUrl = mock.url;
    const config = JSON.stringify({ baseUrl, token: READER_TOKEN, writerToken: WRITER_TOKEN }).replace(/</g, "\\u003c");
    const page = await servePage({
      "/index.html": PAGE.replace(
        '<script type="module">',
        `<script type="application/json" id="config">${config}</script>\n<script type="module">`,
      ),
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
      const report = (await tab.evaluate(() => (window as unknown as { __report: unknown }).__report)) as Record<
        string,
        unknown
      >;
      expect(report.error, `page failed:\n${String(report.error)}\n${consoleLines.join("\n")}`).toBeUndefined();
      expect(report.liveness).toEqual({ status: "ok" });
      expect(report.capabilities).toMatchObject({ source_types: expect.any(Array), search_modes: expect.any(Array) });
      expect(report.status).toMatchObject({ state: "idle" });
      // pc-reader lacks scope.admin: 403 with the envelope and a readable request id
      expect(report.forbidden).toEqual({ statusCode: 403, code: "forbidden", requestId: expect.stringMatching(/\S/) });
      // ETag exposed, If-None-Match allowed (a 304), and the PUT with If-Match reached the mock
      // (a refused preflight is a TransportError) and replaced the revision the ETag names.
      expect(report.conditional).toMatchObject({ etag: expect.stringMatching(/^(W\/)?"/), revalidated: 304 });
      expect((report.conditional as { replaced: unknown }).replaced).toEqual({ status: "replaced", revision: 2 });
      expect(report.bundledValidators).toBe(true);
      // the request-id header is only readable cross-origin when the mock exposes it
      expect(report.anonymous).toMatchObject({
        isServerResponseError: true,
        statusCode: 401,
        requestId: expect.stringMatching(/\S/),
      });
    } finally {
      await browser.close();
      await page.close();
      await mock.close();
    }
  }, 120_000);
});
