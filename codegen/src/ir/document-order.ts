import type { ApiIr, OperationIr } from "./model.js";

/**
 * The IR's operations in document order (paths as written, methods in the order
 * get, put, post, delete, options, head, patch, trace): the order the release
 * lists its operations in wherever it enumerates them (its `Operation`
 * constants, the operations of a feature contract).
 */
export function documentOrder(ir: Pick<ApiIr, "document" | "operations">): OperationIr[] {
  const paths = Object.keys((ir.document.paths ?? {}) as Record<string, unknown>);
  const methods = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"];
  const rank = (op: OperationIr) => paths.indexOf(op.path) * methods.length + methods.indexOf(op.method);
  return [...ir.operations].sort((a, b) => rank(a) - rank(b));
}
