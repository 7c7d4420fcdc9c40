/**
 * `powercontext-ts topic-memory ...`: diagnose and explicitly retry blocked
 * Topic Memory processing (seed 000; `openapi.yaml` tag `topic-memory`).
 *
 * ```
 * topic-memory status --scope-id S             get_topic_memory_processing_status   scope.read
 * topic-memory block get --scope-id S BLOCK    get_topic_memory_processing_block    scope.read
 * topic-memory retry --scope-id S BLOCK        get_topic_memory_processing_block,   scope.read (to tell a replay)
 *                                              then retry_topic_memory_processing   scope.admin
 * ```
 */
import { PermissionDeniedError, type PowerContextClient } from "@powercontext/sdk";
import type { Command } from "commander";
import {
  formatProcessingBlock,
  formatProcessingStatus,
  formatRetryReceipt,
  type RetryVerdict,
} from "../format/processing.js";
import { printJson } from "../format/json.js";
import { terminalSafe } from "../format/terminal-safe.js";
import { type ContextProvider, printResult } from "./shared.js";

interface ScopeOption {
  scopeId: string;
}

const JSON_NOTES: Readonly<Record<RetryVerdict, string>> = {
  replayed: "note: replayed an earlier acceptance; no new budget was granted",
  accepted: "note: the block had no receipt before this call",
  unknown: "note: the block could not be read first; whether this call accepted the retry is not known",
};

/**
 * The retry answer is the same for a first acceptance and a replay, so the
 * block is read first: a receipt that already exists means a replay.
 *
 * @returns `retried_at` before the call (null: no receipt yet), or undefined
 *   when the caller may not read the block (403); other errors propagate,
 *   e.g. 404 for an unknown block, before anything is retried.
 */
async function readReceiptBefore(
  client: PowerContextClient,
  request: { scope_id: string; block_id: string },
): Promise<string | null | undefined> {
  try {
    return (await client.getTopicMemoryProcessingBlock(request)).retried_at;
  } catch (error) {
    if (error instanceof PermissionDeniedError) {
      return undefined;
    }
    throw error;
  }
}

/**
 * Adds the `topic-memory` group to `program`.
 *
 * @param program the root command.
 * @param contextOf gives an action its run context.
 */
export function registerTopicMemoryCommands(program: Command, contextOf: ContextProvider): void {
  const group = program
    .command("topic-memory")
    .description("Inspect and explicitly retry blocked Topic Memory processing");

  group
    .command("status")
    .description(
      "Show the Topic cursor, Source head, retained target and state of a scope, with the block when blocked",
    )
    .requiredOption("--scope-id <id>", "scope to inspect (needs scope.read)")
    .action(async (options: ScopeOption, command: Command) => {
      const context = contextOf(command);
      const status = await context.client().getTopicMemoryProcessingStatus({ scope_id: options.scopeId });
      printResult(context, status, (value) => formatProcessingStatus(value, options.scopeId, context.palette));
    });

  const block = group.command("block").description("Read processing block records");
  block
    .command("get")
    .description("Show one block record, including its retry receipt once a retry was accepted")
    .requiredOption("--scope-id <id>", "scope containing the block (needs scope.read)")
    .argument("<block-id>", "block id from `topic-memory status`")
    .action(async (blockId: string, options: ScopeOption, command: Command) => {
      const context = contextOf(command);
      const record = await context
        .client()
        .getTopicMemoryProcessingBlock({ scope_id: options.scopeId, block_id: blockId });
      printResult(context, record, formatProcessingBlock);
    });

  group
    .command("retry")
    .description(
      "Grant one new bounded budget to the current block (3 attempts, 512 requests, 64,000,000 tokens); " +
        "repeating it with the same block id returns the original acceptance",
    )
    .requiredOption("--scope-id <id>", "scope of the block (needs scope.admin)")
    .argument("<block-id>", "block id from `topic-memory status`; it is the replay key")
    .action(async (blockId: string, options: ScopeOption, command: Command) => {
      const context = contextOf(command);
      const client = context.client();
      const request = { scope_id: options.scopeId, block_id: blockId };
      const before = await readReceiptBefore(client, request);
      const receipt = await client.retryTopicMemoryProcessing(request);
      const verdict: RetryVerdict = before === undefined ? "unknown" : before === null ? "accepted" : "replayed";
      if (context.json) {
        printJson(context.stdout, receipt);
        context.stderr.line(JSON_NOTES[verdict]);
        return;
      }
      for (const line of formatRetryReceipt(terminalSafe(receipt), verdict)) {
        context.stdout.line(line);
      }
    });
}
