/**
 * `powercontext-ts operations ...`: the Operation API (seed 002; `openapi.yaml`
 * tag `operations`).
 *
 * ```
 * operations list --scope-id S [--status X] [--kind K] [--page-size N]   list_operations (every page)   scope.read
 * operations get ID                                                      get_operation                  scope.read
 * operations cancel ID --expected-version N                              cancel_operation               scope.admin
 * operations retry ID --expected-version N                               retry_operation                scope.admin
 * operations wait ID [--deadline 60s]                                    get_operation, polled          scope.read
 * ```
 */
import { type Command, Option } from "commander";
import type { CommandContext } from "../context.js";
import { formatOperation, formatOperationTable } from "../format/operation.js";
import { integerOption, durationOption } from "../option-parsers.js";
import { waitWithProgress } from "../wait.js";
import type { Operation } from "../wire.js";
import { type ContextProvider, printResult, splitReconciled } from "./shared.js";

/** Default `--deadline` of `operations wait`, in milliseconds (the SDK's operation deadline). */
export const DEFAULT_WAIT_DEADLINE_MS = 60_000;

interface ListOptions {
  scopeId: string;
  status?: string;
  kind?: string;
  pageSize?: number;
}

interface VersionOption {
  expectedVersion: number;
}

/**
 * `--deadline <duration>`: total wait budget in milliseconds, default 60 s.
 * Shared with `memory flush --wait`.
 */
export function deadlineOption(): Option {
  return new Option("--deadline <duration>", "how long to wait in total, e.g. 500ms, 60s, 2m")
    .argParser(durationOption)
    .default(DEFAULT_WAIT_DEADLINE_MS, "60s");
}

/** Prints the Operation a cancel or retry returned, saying when the SDK reconciled an uncertain re-send. */
function printChanged(context: CommandContext, value: Operation, verb: string): void {
  const { resource, reconciled } = splitReconciled(value);
  if (reconciled) {
    context.stderr.line(
      `note: the first ${verb} request had an unknown outcome; the operation shows it took effect (reconciled)`,
    );
  }
  printResult(context, resource, (operation) => [
    `Operation ${operation.operation_id} is now ${operation.status} (version ${operation.version}).`,
    ...formatOperation(operation),
  ]);
}

/**
 * Adds the `operations` group to `program`.
 *
 * @param program the root command.
 * @param contextOf gives an action its run context.
 */
export function registerOperationCommands(program: Command, contextOf: ContextProvider): void {
  const group = program
    .command("operations")
    .description("List, inspect, cancel, retry and wait for background Operations");

  group
    .command("list")
    .description("List every Operation of a scope, newest first (follows all pages)")
    .requiredOption("--scope-id <id>", "scope whose Operations are listed (needs scope.read)")
    .option("--status <status>", "only Operations in this status: queued, running, succeeded, failed or cancelled")
    .option("--kind <kind>", "only Operations of this kind, for example memory_flush")
    .option(
      "--page-size <n>",
      "Operations fetched per request, 1-200 (default: the server's, 50)",
      integerOption(1, 200),
    )
    .action(async (options: ListOptions, command: Command) => {
      const context = contextOf(command);
      const request: Parameters<ReturnType<CommandContext["client"]>["listOperationsAll"]>[0] = {
        scope_id: options.scopeId,
      };
      if (options.status !== undefined) request.status = options.status as typeof request.status;
      if (options.kind !== undefined) request.kind = options.kind as typeof request.kind;
      if (options.pageSize !== undefined) request.limit = options.pageSize;
      const operations: Operation[] = [];
      for await (const operation of context.client().listOperationsAll(request)) {
        operations.push(operation);
      }
      // One OperationPage holding every item: the same wire shape as a last page.
      printResult(context, { operations, next_cursor: null }, (page) => formatOperationTable(page.operations));
    });

  group
    .command("get")
    .description("Show one Operation")
    .argument("<operation-id>", "the Operation id")
    .action(async (operationId: string, _options: object, command: Command) => {
      const context = contextOf(command);
      const operation = await context.client().getOperation({ operation_id: operationId });
      printResult(context, operation, formatOperation);
    });

  group
    .command("cancel")
    .description("Cancel a queued or failed Operation (a failed one releases the window it holds)")
    .argument("<operation-id>", "the Operation id")
    .requiredOption(
      "--expected-version <n>",
      "the version you last saw; the cancel applies only if it still matches",
      integerOption(1),
    )
    .action(async (operationId: string, options: VersionOption, command: Command) => {
      const context = contextOf(command);
      const operation = await context
        .client()
        .cancelOperation({ operation_id: operationId, expected_version: options.expectedVersion });
      printChanged(context, operation, "cancel");
    });

  group
    .command("retry")
    .description("Queue a failed Operation again; it keeps its id and window")
    .argument("<operation-id>", "the Operation id")
    .requiredOption(
      "--expected-version <n>",
      "the version you last saw; the retry applies only if it still matches",
      integerOption(1),
    )
    .action(async (operationId: string, options: VersionOption, command: Command) => {
      const context = contextOf(command);
      const operation = await context
        .client()
        .retryOperation({ operation_id: operationId, expected_version: options.expectedVersion });
      printChanged(context, operation, "retry");
    });

  group
    .command("wait")
    .description(
      "Wait until an Operation succeeds, fails or is cancelled; exit 3 if it is still pending at the deadline",
    )
    .argument("<operation-id>", "the Operation id")
    .addOption(deadlineOption())
    .action(async (operationId: string, options: { deadline: number }, command: Command) => {
      const context = contextOf(command);
      const operation = await waitWithProgress(context, operationId, {
        deadlineMs: options.deadline,
        startedAt: context.now(),
      });
      if (operation !== null) {
        printResult(context, operation, formatOperation);
      }
    });
}
