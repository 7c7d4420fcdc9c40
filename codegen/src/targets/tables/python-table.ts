import type { ApiIr } from "../../ir/model.js";
import { bannerText } from "../../emit/banner.js";

/** One row of the operation table in the upstream Python Client SDK's terms. */
export interface PythonOperationRow {
  readonly operation_id: string;
  readonly method: string;
  readonly path: string;
  readonly request_location: "body" | "query" | "path" | null;
  readonly success_status: number;
  readonly request_type: string | null;
  readonly response_type: string | null;
  readonly scope: boolean;
  readonly retry_class: string;
  readonly permission: string | null;
}

/**
 * Emits `packages/types/generated/operations.json`: the same format as the
 * upstream table (`{spec, operations: [...]}` sorted by operation_id) plus
 * `retry_class` and `permission` per row. JSON has no comments, so the banner is
 * the `$comment` member, written first.
 */
export function emitPythonTable(ir: ApiIr): string {
  const operations: PythonOperationRow[] = ir.operations.map((op) => ({
    operation_id: op.operationId,
    method: op.method,
    path: op.path,
    request_location: op.requestLocation,
    success_status: op.success.status,
    request_type: op.requestTypeName,
    response_type: op.success.schemaName,
    scope: op.scope,
    retry_class: op.retryClass,
    permission: op.permission,
  }));
  return `${JSON.stringify({ $comment: bannerText(ir), spec: ir.source.fileName, operations }, null, 1)}\n`;
}
