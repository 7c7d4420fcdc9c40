// Start and stop the released PowerContext server (`powercontext server run` from the
// venv) on a free loopback port, with a throw-away data directory, SQLite, and
// static bearer authentication turned on.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, mkdir, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { venvBin } from "./tools.js";

export interface RealServer {
  readonly baseUrl: string;
  /** the bearer token the server accepts; it is the built-in administrator */
  readonly token: string;
  readonly dataDir: string;
  /** everything the process printed so far (for failure messages) */
  logs(): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** turn authentication on (default true) */
  readonly auth?: boolean;
  /** readiness deadline in ms (default 60 s) */
  readonly readyTimeoutMs?: number;
  /** extra POWERCONTEXT_SERVER_* settings */
  readonly env?: Readonly<Record<string, string>>;
}

export async function freeLoopbackPort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Environment for the child: the parent's, minus every PowerContext setting it may carry. */
function cleanEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("POWERCONTEXT_") && !key.startsWith("OTEL_")) env[key] = value;
  }
  return env;
}

export async function startRealServer(options: StartOptions = {}): Promise<RealServer> {
  const auth = options.auth ?? true;
  const dataDir = await mkdtemp(join(tmpdir(), "powercontext-real-"));
  const home = join(dataDir, "home");
  const workspace = join(dataDir, "workspace");
  await mkdir(home);
  await mkdir(workspace);
  const token = auth ? `pc-test-${randomBytes(18).toString("hex")}` : "";
  const port = await freeLoopbackPort();

  const env: NodeJS.ProcessEnv = {
    ...cleanEnvironment(),
    POWERCONTEXT_HOME: home,
    POWERCONTEXT_SERVER_DATABASE: JSON.stringify({
      kind: "sqlite",
      url: `sqlite+aiosqlite:///${join(dataDir, "powercontext.db")}`,
    }),
    // the metrics listener would bind a second fixed port
    POWERCONTEXT_SERVER_METRICS_ENABLED: "false",
    POWERCONTEXT_SERVER_LOGGING_FORMAT: "json",
    ...(auth ? { POWERCONTEXT_SERVER_AUTH_ENABLED: "true", POWERCONTEXT_SERVER_AUTH_TOKEN: token } : {}),
    ...options.env,
  };

  let output = "";
  const child: ChildProcess = spawn(
    venvBin("powercontext"),
    ["server", "run", "--host", "127.0.0.1", "--port", String(port), "--no-env-file"],
    { cwd: workspace, env, stdio: ["ignore", "pipe", "pipe"] },
  );
  const keep = (chunk: Buffer) => {
    output += chunk.toString("utf8");
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let running = true;
  void exited.then(() => {
    running = false;
  });

  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (running) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  let last = "no answer yet";
  while (Date.now() < deadline) {
    if (!running) {
      await stop();
      throw new Error(`powercontext server run exited before it was ready:\n${output.slice(-4000)}`);
    }
    try {
      const response = await fetch(`${baseUrl}/health/ready`, { signal: AbortSignal.timeout(2_000) });
      const body = await response.text();
      if (response.status === 200) {
        return { baseUrl, token, dataDir, logs: () => output, stop };
      }
      last = `${response.status} ${body.slice(0, 300)}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(
    `powercontext server was not ready at ${baseUrl}/health/ready in time (last: ${last}):\n${output.slice(-4000)}`,
  );
}
