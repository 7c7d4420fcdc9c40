/**
 * Human layouts for Operations (seed 002): one Operation in detail, a list as
 * a table, and the flush result a succeeded `memory_flush` carries.
 */
import type { Operation } from "../wire.js";
import { type Row, renderRows, renderTable, show } from "./layout.js";

/** The `result` of a succeeded `memory_flush`: the wire `FlushMemoryResponse`. */
export type FlushResult = NonNullable<Operation["result"]>;

function errorLabel(error: Operation["error"]): string {
  return error === null ? "null" : `${error.category}/${error.code}`;
}

/**
 * Rows of a flush result (`FlushMemoryResponse`): status, the Memory cursor
 * move and the Memory Artifact written, if any. The row is labelled "Memory
 * cursor" so it is never confused with the Topic Memory processing cursor
 * ("Topic cursor", processing.ts).
 *
 * @param result the wire object.
 * @param depth nesting level of the rows.
 */
export function flushResultRows(result: FlushResult, depth = 0): Row[] {
  const memory = result.memory ?? null;
  return [
    { label: "Flush status", value: result.status, depth },
    {
      label: "Memory cursor",
      value: `${result.previous_cursor} -> ${result.current_cursor}`,
      note: "previous_cursor -> current_cursor",
      depth,
    },
    { label: "High watermark", value: show(result.high_watermark), depth },
    { label: "Processed Sources", value: show(result.processed_source_count), depth },
    {
      label: "Memory",
      value: memory === null ? "null" : `${memory.family}/${memory.artifact_id}@${memory.revision}`,
      depth,
    },
  ];
}

/**
 * What the version is good for in this status: a queued Operation can be
 * cancelled until a worker starts it, a failed one cancelled or retried; a
 * running or finished one neither (the server answers 409
 * invalid_operation_transition).
 */
function versionNote(status: Operation["status"]): string | undefined {
  if (status === "queued") return "pass as --expected-version to cancel while it is still queued";
  if (status === "failed") return "pass as --expected-version to cancel or retry";
  return undefined;
}

/**
 * One Operation in detail (`operations get`, `cancel`, `retry`, `wait`).
 *
 * @param operation the wire `Operation`.
 */
export function formatOperation(operation: Operation): string[] {
  const rows: Row[] = [
    { label: "Operation", value: operation.operation_id },
    { label: "Kind", value: operation.kind },
    { label: "Scope", value: operation.scope_id },
    { label: "Status", value: operation.status },
    { label: "Version", value: show(operation.version), note: versionNote(operation.status) },
    { label: "Attempts", value: show(operation.attempt_count) },
    { label: "Error", value: errorLabel(operation.error) },
    { label: "Created at", value: operation.created_at },
    { label: "Updated at", value: operation.updated_at },
    { label: "Started at", value: show(operation.started_at) },
    { label: "Finished at", value: show(operation.finished_at) },
  ];
  if (operation.result !== null) {
    rows.push({ label: "Result", value: "" }, ...flushResultRows(operation.result, 1));
  } else {
    rows.push({ label: "Result", value: "null" });
  }
  return renderRows(rows);
}

/**
 * All Operations of a listing as one table, newest first as the server
 * returned them, followed by a count line.
 *
 * @param operations every Operation of every page.
 */
export function formatOperationTable(operations: readonly Operation[]): string[] {
  if (operations.length === 0) {
    return ["No operations found."];
  }
  const lines = renderTable(
    ["OPERATION", "KIND", "STATUS", "VERSION", "ATTEMPTS", "UPDATED", "ERROR"],
    operations.map((operation) => [
      operation.operation_id,
      operation.kind,
      operation.status,
      String(operation.version),
      String(operation.attempt_count),
      operation.updated_at,
      operation.error === null ? "-" : errorLabel(operation.error),
    ]),
  );
  lines.push(`${operations.length} operation${operations.length === 1 ? "" : "s"}`);
  return lines;
}

/**
 * A flush that finished without leaving an Operation (200 from `flush_memory`).
 *
 * @param result the wire `FlushMemoryResponse`.
 */
export function formatFlushResult(result: FlushResult): string[] {
  return renderRows(flushResultRows(result));
}

/**
 * A short state description for progress and pending lines, e.g.
 * `running, attempt 2`.
 */
export function operationState(operation: Pick<Operation, "status" | "attempt_count">): string {
  return `${operation.status}, attempt ${operation.attempt_count}`;
}
