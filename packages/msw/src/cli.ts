import type { Command } from "commander";
import { createProgram as createServeProgram } from "./server/cli.js";
import { addVerifyCommand } from "./verify/verify-command.js";

/**
 * Builds the `powercontext-mock` program: `serve` (server/cli.ts) and `verify`
 * (verify/verify-command.ts, docs/verify.md).
 */
export function createProgram(): Command {
  const program = createServeProgram();
  addVerifyCommand(program);
  return program;
}

/** Runs the program on `argv` (defaults to `process.argv`). */
export async function main(argv: readonly string[] = process.argv): Promise<void> {
  await createProgram().parseAsync([...argv]);
}
