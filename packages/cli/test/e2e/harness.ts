/**
 * End-to-end harness: the embedded mock server (`startMockServer()` from
 * `@powercontext/msw/server`) runs in the test process so scenarios can be set
 * up with its controls, and the CLI runs as a real child process
 * (`bin/powercontext-ts.js`) talking HTTP to it. The token reaches the child
 * only through POWERCONTEXT_CLIENT_API_TOKEN.
 */
import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type MockServer, startMockServer } from "@powercontext/msw/server";

/** Admin token of the scenarios; deliberately distinctive so a leak is easy to spot. */
export const ADMIN_TOKEN = "pc-e2e-admin-6d1f0c9a2b7e4483";
/** A token that may only read. */
export const READER_TOKEN = "pc-e2e-reader-91b3e5a7c2d40f68";
/** A token that may retry (scope.admin) but not read. */
export const RETRY_ONLY_TOKEN = "pc-e2e-retry-only-0a8c7e2d5b13f946";
/** Every token the tests use; none may ever appear in CLI output. */
export const TOKENS = [ADMIN_TOKEN, READER_TOKEN, RETRY_ONLY_TOKEN] as const;

export const BIN = fileURLToPath(new URL("../../bin/powercontext-ts.js", import.meta.url));

/** Simulator options accepted by `startMockServer`. */
export type SimulatorOptions = NonNullable<Parameters<typeof startMockServer>[0]>["simulatorOptions"];

/**
 * The scope ids the CLI tests pass with `--scope-id` (a simulator knows only its default
 * Scope until one is added; other ids answer 404 scope_not_found, as the released server does).
 */
export const CLI_TEST_SCOPES: readonly string[] = [
  "s",
  "scope-accepted",
  "scope-blocked",
  "scope-deadline",
  "scope-empty",
  "scope-filter",
  "scope-interrupt",
  "scope-legacy",
  "scope-op-fail",
  "scope-op-wait",
  "scope-paging",
  "scope-quick",
  "scope-reader",
  "scope-retry",
  "scope-retry-json",
  "scope-retry-lost",
  "scope-retry-only",
  "scope-retry-op",
  "scope-stale",
  "scope-stale-retry",
  "scope-tty",
  "scope-wait",
];

/** Starts a mock server on a free loopback port with the test principals and {@link CLI_TEST_SCOPES}. */
export function startServer(simulatorOptions: SimulatorOptions = {}): Promise<MockServer> {
  return startMockServer({
    port: 0,
    seed: 1,
    simulatorOptions: { ...simulatorOptions, scopes: [...CLI_TEST_SCOPES, ...(simulatorOptions?.scopes ?? [])] },
    principals: {
      tokens: {
        [ADMIN_TOKEN]: { name: "operator", scopes: { "*": ["scope.read", "scope.contribute", "scope.admin"] } },
        [READER_TOKEN]: { name: "viewer", scopes: { "*": ["scope.read"] } },
        [RETRY_ONLY_TOKEN]: { name: "recovery", scopes: { "*": ["scope.admin"] } },
      },
    },
  });
}

/** Captures `count` Sources into `scopeId` directly on the simulator (adding the Scope first when it is new). */
export function captureSources(server: MockServer, scopeId: string, count: number, prefix = "src"): void {
  server.simulator.controls.addScope(scopeId);
  for (let index = 0; index < count; index += 1) {
    const outcome = server.simulator.handle("capture_content_source", {
      token: ADMIN_TOKEN,
      body: { scope_id: scopeId, source_id: `${prefix}-${index}`, content: `observation ${prefix} ${index}` },
    });
    if (!("status" in outcome) || outcome.status >= 300) {
      throw new Error(`capture failed: ${JSON.stringify(outcome)}`);
    }
  }
}

/** What one CLI run produced. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Environment of the child: the caller's, minus anything that changes CLI behaviour, plus the given values. */
function childEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith("POWERCONTEXT_") || ["CI", "NO_COLOR", "FORCE_COLOR", "NODE_OPTIONS"].includes(key)) continue;
    env[key] = value;
  }
  for (const [key, value] of Object.entries(extra)) {
    if (value !== undefined) env[key] = value;
  }
  return env;
}

/** Options of {@link runCli}. */
export interface RunOptions {
  /** Server URL for POWERCONTEXT_CLIENT_SERVER_URL (omit to leave it unset). */
  readonly url?: string;
  /** Token for POWERCONTEXT_CLIENT_API_TOKEN; default the admin token, null for none. */
  readonly token?: string | null;
  /** Further environment variables. */
  readonly env?: Record<string, string | undefined>;
}

function envFor(options: RunOptions): NodeJS.ProcessEnv {
  const token = options.token === undefined ? ADMIN_TOKEN : options.token;
  return childEnv({
    POWERCONTEXT_CLI_FROM_SOURCE: "1",
    POWERCONTEXT_CLIENT_SERVER_URL: options.url,
    POWERCONTEXT_CLIENT_API_TOKEN: token ?? undefined,
    ...options.env,
  });
}

function collect(child: ReturnType<typeof spawn>): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs `powercontext-ts ARGS` with pipes for stdout and stderr (not a terminal). */
export function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliRun> {
  return startCli(args, options).finished;
}

/** A CLI process still running. */
export interface RunningCli {
  /** Sends a signal to the CLI process. */
  signal(name: NodeJS.Signals): void;
  /** Resolves once stderr matches `pattern` (rejects if the process ends first). */
  stderrMatches(pattern: RegExp): Promise<void>;
  /** Resolves when the process has exited and its streams are closed. */
  readonly finished: Promise<CliRun>;
}

/** Starts `powercontext-ts ARGS` with pipes, for tests that interact with the running process. */
export function startCli(args: readonly string[], options: RunOptions = {}): RunningCli {
  const child = spawn(process.execPath, [BIN, ...args], { env: envFor(options), stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const finished = collect(child);
  return {
    signal: (name) => child.kill(name),
    stderrMatches: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(stderr)) {
            child.stderr?.off("data", check);
            resolve();
          }
        };
        child.stderr?.on("data", check);
        void finished.then(() =>
          pattern.test(stderr) ? resolve() : reject(new Error(`stderr never matched ${pattern}`)),
        );
        check();
      }),
    finished,
  };
}

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Runs `powercontext-ts ARGS` on a pseudo-terminal through util-linux
 * `script -qec CMD /dev/null`. The terminal merges stdout and stderr into
 * `stdout` of the result (with `\r\n` line ends, as a terminal shows them).
 */
export function runCliOnTerminal(args: readonly string[], options: RunOptions = {}): Promise<CliRun> {
  const command = [process.execPath, BIN, ...args].map(shellQuote).join(" ");
  const env = envFor({ ...options, env: { TERM: "xterm-256color", COLUMNS: "160", ...options.env } });
  const child = spawn("script", ["-qec", command, "/dev/null"], { env, stdio: ["pipe", "pipe", "pipe"] });
  return collect(child).finally(() => child.stdin?.destroy());
}

/** True when util-linux `script` is installed (needed by {@link runCliOnTerminal}). */
export const hasScript: boolean = spawnSync("script", ["--version"], { stdio: "ignore" }).status === 0;
if (!hasScript) {
  // Locally the terminal test is skipped, loudly; in CI a missing `script` is a failure.
  if (process.env.CI === "true")
    throw new Error("util-linux `script` is missing: the CLI terminal test cannot run (CI=true)");
  console.warn("!!! SKIPPED the CLI terminal test: util-linux `script` is not installed");
}

/** Fails the test when any token appears in a run's output. */
export function tokensIn(run: CliRun): string[] {
  return TOKENS.filter((token) => run.stdout.includes(token) || run.stderr.includes(token));
}
