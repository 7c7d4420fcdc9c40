/**
 * Waiting for an Operation with visible progress, shared by `operations wait`
 * and `memory flush --wait` (seed 002; `get_operation` polling in the SDK).
 *
 * Outcomes, and what the operator sees:
 * - succeeded: returns the Operation; the caller prints the result (exit 0);
 * - failed / cancelled: prints the Operation and one error line (exit 1);
 * - still queued or running at the deadline: prints the operation id, its
 *   last known state and the exact command that resumes waiting (exit 3);
 * - interrupted (Ctrl-C): the same two lines, exit 130. Interrupting only
 *   stops waiting; the Operation itself goes on.
 */
import { AbortError, OperationCancelledError, OperationFailedError, OperationPendingError } from "@powercontext/sdk";
import type { CommandContext } from "./context.js";
import { formatDuration } from "./duration.js";
import { describeFailure, pendingLines } from "./errors.js";
import { ExitCode } from "./exit-codes.js";
import { printJson } from "./format/json.js";
import { formatOperation, operationState } from "./format/operation.js";
import { terminalSafe } from "./format/terminal-safe.js";
import { type ProgressReporter, createProgressReporter } from "./progress.js";
import type { Operation } from "./wire.js";

/** How one wait is run. */
export interface WaitPlan {
  /** Total budget in milliseconds, counted from `startedAt`. */
  readonly deadlineMs: number;
  /** When the command started (ms since epoch); submit time counts toward the deadline. */
  readonly startedAt: number;
  /** The reporter already showing progress for this command, if any. */
  readonly progress?: ProgressReporter;
  /** The Operation as last seen before waiting (for example the accepted 202 body). */
  readonly lastKnown?: Operation | null;
}

function isOperation(value: unknown): value is Operation {
  return typeof value === "object" && value !== null && typeof (value as Operation).operation_id === "string";
}

function snapshotOf(operation: Record<string, unknown>, operationId: string) {
  return {
    operationId: typeof operation.operation_id === "string" ? operation.operation_id : operationId,
    status: typeof operation.status === "string" ? operation.status : "unknown",
    attemptCount: typeof operation.attempt_count === "number" ? operation.attempt_count : 0,
  };
}

/**
 * Polls `operationId` until it is terminal or the deadline passes, showing
 * progress on stderr (live line on a terminal, plain lines otherwise).
 *
 * @returns the succeeded Operation, or null when the outcome was already
 *   reported and `context.exitCode` set (1 for failed/cancelled, 3 for pending).
 * @throws the SDK's errors for anything else (404, 401, transport, ...).
 */
export async function waitWithProgress(
  context: CommandContext,
  operationId: string,
  plan: WaitPlan,
): Promise<Operation | null> {
  // Subscribe before anything is shown, so a Ctrl-C after the first progress line is ours.
  const interrupt = new AbortController();
  const unsubscribe = context.onInterrupt(() => interrupt.abort());
  const progress =
    plan.progress ??
    createProgressReporter(context.stderr, {
      interactive: context.interactive,
      now: context.now,
      startedAt: plan.startedAt,
    });
  let lastKnown: Operation | null = plan.lastKnown ?? null;
  if (lastKnown !== null) {
    progress.update(snapshotOf(lastKnown as unknown as Record<string, unknown>, operationId));
  } else {
    progress.phase(`waiting for operation ${operationId}`);
  }
  const remaining = Math.max(1, plan.deadlineMs - (context.now() - plan.startedAt));
  try {
    const operation = await context.client().waitForOperation(operationId, {
      deadlineMs: remaining,
      signal: interrupt.signal,
      onProgress: (resource) => {
        if (isOperation(resource)) {
          lastKnown = resource;
        }
        progress.update(snapshotOf(resource, operationId));
      },
    });
    progress.stop();
    return operation;
  } catch (error) {
    progress.stop();
    const interrupted = error instanceof AbortError && interrupt.signal.aborted;
    if (error instanceof OperationPendingError || interrupted) {
      const reported = error instanceof OperationPendingError && isOperation(error.lastKnown) ? error.lastKnown : null;
      const known = reported ?? lastKnown;
      if (context.json && known !== null) {
        printJson(context.stdout, known);
      }
      const state = known === null ? null : operationState(known);
      const lines = pendingLines(operationId, state, formatDuration(context.now() - plan.startedAt));
      if (interrupted) {
        lines[0] = `interrupted: ${lines[0]}`;
      }
      for (const line of lines) {
        context.stderr.line(line);
      }
      context.exitCode = interrupted ? ExitCode.Interrupted : ExitCode.Pending;
      return null;
    }
    if (error instanceof OperationFailedError || error instanceof OperationCancelledError) {
      const operation = isOperation(error.operation) ? error.operation : null;
      if (operation !== null) {
        if (context.json) {
          printJson(context.stdout, operation);
        } else {
          for (const line of formatOperation(terminalSafe(operation))) context.stdout.line(line);
        }
      }
      const report = describeFailure(error);
      for (const line of report.lines) context.stderr.line(line);
      context.exitCode = report.exitCode;
      return null;
    }
    throw error;
  } finally {
    unsubscribe();
  }
}
