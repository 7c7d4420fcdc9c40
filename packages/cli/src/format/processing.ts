/**
 * Human layouts for Topic Memory processing (seed 000): the status of a scope,
 * one block record, and the receipt of an accepted retry.
 *
 * The three `*_source_through` fields of a block mean different things (exact
 * end selected by the last attempt, cumulative budget coverage, an imported
 * ambiguous range) and any of them may be null, so each gets its own row,
 * labelled with its wire name, and null is printed as `null`, never as 0 or
 * blank. Nothing is derived from one field to fill another.
 */
import type { ProcessingBlock, ProcessingStatus, RetryReceipt } from "../wire.js";
import { type Row, renderRows, show } from "./layout.js";
import { type Palette, plainPalette } from "./palette.js";
import { escapeControls } from "./terminal-safe.js";

function colourState(state: string, palette: Palette): string {
  if (state === "blocked") {
    return palette.red(state);
  }
  if (state === "pending") {
    return palette.yellow(state);
  }
  return palette.green(state);
}

/**
 * Rows of one block record. `depth` indents the whole block (1 inside a status).
 *
 * @param block the wire `TopicMemoryProcessingBlock`.
 * @param depth nesting level of the rows after the first.
 */
export function blockRows(block: ProcessingBlock, depth = 0): Row[] {
  const inner = depth + 1;
  const receipt = block.retried_at === null ? "no retry accepted yet" : "retry accepted; replays return this receipt";
  return [
    { label: "Block", value: block.block_id, depth },
    { label: "Scope", value: block.scope_id, depth: inner },
    { label: "Binding", value: block.binding_name, depth: inner },
    {
      label: "Topic cursor",
      value: show(block.source_after),
      note: "source_after: the window starts after it",
      depth: inner,
    },
    { label: "Attempt", value: block.attempt_id, note: "last admitted attempt", depth: inner },
    {
      label: "source_through",
      value: show(block.source_through),
      note: "exact end selected by the last attempt",
      depth: inner,
    },
    {
      label: "budget_source_through",
      value: show(block.budget_source_through),
      note: "cumulative coverage of the budget",
      depth: inner,
    },
    {
      label: "legacy_source_through",
      value: show(block.legacy_source_through),
      note: "imported ambiguous range",
      depth: inner,
    },
    {
      label: "target_source_through",
      value: show(block.target_source_through),
      note: "target when the block was observed",
      depth: inner,
    },
    {
      label: "Reserved",
      value: `${block.attempts} attempts, ${block.requests} requests, ${block.tokens} tokens`,
      depth: inner,
    },
    { label: "Error", value: block.error_code, depth: inner },
    { label: "Last attempt error", value: show(block.last_error_code), depth: inner },
    { label: "Blocked at", value: block.blocked_at, depth: inner },
    { label: "Retried at", value: show(block.retried_at), note: receipt, depth: inner },
    {
      label: "Retry generation",
      value: show(block.retry_request_generation),
      note: "retry_request_generation",
      depth: inner,
    },
  ];
}

/**
 * The status of a scope: state, Topic cursor, Source head and retained target,
 * then the current block when the state is `blocked`. The processing cursor is
 * labelled "Topic cursor" (here and in {@link blockRows}) so it is never
 * confused with the Memory cursor of a flush result ("Memory cursor",
 * operation.ts).
 *
 * @param status the wire `TopicMemoryProcessingStatus`.
 * @param scopeId the scope that was asked about (the status itself does not repeat it).
 * @param palette colours (plain by default).
 * @returns lines without newlines.
 */
export function formatProcessingStatus(
  status: ProcessingStatus,
  scopeId: string,
  palette: Palette = plainPalette,
): string[] {
  const scope = escapeControls(scopeId);
  const rows: Row[] = [
    { label: "Scope", value: scope },
    { label: "State", value: colourState(status.state, palette), note: stateNote(status.state) },
    {
      label: "Topic cursor",
      value: show(status.source_cursor),
      note: "source_cursor: Sources after it are not in Topic Memory yet",
    },
    { label: "Source head", value: show(status.source_head), note: "source_head: newest Source of the scope" },
    { label: "Target", value: show(status.target_source_through), note: "target_source_through: retained target" },
  ];
  if (status.block !== null) {
    rows.push(...blockRows(status.block, 0));
  }
  const lines = renderRows(rows);
  if (status.block !== null) {
    lines.push("", `Retry with: powercontext-ts topic-memory retry --scope-id ${scope} ${status.block.block_id}`);
  }
  return lines;
}

function stateNote(state: string): string {
  if (state === "blocked") {
    return "budget exhausted; an operator must retry";
  }
  if (state === "pending") {
    return "work is scheduled or the last attempt may still publish";
  }
  return "nothing to do";
}

/**
 * One block record on its own (`topic-memory block get`).
 *
 * @param block the wire `TopicMemoryProcessingBlock`.
 */
export function formatProcessingBlock(block: ProcessingBlock): string[] {
  return renderRows(blockRows(block, 0));
}

/**
 * Whether a retry call accepted the retry itself or returned an earlier
 * acceptance; `unknown` when the block could not be read first (the caller
 * may retry but lacks scope.read).
 */
export type RetryVerdict = "replayed" | "accepted" | "unknown";

const HEADLINES: Readonly<Record<RetryVerdict, string>> = {
  replayed: "Retry already accepted earlier (replayed receipt); no new budget was granted.",
  accepted: "Retry accepted (receipt below); the block had no receipt before this call.",
  unknown:
    "Retry accepted (receipt below); the block could not be read first, so whether this call or an earlier one accepted it is not known.",
};

/**
 * The receipt of `topic-memory retry`: a verdict line, then the receipt pair.
 * The server's answer is `{ status: "accepted", block }` for a first
 * acceptance and for every replay alike.
 *
 * The retry response is identical for a first acceptance and a replay, so the
 * verdict comes from the block as read just before the call:
 * - `replayed`: `retried_at` was already set, so this call returned the
 *   earlier acceptance unchanged and granted no budget;
 * - `accepted`: there was no receipt when the call began, so the retry was
 *   accepted during it. Another operator retrying the same block at the same
 *   moment could have been the one accepted; the wording claims no more than
 *   that the receipt below now exists;
 * - `unknown`: the block could not be read before the call.
 *
 * @param receipt the wire response of `retry_topic_memory_processing`.
 * @param verdict see above.
 */
export function formatRetryReceipt(receipt: RetryReceipt, verdict: RetryVerdict): string[] {
  const { block } = receipt;
  return [
    HEADLINES[verdict],
    ...renderRows([
      { label: "Status", value: receipt.status },
      { label: "Block", value: block.block_id },
      { label: "Scope", value: block.scope_id },
      { label: "Retried at", value: show(block.retried_at), note: "retried_at" },
      { label: "Retry generation", value: show(block.retry_request_generation), note: "retry_request_generation" },
    ]),
  ];
}
