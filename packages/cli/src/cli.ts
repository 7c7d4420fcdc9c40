/**
 * `powercontext-ts`: the operator CLI for Topic Memory recovery and background
 * Operations, built on `@powercontext/sdk`.
 *
 * ```
 * powercontext-ts [--server-url URL] [--timeout SECONDS] [--json] <group> <command> ...
 *   topic-memory status | block get | retry
 *   operations   list | get | cancel | retry | wait
 *   memory       flush [--wait] [--deadline 60s]
 * ```
 *
 * The token is read only from `POWERCONTEXT_CLIENT_API_TOKEN`. Exit codes are
 * listed in exit-codes.ts; failures print one line on stderr (errors.ts), plus
 * a `hint:` line when a 401 comes back and that variable is unset or blank.
 */
import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { registerMemoryCommands } from "./commands/memory.js";
import { registerOperationCommands } from "./commands/operations.js";
import type { ContextProvider } from "./commands/shared.js";
import { registerTopicMemoryCommands } from "./commands/topic-memory.js";
import { type ClientFactory, type CommandContext, createCommandContext, createContextBase } from "./context.js";
import { describeFailure, missingTokenHint } from "./errors.js";
import { ExitCode } from "./exit-codes.js";
import { escapeControls, escapeLines } from "./format/terminal-safe.js";
import type { CliEnvironment } from "./io.js";
import { secondsOption } from "./option-parsers.js";
import { type GlobalOptions, tokenState } from "./settings.js";

/** The package version, read from package.json (one level above both src/ and dist/). */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;

/** Commander error codes that mean "the user asked for output and got it", not a failure. */
const INFORMATIONAL = new Set(["commander.helpDisplayed", "commander.version"]);

/**
 * Builds the command tree. Usage errors are thrown as `CommanderError`
 * (never `process.exit`), help and version go to `stdout`, error text to
 * `stderr`, both through the token-scrubbing terminals.
 */
function buildProgram(
  contextOf: ContextProvider,
  write: { out: (text: string) => void; err: (text: string) => void },
): Command {
  const program = new Command("powercontext-ts")
    .description("Operate PowerContext: Topic Memory recovery and background Operations")
    .version(VERSION, "--version", "show the version and exit")
    .option(
      "--server-url <url>",
      "server base URL (default: $POWERCONTEXT_CLIENT_SERVER_URL, else http://127.0.0.1:8000)",
    )
    .option(
      "--timeout <seconds>",
      "per-request timeout in seconds (default: $POWERCONTEXT_CLIENT_TIMEOUT, else 10)",
      secondsOption,
    )
    .option("--json", "print the server's wire objects as JSON instead of the human layout")
    .addHelpText(
      "after",
      "\nThe API token is read from POWERCONTEXT_CLIENT_API_TOKEN only.\n" +
        "Exit codes: 0 ok, 1 server/transport/operation failure, 2 bad usage, 3 operation still pending at the deadline,\n" +
        "130 interrupted while waiting (the operation goes on).",
    )
    .exitOverride()
    .showSuggestionAfterError(false)
    .configureOutput({ writeOut: write.out, writeErr: write.err });
  registerTopicMemoryCommands(program, contextOf);
  registerOperationCommands(program, contextOf);
  registerMemoryCommands(program, contextOf);
  return program;
}

/** Test seams of {@link runCli}. */
export interface RunOptions {
  /** Builds the SDK client (default: `new PowerContextClient(options)`). */
  readonly createClient?: ClientFactory;
}

/**
 * Runs one command line and reports how it ended. Never throws and never
 * calls `process.exit`: the caller sets the exit code.
 *
 * @param argv the arguments after the executable, e.g. `["topic-memory", "status", "--scope-id", "s1"]`.
 * @param environment streams, environment variables and clock.
 * @param options test seams.
 * @returns the exit code (exit-codes.ts).
 */
export async function runCli(
  argv: readonly string[],
  environment: CliEnvironment,
  options: RunOptions = {},
): Promise<ExitCode> {
  const base = createContextBase(environment, options.createClient);
  let context: CommandContext | undefined;
  const contextOf: ContextProvider = (command) => {
    context ??= createCommandContext(base, command.optsWithGlobals<GlobalOptions>());
    return context;
  };
  // Commander's own lines (help, usage errors) quote what the operator typed:
  // escaped like every other line, so an argument cannot drive the terminal.
  // A usage error is one line: a line break inside it came from an argument.
  const program = buildProgram(contextOf, {
    out: (text) => base.stdout.raw(escapeLines(text)),
    err: (text) =>
      base.stderr.raw(text.startsWith("error:") ? `${escapeControls(text.replace(/\n$/, ""))}\n` : escapeLines(text)),
  });
  try {
    await program.parseAsync([...argv], { from: "user" });
    return context?.exitCode ?? ExitCode.Ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander already printed its one-line message (or the help text).
      return INFORMATIONAL.has(error.code) ? ExitCode.Ok : ExitCode.Usage;
    }
    const report = describeFailure(error, environment.env.POWERCONTEXT_CLI_DEBUG === "1");
    for (const line of report.lines) {
      base.stderr.line(line);
    }
    const hint = missingTokenHint(error, tokenState(environment.env));
    if (hint !== null) {
      base.stderr.line(hint);
    }
    return report.exitCode;
  }
}

/**
 * Entry point used by `bin/powercontext-ts.js`: runs against the real process
 * streams and environment.
 *
 * @param argv the arguments after the executable (`process.argv.slice(2)`).
 * @returns the exit code to set on the process.
 */
export function main(argv: readonly string[]): Promise<ExitCode> {
  // A reader that went away (`| head`) ends the output, not in a stack trace: stop quietly, as Unix tools do.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
      process.exit(ExitCode.Ok);
    });
  }
  return runCli(argv, {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    onInterrupt: (handler) => {
      process.once("SIGINT", handler);
      return () => process.off("SIGINT", handler);
    },
  });
}
