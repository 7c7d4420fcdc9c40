/**
 * `powercontext-ts memory flush`: turn the pending Source window of a scope
 * into Memory (`flush_memory`, scope.contribute; seed 002).
 *
 * Without `--wait` the flush is submitted once and the first answer printed:
 * the finished result (200) or the accepted Operation (202) with the command
 * that waits for it. With `--wait` the CLI also polls the Operation, showing
 * progress on stderr, until it finishes or `--deadline` passes (exit 3, with
 * the resume command). The deadline covers the submission too.
 */
import type { Command } from "commander";
import type { CommandContext } from "../context.js";
import { formatFlushResult, formatOperation, type FlushResult } from "../format/operation.js";
import { createProgressReporter } from "../progress.js";
import { waitWithProgress } from "../wait.js";
import type { Operation } from "../wire.js";
import { deadlineOption } from "./operations.js";
import { type ContextProvider, printResult } from "./shared.js";

interface FlushOptions {
  scopeId: string;
  wait?: boolean;
  deadline: number;
}

function printFinished(context: CommandContext, result: FlushResult, operationId: string | null): void {
  printResult(context, result, (value) => [
    operationId === null ? "Flush finished." : `Flush finished (operation ${operationId}).`,
    ...formatFlushResult(value),
  ]);
}

function printAccepted(context: CommandContext, operation: Operation): void {
  printResult(context, operation, (value) => [
    `Flush accepted as operation ${value.operation_id} (${value.status}).`,
    ...formatOperation(value),
    "",
    `Wait for it with: powercontext-ts operations wait ${value.operation_id}`,
  ]);
}

async function flush(context: CommandContext, options: FlushOptions): Promise<void> {
  const startedAt = context.now();
  const client = context.client();
  const request = { scope_id: options.scopeId };
  if (options.wait !== true) {
    const outcome = await client.submitFlushMemory(request);
    if (outcome.state === "completed") {
      printFinished(context, outcome.result, null);
    } else {
      printAccepted(context, outcome.operation);
    }
    return;
  }
  const progress = createProgressReporter(context.stderr, {
    interactive: context.interactive,
    now: context.now,
    startedAt,
  });
  progress.phase(`submitting flush for scope ${options.scopeId}`);
  let outcome: Awaited<ReturnType<typeof client.submitFlushMemory>>;
  try {
    outcome = await client.submitFlushMemory(request, { deadlineMs: options.deadline });
  } catch (error) {
    progress.stop();
    throw error;
  }
  if (outcome.state === "completed") {
    progress.stop();
    printFinished(context, outcome.result, null);
    return;
  }
  const accepted = outcome.operation;
  const operation = await waitWithProgress(context, accepted.operation_id, {
    deadlineMs: options.deadline,
    startedAt,
    progress,
    lastKnown: accepted,
  });
  if (operation === null) {
    return;
  }
  if (operation.result === null) {
    printResult(context, operation, formatOperation);
    return;
  }
  printFinished(context, operation.result, operation.operation_id);
}

/**
 * Adds the `memory` group to `program`.
 *
 * @param program the root command.
 * @param contextOf gives an action its run context.
 */
export function registerMemoryCommands(program: Command, contextOf: ContextProvider): void {
  const group = program.command("memory").description("Memory maintenance");
  group
    .command("flush")
    .description("Process the pending Source window of a scope into Memory")
    .requiredOption("--scope-id <id>", "scope to flush (needs scope.contribute)")
    .option("--wait", "wait for a queued or running flush to finish, showing progress on stderr")
    .addOption(deadlineOption())
    .action(async (options: FlushOptions, command: Command) => {
      await flush(contextOf(command), options);
    });
}
