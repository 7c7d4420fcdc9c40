/**
 * What every command receives: the streams (scrubbed of the token), the
 * output mode, colours, a clock, and the SDK client, created on first use so
 * that `--help` and usage errors never need a server or a token.
 */
import { PowerContextClient, type ClientOptions } from "@powercontext/sdk";
import { ExitCode } from "./exit-codes.js";
import type { Palette } from "./format/palette.js";
import { paletteFor } from "./format/palette.js";
import { type CliEnvironment, Terminal } from "./io.js";
import { isInteractive } from "./progress.js";
import { type GlobalOptions, resolveClientOptions, secretsOf } from "./settings.js";

/** Builds the SDK client from resolved options; replaceable in tests. */
export type ClientFactory = (options: ClientOptions) => PowerContextClient;

/** The per-run state handed to command actions. */
export interface CommandContext {
  /** Results (human layout or JSON). */
  readonly stdout: Terminal;
  /** Errors, warnings, progress. */
  readonly stderr: Terminal;
  /** `--json`: print wire objects instead of human layouts. */
  readonly json: boolean;
  /** Colours for stdout (plain when stdout is not a terminal). */
  readonly palette: Palette;
  /** Whether stderr can show the live progress line. */
  readonly interactive: boolean;
  /** Milliseconds since the epoch. */
  now(): number;
  /**
   * Calls `handler` on Ctrl-C until the returned function is called; a no-op
   * where the environment offers no interrupts.
   */
  onInterrupt(handler: () => void): () => void;
  /** Exit code the run ends with when the action returns normally; actions raise it (for example to 3). */
  exitCode: ExitCode;
  /**
   * The SDK client for this run (created once, on first call).
   * @throws ConfigurationError when the settings are invalid (bad URL, bad timeout).
   */
  client(): PowerContextClient;
}

/** Pieces of the context that exist before options are parsed. */
export interface ContextBase {
  readonly environment: CliEnvironment;
  readonly stdout: Terminal;
  readonly stderr: Terminal;
  readonly createClient: ClientFactory;
}

/**
 * Wraps the process streams so that the token can never be written.
 *
 * @param environment streams, environment variables and clock of this run.
 * @param createClient how to build the client (default: `new PowerContextClient`).
 */
export function createContextBase(
  environment: CliEnvironment,
  createClient: ClientFactory = (options) => new PowerContextClient(options),
): ContextBase {
  const secrets = secretsOf(environment.env);
  return {
    environment,
    stdout: new Terminal(environment.stdout, secrets),
    stderr: new Terminal(environment.stderr, secrets),
    createClient,
  };
}

/**
 * Completes the context once the global options are known.
 *
 * @param base from {@link createContextBase}.
 * @param options the parsed global options (`--server-url`, `--timeout`, `--json`).
 */
export function createCommandContext(base: ContextBase, options: GlobalOptions): CommandContext {
  const { environment } = base;
  let client: PowerContextClient | undefined;
  return {
    stdout: base.stdout,
    stderr: base.stderr,
    json: options.json === true,
    palette: paletteFor(environment.stdout, environment.env),
    interactive: isInteractive(base.stderr, environment.env),
    now: environment.now ?? Date.now,
    exitCode: ExitCode.Ok,
    onInterrupt: environment.onInterrupt ?? (() => () => {}),
    client() {
      client ??= base.createClient(resolveClientOptions(options, environment.env));
      return client;
    },
  };
}
