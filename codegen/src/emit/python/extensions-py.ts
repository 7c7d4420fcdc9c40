import type { ApiIr, OperationIr } from "../../ir/model.js";
import { pyBanner } from "./banner-py.js";
import { documentOrder } from "./contract-facts.js";
import { pyLiteral, pyString } from "./literal.js";

/**
 * Emits `extensions.py`: what our `x-powercontext-*` extensions say about each
 * operation, for a Python client built on the 1.4.1 `Operation` objects (which
 * have no place for them): retry class, permission, the accepted status of a
 * background operation and how to poll it, how a guarded call is reconciled,
 * and how a list is paged. `EXTENSIONS` is keyed by operationId, in document order.
 */
export function emitPythonExtensions(ir: ApiIr, modelsModule: string): string {
  const ops = documentOrder(ir);
  const accepted = [...new Set(ops.flatMap((op) => (op.accepted?.schemaName ? [op.accepted.schemaName] : [])))].sort();
  const alias = (name: string) => `${name}Model`;
  const imports = accepted.length === 0 ? "" : `from ${modelsModule} import (\n${accepted.map((n) => `    ${n} as ${alias(n)},\n`).join("")})\n`;
  return `${pyBanner(ir)}from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

${imports}

class AsyncExtension(BaseModel):
    """\`x-powercontext-async\`: the operation may answer \`accepted_status\` with a pollable resource."""

    accepted_status: int
    accepted_type: type[Any] | None
    poll_operation: str
    result_field: str


class ReconcileExtension(BaseModel):
    """\`x-powercontext-reconcile\`: after an uncertain re-send, read \`read_operation\` to see whether the change holds."""

    read_operation: str
    id_parameter: str
    holds_when_status: tuple[str, ...]


class PaginationExtension(BaseModel):
    """\`x-powercontext-pagination\`: follow \`next_cursor_field\` through \`cursor_parameter\`."""

    cursor_parameter: str
    next_cursor_field: str
    items_field: str


class OperationExtensions(BaseModel):
    operation_id: str
    retry_class: Literal["safe", "replay", "guarded", "never"]
    permission: str | None
    async_: AsyncExtension | None
    reconcile: ReconcileExtension | None
    pagination: PaginationExtension | None


EXTENSIONS: dict[str, OperationExtensions] = {
${ops.map((op) => entry(op, alias)).join("")}}
`;
}

function entry(op: OperationIr, alias: (name: string) => string): string {
  const asyncPart =
    op.async === null
      ? "None"
      : `AsyncExtension(accepted_status=${op.async.acceptedStatus}, accepted_type=${op.accepted?.schemaName ? alias(op.accepted.schemaName) : "None"}, poll_operation=${pyString(op.async.pollOperation)}, result_field=${pyString(op.async.resultField)})`;
  const reconcile =
    op.reconcile === null
      ? "None"
      : `ReconcileExtension(read_operation=${pyString(op.reconcile.readOperation)}, id_parameter=${pyString(op.reconcile.idParameter)}, holds_when_status=${pyLiteral(op.reconcile.holdsWhen.status, { tuples: true })})`;
  const pagination =
    op.pagination === null
      ? "None"
      : `PaginationExtension(cursor_parameter=${pyString(op.pagination.cursorParameter)}, next_cursor_field=${pyString(op.pagination.nextCursorField)}, items_field=${pyString(op.pagination.itemsField)})`;
  return `    ${pyString(op.operationId)}: OperationExtensions(
        operation_id=${pyString(op.operationId)},
        retry_class=${pyString(op.retryClass)},
        permission=${op.permission === null ? "None" : pyString(op.permission)},
        async_=${asyncPart},
        reconcile=${reconcile},
        pagination=${pagination},
    ),
`;
}
