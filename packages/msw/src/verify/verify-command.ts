// `powercontext-mock verify --server URL --token-env NAME [...]` (docs/verify.md): runs
// verifyServer() and prints the report (a table per tag, or JSON), writes the JUnit
// file, and sets the exit code: 0 when the run holds the floor, 1 below it, 2 for a
// usage or connection error (or a server that stops answering), 130 when interrupted
// (Ctrl-C). The token is read from the environment, never from the command line, and
// removed from everything printed or written.
import { writeFileSync } from "node:fs";
import { redact, secretSpellings, secretsOf } from "@powercontext/runtime";
import { type Command, InvalidArgumentError } from "commander";
import { formatVerify } from "./format-verify.js";
import { junitReport } from "./junit.js";
import { MAX_SEED } from "../simulator/random.js";
import { RANDOM_TARGETS } from "./random/floors.js";
import { MAX_K, VerifyConnectionError, VerifyStoppedError, VerifyUsageError, verifyServer } from "./verify-server.js";

/** Exit codes of `verify`. */
export const VERIFY_EXIT = { passed: 0, below: 1, error: 2, interrupted: 130 } as const;

function integer(name: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(
        max === Number.MAX_SAFE_INTEGER
          ? `${name} must be an integer of at least ${min}`
          : `${name} must be an integer from ${min} to ${max}`,
      );
    return n;
  };
}

function fraction(value: string): number {
  const n = value.trim() === "" ? Number.NaN : Number(value);
  if (!(n >= 0 && n <= 1)) throw new InvalidArgumentError("must be a fraction from 0 to 1, e.g. 0.93");
  return n;
}

function seconds(value: string): number {
  const n = value.trim() === "" ? Number.NaN : Number(value);
  if (!(n > 0 && n * 1000 <= 2 ** 31 - 1))
    throw new InvalidArgumentError("must be a positive number of seconds, at most 2147483");
  return n;
}

/** The options as commander hands them over. */
interface VerifyFlags {
  server: string;
  tokenEnv: string;
  seed?: number;
  k: number;
  readOnly: boolean;
  allowInsecure: boolean;
  allowWrites: boolean;
  maxRequests?: number;
  timeout?: number;
  json: boolean;
  junit?: string;
  minAgreement?: number;
}

/** Runs verify for parsed flags and returns the exit code; writes to stdout and stderr. */
export async function runVerifyCommand(flags: VerifyFlags): Promise<number> {
  const token = process.env[flags.tokenEnv];
  const fail = (message: string) => {
    process.stderr.write(`powercontext-mock verify: ${message}\n`);
    return VERIFY_EXIT.error;
  };
  if (token === undefined || token === "") return fail(`the environment variable ${flags.tokenEnv} holds no token`);
  const spellings = secretSpellings(secretsOf(token));
  const interrupt = new AbortController();
  const onSigint = () => interrupt.abort();
  process.once("SIGINT", onSigint);
  const progress = process.stderr.isTTY === true;
  try {
    const result = await verifyServer({
      server: flags.server,
      token,
      seed: flags.seed,
      k: flags.k,
      readOnly: flags.readOnly,
      allowInsecure: flags.allowInsecure,
      allowWrites: flags.allowWrites,
      maxRequests: flags.maxRequests,
      timeoutMs: flags.timeout === undefined ? undefined : flags.timeout * 1000,
      minAgreement: flags.minAgreement,
      signal: interrupt.signal,
      onProgress: progress ? (done, total) => process.stderr.write(`\r  ${done}/${total} requests`) : undefined,
    });
    if (progress) process.stderr.write("\n");
    const out = flags.json ? JSON.stringify(result, null, 1) : formatVerify(result);
    process.stdout.write(`${redact(out, spellings)}\n`);
    if (flags.junit !== undefined)
      writeFileSync(flags.junit, redact(junitReport(result.cases, "powercontext-mock verify"), spellings));
    if (result.stopped === "interrupted") return VERIFY_EXIT.interrupted;
    return result.passed ? VERIFY_EXIT.passed : VERIFY_EXIT.below;
  } catch (error) {
    if (error instanceof VerifyStoppedError) {
      fail(redact(error.message, spellings));
      return error.reason === "interrupted" ? VERIFY_EXIT.interrupted : VERIFY_EXIT.error;
    }
    if (error instanceof VerifyUsageError || error instanceof VerifyConnectionError)
      return fail(redact(error.message, spellings));
    // a side that stops answering mid-run, or anything else: no verdict, exit 2
    return fail(redact(error instanceof Error ? error.message : String(error), spellings));
  } finally {
    process.removeListener("SIGINT", onSigint);
  }
}

/** Adds the `verify` subcommand to the `powercontext-mock` program. */
export function addVerifyCommand(program: Command): void {
  program
    .command("verify")
    .description("check that this mock answers as your PowerContext server does (docs/verify.md)")
    .requiredOption("--server <url>", "the server's base URL (https://, or http:// to loopback)")
    .requiredOption("--token-env <name>", "environment variable holding the server's bearer token")
    .option(
      "--seed <n>",
      `seed of the requests, 0 to ${MAX_SEED} (a new one when absent; printed for replay)`,
      integer("seed", 0, MAX_SEED),
    )
    .option("--k <n>", `requests per operation, 1 to ${MAX_K}`, integer("k", 1), 2)
    .option("--read-only", "send only operations without side effects", false)
    .option("--allow-insecure", "allow plaintext http:// to a host that is not loopback", false)
    .option("--allow-writes", "allow writes (in Scopes verify creates) to a server that is not loopback", false)
    .option("--max-requests <n>", "most requests of the random run", integer("max requests", 1))
    .option("--timeout <seconds>", "time limit of the whole run; it stops there and reports", seconds)
    .option("--json", "print the report as JSON", false)
    .option("--junit <file>", "write a JUnit XML report (one test case per operation and request)")
    .option(
      "--min-agreement <fraction>",
      `least status+code agreement for exit code 0 (default ${RANDOM_TARGETS.verify.codeRatio})`,
      fraction,
    )
    // a usage error (a missing or bad option) exits 2, as a connection error does
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : VERIFY_EXIT.error))
    .action(async (flags: VerifyFlags) => {
      process.exitCode = await runVerifyCommand(flags);
    });
}
