/**
 * Runs the runtime conformance suite (docs/runtimes.md) on one runtime and
 * prints each check's verdict, then `conformance: N passed, N failed`.
 *
 *   tsx test/runtimes/run.ts <runtime> [binary]
 *
 * `runtime` is `node`, `deno`, `bun` or `workerd`; `binary` the runtime's
 * executable (for node: the Node to run the suite with, default this one; for
 * workerd: the folder whose node_modules holds miniflare). The suite imports
 * the built packages (`npm run build` first) through the repository's
 * node_modules, so each runtime resolves them by its own export conditions;
 * workerd gets one bundle, as a Worker's bundler makes it. Everything listens
 * on loopback; the front and the mock stop when the run ends. Exit code 1 when
 * a check failed.
 */
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startMockServer } from "../../packages/msw/src/server/index.js";
import { PowerContextClient } from "../../packages/sdk/src/index.js";
import { startFaultServer } from "./fault-server.js";
import type { CheckResult } from "./suite/harness.js";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const out = join(repo, ".cache", "runtimes", "suite");
const suite = fileURLToPath(new URL("./suite/", import.meta.url));
/** The most one runtime's whole run may take, in ms. */
const LANE_LIMIT_MS = 240_000;

/** A loopback URL where nothing listens: a port bound, then released. */
async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

async function bundle(entry: string, outfile: string, target: "cli" | "worker"): Promise<string> {
  const { build } = await import("esbuild");
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: "esm",
    target: "es2022",
    logLevel: "warning",
    ...(target === "cli"
      ? // The packages stay imports, resolved by the runtime itself from node_modules.
        { platform: "neutral", packages: "external" as const }
      : // One Worker script, as wrangler bundles it: the packages' worker/browser conditions.
        { platform: "browser", conditions: ["workerd", "worker", "browser"] }),
  });
  return outfile;
}

/** Runs `command` and resolves with its stdout; rejects past the lane's limit. */
function run(command: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repo, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${command} did not finish within ${LANE_LIMIT_MS} ms\n${stderr}`));
    }, LANE_LIMIT_MS);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function parse(stdout: string, stderr: string): CheckResult[] {
  const line = stdout.split("\n").find((text) => text.startsWith("CONFORMANCE "));
  if (line === undefined) throw new Error(`the suite printed no results\n${stdout}\n${stderr}`);
  return JSON.parse(line.slice("CONFORMANCE ".length)) as CheckResult[];
}

/** The part of miniflare's `Miniflare` the run uses. */
interface MiniflareLike {
  dispatchFetch(url: string): Promise<{ status: number; text(): Promise<string> }>;
  dispose(): Promise<void>;
}

/** A Worker script under miniflare (installed beside the runtimes by scripts/ci/runtimes.sh, not in the repository). */
async function miniflareFor(miniflareHome: string, scriptPath: string, bindings: Record<string, string> = {}) {
  const entry = pathToFileURL(join(miniflareHome, "node_modules", "miniflare", "dist", "src", "index.js")).href;
  const { Miniflare } = (await import(entry)) as { Miniflare: new (options: object) => MiniflareLike };
  return new Miniflare({ modules: true, scriptPath, compatibilityDate: "2025-09-01", bindings });
}

async function onWorkerd(miniflareHome: string, script: string, url: string, refused: string): Promise<CheckResult[]> {
  const miniflare = await miniflareFor(miniflareHome, script);
  try {
    const answer = await miniflare.dispatchFetch(
      `http://worker.local/?url=${encodeURIComponent(url)}&refused=${encodeURIComponent(refused)}`,
    );
    const text = await answer.text();
    if (answer.status !== 200) throw new Error(`the Worker answered ${answer.status}: ${text}`);
    return JSON.parse(text) as CheckResult[];
  } finally {
    await miniflare.dispose();
  }
}

const EXAMPLE_CHECK = "worker example: examples/worker answers a search through the SDK";

/**
 * The Worker example (examples/worker), bundled as wrangler would and run under
 * workerd with its environment as bindings: a remembered entry must come back
 * from its `/search`.
 */
async function workerExample(miniflareHome: string, url: string): Promise<CheckResult> {
  try {
    const token = "pc-admin";
    const sdk = new PowerContextClient({ baseUrl: url, token });
    const scope = (await sdk.getDefaultScope()).scope_id;
    await sdk.rememberMemory({ scope_id: scope, kind: "decision", text: "Workers search the default Scope" });
    const script = await bundle(
      join(repo, "examples", "worker", "worker.ts"),
      join(out, "example-worker.mjs"),
      "worker",
    );
    const miniflare = await miniflareFor(miniflareHome, script, {
      POWERCONTEXT_CLIENT_SERVER_URL: url,
      POWERCONTEXT_CLIENT_API_TOKEN: token,
    });
    try {
      const answer = await miniflare.dispatchFetch("http://worker.local/search?q=Workers%20search");
      const body = (await answer.json()) as { scope?: string; hits?: Array<{ text: string }> };
      const found = body.hits?.some((hit) => hit.text === "Workers search the default Scope") ?? false;
      return answer.status === 200 && body.scope === scope && found
        ? { name: EXAMPLE_CHECK, status: "pass", detail: "" }
        : { name: EXAMPLE_CHECK, status: "fail", detail: `answered ${answer.status}: ${JSON.stringify(body)}` };
    } finally {
      await miniflare.dispose();
    }
  } catch (error) {
    return { name: EXAMPLE_CHECK, status: "fail", detail: String(error) };
  }
}

/** Runs every check on `runtime`; resolves with the verdicts. */
export async function runLane(runtime: string, binary: string | undefined): Promise<CheckResult[]> {
  mkdirSync(out, { recursive: true });
  const mock = await startMockServer({
    seed: 1,
    simulatorOptions: { waitBudgetMs: 0, flushTiming: { queuedMs: 50, runningMs: 150 } },
  });
  const front = await startFaultServer(mock.url);
  try {
    const refused = await refusedUrl();
    if (runtime === "workerd") {
      const script = await bundle(join(suite, "worker-entry.ts"), join(out, "worker.mjs"), "worker");
      const results = await onWorkerd(binary ?? repo, script, front.url, refused);
      return [...results, await workerExample(binary ?? repo, front.url)];
    }
    const script = await bundle(join(suite, "cli-entry.ts"), join(out, "cli.mjs"), "cli");
    const args = [script, front.url, refused, runtime];
    const [command, flags] =
      runtime === "deno"
        ? // No --allow-env: fromEnv must answer a ConfigurationError there.
          [binary ?? "deno", ["run", "--no-prompt", "--allow-net=127.0.0.1", "--allow-read"]]
        : [binary ?? process.execPath, []];
    const { stdout, stderr } = await run(command, [...flags, ...args]);
    return parse(stdout, stderr);
  } finally {
    await front.close();
    await mock.close(100);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [runtime = "node", binary] = process.argv.slice(2);
  const results = await runLane(runtime, binary);
  for (const result of results)
    console.log(`${result.status.padEnd(4)} ${runtime}: ${result.name}${result.detail ? ` -- ${result.detail}` : ""}`);
  const passed = results.filter((result) => result.status === "pass").length;
  const failed = results.filter((result) => result.status === "fail").length;
  console.log(`conformance: ${passed} passed, ${failed} failed`);
  process.exitCode = failed === 0 ? 0 : 1;
}
