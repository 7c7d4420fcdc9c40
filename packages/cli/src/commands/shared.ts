/**
 * Plumbing shared by the command groups: how an action gets its context, and
 * how a wire object is printed in either output mode.
 */
import type { Command } from "commander";
import type { CommandContext } from "../context.js";
import { printJson } from "../format/json.js";
import { terminalSafe } from "../format/terminal-safe.js";

/** Returns the run's context for the command whose action is running. */
export type ContextProvider = (command: Command) => CommandContext;

/**
 * Prints a result: the wire object as JSON with `--json`, otherwise the
 * human lines produced by `human`, which receives a copy whose strings have
 * their control characters escaped (format/terminal-safe.ts).
 *
 * @param context the run's context.
 * @param value the wire object.
 * @param human renders the human layout (only called without `--json`).
 */
export function printResult<T>(context: CommandContext, value: T, human: (value: T) => readonly string[]): void {
  if (context.json) {
    printJson(context.stdout, value);
    return;
  }
  for (const line of human(terminalSafe(value))) {
    context.stdout.line(line);
  }
}

/**
 * Separates the SDK's `reconciled: true` marker (runtime README, "Guarded reconciliation"
 * operations) from the wire resource, so `--json` prints exactly the wire
 * object and the human output can say what happened.
 *
 * @returns the resource without the marker, and whether it was present.
 */
export function splitReconciled<T extends object>(value: T): { resource: T; reconciled: boolean } {
  if (!("reconciled" in value)) {
    return { resource: value, reconciled: false };
  }
  const { reconciled, ...rest } = value as T & { reconciled?: unknown };
  return { resource: rest as T, reconciled: reconciled === true };
}
