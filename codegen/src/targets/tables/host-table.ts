import type { ApiIr, OperationIr } from "../../ir/model.js";
import { banner } from "../../emit/banner.js";
import { propertyKey, tsString } from "../../emit/ts/syntax.js";

/** One row of the hosts' operation table. */
export interface HostOperationRow {
  readonly method: string;
  readonly path: string;
  /** `body` for a JSON body, else `query` when there are query parameters, else null. */
  readonly location: "body" | "query" | null;
  /** The request carries the member naming the Scope (`x-powercontext-scope-field`). */
  readonly scope: boolean;
  /** `x-powercontext-scope-mode` (`none` when absent). */
  readonly scopeMode: string;
  readonly pathParameters: readonly string[];
  readonly queryParams: readonly string[];
  readonly headerParams: readonly string[];
  /** Every declared 2xx, ascending. */
  readonly successStatuses: readonly number[];
  /** The 2xx statuses declared without content. */
  readonly emptyStatuses: readonly number[];
}

/** The row of one operation. */
export function hostRow(_ir: ApiIr, op: OperationIr): HostOperationRow {
  const raw = op.operationObject;
  const successes = op.responses.filter((r) => op.successStatuses.includes(r.status));
  return {
    method: op.method,
    path: op.path,
    location: op.requestBody !== null ? "body" : op.queryParameters.length > 0 ? "query" : null,
    scope: op.scope,
    scopeMode:
      typeof raw["x-powercontext-scope-mode"] === "string" ? (raw["x-powercontext-scope-mode"] as string) : "none",
    pathParameters: op.pathParameters.map((p) => p.name),
    queryParams: op.queryParameters.map((p) => p.name),
    headerParams: op.parameters.header.map((p) => p.name),
    successStatuses: op.successStatuses,
    emptyStatuses: successes.filter((r) => r.kind === "none").map((r) => r.status),
  };
}

/**
 * Emits `operations.generated.ts`, the operation table the upstream host
 * integrations (the TypeScript plugins) call the server with, in their newest
 * format: an `OPERATIONS` const keyed by operationId (sorted), and the types
 * `OperationId` and `OperationSpec` and the list `OPERATION_IDS` derived from it.
 * Hosts copy the file into their own source; it imports nothing.
 */
export function emitHostTable(ir: ApiIr): string {
  const rows = ir.operations.map((op) => {
    const r = hostRow(ir, op);
    const list = (values: readonly (string | number)[]) =>
      `[${values.map((v) => (typeof v === "number" ? String(v) : tsString(v))).join(", ")}]`;
    const fields = [
      `method: ${tsString(r.method)}`,
      `path: ${tsString(r.path)}`,
      `location: ${r.location === null ? "null" : tsString(r.location)}`,
      `scope: ${r.scope}`,
      `scopeMode: ${tsString(r.scopeMode)}`,
      `pathParameters: ${list(r.pathParameters)}`,
      `queryParams: ${list(r.queryParams)}`,
      `headerParams: ${list(r.headerParams)}`,
      `successStatuses: ${list(r.successStatuses)}`,
      `emptyStatuses: ${list(r.emptyStatuses)}`,
    ];
    return `  ${propertyKey(op.operationId)}: { ${fields.join(", ")} },\n`;
  });
  return `${banner(ir)}export const OPERATIONS = {
${rows.join("")}} as const;

/** Every operationId of the contract. */
export type OperationId = keyof typeof OPERATIONS;

/** One row of {@link OPERATIONS}. */
export type OperationSpec = (typeof OPERATIONS)[OperationId];

/** The operationIds, in the table's order. */
export const OPERATION_IDS = Object.keys(OPERATIONS) as OperationId[];
`;
}
