// Runs `powercontext-mock verify ...` from the sources (`node --import tsx`) and
// collects its exit code and output; optionally sends SIGINT once it is under way.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { XMLParser } from "fast-xml-parser";

/** How a `verify` process ended. */
export interface VerifyRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Spawns `powercontext-mock verify ...args` with `env` added to the environment.
 *
 * @param interruptWhen sends SIGINT once this returns true (polled every 50 ms); default never
 */
export async function runVerifyCli(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
  interruptWhen?: () => boolean,
): Promise<VerifyRun> {
  const entry = fileURLToPath(new URL("./serve-cli.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", entry, "verify", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  let [stdout, stderr] = ["", ""];
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const timer =
    interruptWhen === undefined
      ? undefined
      : setInterval(() => {
          if (interruptWhen()) {
            clearInterval(timer);
            child.kill("SIGINT");
          }
        }, 50);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  clearInterval(timer);
  return { code, stdout, stderr };
}

/** The test cases of a JUnit file as CI readers count them. */
export function junitCounts(xml: string): { tests: number; failures: number; skipped: number; cases: number } {
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    isArray: (name) => name === "testsuite" || name === "testcase",
  }).parse(xml) as {
    testsuites: { tests: string; failures: string; skipped?: string; testsuite?: { testcase?: unknown[] }[] };
  };
  const suites = parsed.testsuites.testsuite ?? [];
  return {
    tests: Number(parsed.testsuites.tests),
    failures: Number(parsed.testsuites.failures),
    skipped: Number(parsed.testsuites.skipped ?? 0),
    cases: suites.reduce((n, suite) => n + (suite.testcase?.length ?? 0), 0),
  };
}
