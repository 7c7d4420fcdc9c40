import { readFileSync } from "node:fs";
import { Command, InvalidArgumentError, Option } from "commander";
import { defaultPrincipals } from "../simulator/access/principals.js";
import { describeDemo, prepareDemo } from "./demo.js";
import { loadPrincipalsFile } from "./principals-file.js";
import { startMockServer } from "./start.js";
import { MAX_SEED } from "../simulator/random.js";
import { exposureProblem, holdsDocumentedTokens } from "./exposure.js";

/**
 * `powercontext-mock serve --port 0 --seed 1 [--config principals.json] [--max-body-bytes N] [--scope ID...] [--inference on|off] [--cors] [--demo]`:
 * serves the simulator on loopback, prints its base URL on one line (stdout), and
 * closes gracefully on SIGINT or SIGTERM. With `--demo` it first prepares a
 * blocked Topic Memory scope and a failed Operation and describes them on stderr.
 * Tokens are never printed. The whole program, `verify` included, is `src/cli.ts`.
 */

/**
 * A whole number written in decimal digits (`1e3`, `0x10`, `+5`, `7.0` and an empty value are
 * refused, not read as numbers). A refusal is a usage error: exit code 2, as for a host that
 * is refused.
 */
function integer(name: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = Number(value.trim());
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max)
      throw Object.assign(new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}`), {
        exitCode: 2,
      });
    return n;
  };
}

/** The package version, read from package.json (two levels above both src/server/ and dist/server/). */
const VERSION: string = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

/** Builds the `serve` part of the command line program (exported for tests; src/cli.ts adds `verify`). */
export function createProgram(): Command {
  const program = new Command("powercontext-mock")
    .description("PowerContext contract simulator over HTTP")
    .version(VERSION, "--version", "show the version and exit");
  program
    .command("serve")
    .description("serve the simulator on a loopback port and print its URL")
    .option("--port <n>", "TCP port, 0 for a free one (up to 65535)", integer("port", 0, 65_535), 0)
    .option(
      "--host <host>",
      "interface to bind; outside loopback it needs --config (or --allow-default-tokens)",
      "127.0.0.1",
    )
    .option(
      "--allow-default-tokens",
      "serve the documented tokens (pc-admin, ...) on a host that is not loopback",
      false,
    )
    .option("--seed <n>", `seed of server-assigned ids, 0 to ${MAX_SEED} (32 bits)`, integer("seed", 0, MAX_SEED), 1)
    .option("--config <file>", "principals JSON file (token -> principal and role bindings)")
    .option("--wait-budget-ms <ms>", "how long a flush waits before answering 202", integer("wait budget", 0))
    .option("--flush-running-ms <ms>", "how long one flush attempt runs", integer("running time", 0))
    .option(
      "--max-body-bytes <n>",
      "largest request body read, in bytes; larger ones answer 413 (default 16 MiB)",
      integer("body limit", 1),
    )
    .option(
      "--scope <id...>",
      "scope ids that exist from the start, beside the default scope (others answer 404 scope_not_found, as on the released server)",
    )
    .addOption(
      new Option(
        "--inference <mode>",
        "on: an inference model is present; off: answer as a default 1.4.1 install without one",
      )
        .choices(["on", "off"])
        .default("on"),
    )
    .option("--cors", "answer CORS for any origin, for a page on another origin (the release has no CORS)", false)
    .option(
      "--demo",
      "start with a blocked Topic Memory scope and a failed Operation to try the operator CLI on",
      false,
    )
    .action(
      async (
        opts: {
          port: number;
          host: string;
          seed: number;
          config?: string;
          waitBudgetMs?: number;
          flushRunningMs?: number;
          maxBodyBytes?: number;
          scope?: string[];
          inference: "on" | "off";
          cors: boolean;
          demo: boolean;
          allowDefaultTokens: boolean;
        },
        command: Command,
      ) => {
        // The demo's blocked and failed work is what a model's failures leave behind.
        if (opts.demo && opts.inference === "off")
          command.error("error: --demo needs an inference model (--inference on)");
        const principals = opts.config ? await loadPrincipalsFile(opts.config) : undefined;
        const own = principals !== undefined && !holdsDocumentedTokens(principals);
        const exposure = exposureProblem(opts.host, own, opts.allowDefaultTokens);
        if (exposure !== null) command.error(`error: ${exposure}`, { exitCode: 2 });
        const server = await startMockServer({
          port: opts.port,
          host: opts.host,
          seed: opts.seed,
          principals,
          maxRequestBodyBytes: opts.maxBodyBytes,
          inference: opts.inference,
          allowDefaultTokens: opts.allowDefaultTokens,
          cors: opts.cors,
          simulatorOptions: {
            ...(opts.waitBudgetMs !== undefined ? { waitBudgetMs: opts.waitBudgetMs } : {}),
            ...(opts.flushRunningMs !== undefined ? { flushTiming: { runningMs: opts.flushRunningMs } } : {}),
            ...(opts.scope !== undefined ? { scopes: opts.scope } : {}),
          },
        });
        if (opts.demo) {
          const demo = prepareDemo(server.simulator, principals ?? defaultPrincipals);
          for (const line of describeDemo(demo, server.url)) process.stderr.write(`${line}\n`);
        }
        process.stdout.write(`${server.url}\n`);
        const stop = () => {
          void server.close().then(() => process.exit(0));
        };
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      },
    );
  return program;
}

/** Runs the program on `argv` (defaults to `process.argv`). */
export async function main(argv: readonly string[] = process.argv): Promise<void> {
  await createProgram().parseAsync([...argv]);
}
