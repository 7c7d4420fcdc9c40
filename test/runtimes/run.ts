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
    entryPoints: [join(suite, entry)],
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

async function onWorkerd(miniflareHome: string, script: string, url: string, refused: string): Promise<CheckResult[]> {
  const entry = pathToFileURL(join(miniflareHome, "node_modules", "miniflare", "dist", "src", "index.js")).href;
  const { Miniflare } = (await import(entry)) as typeof import("miniflare");
  const miniflare = new Miniflare({ modules: true, scriptPath: script, compatibilityDate: "2025-09-01" });
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
      const script = await bundle("worker-entry.ts", join(out, "worker.mjs"), "worker");
      return await onWorkerd(binary ?? repo, script, front.url, refused);
    }
    const script = await bundle("cli-entry.ts", join(out, "cli.mjs"), "cli");
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
