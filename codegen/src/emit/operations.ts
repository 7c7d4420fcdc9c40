import type { ApiIr, OperationIr } from "../ir/model.js";
import { docComment, propertyKey, tsString } from "../ir/naming.js";
import { banner } from "./banner.js";
import { TypeExpressions } from "./type-expressions.js";

// The descriptor shapes belong to the hand-written runtime (generated code
// depends on the runtime, never the reverse); the table re-exports them.
const DESCRIPTOR = `import type { OperationDescriptor } from "@powercontext/runtime";
`;

/**
 * Emits `packages/sdk/src/generated/operations.ts`: one exported descriptor per
 * operation (`getLivenessDescriptor`, ...), so that a bundle calling one
 * operation through `createCaller` keeps only that row; the operation table
 * built from them (docs/architecture.md, "Generated modules"); `OperationId`;
 * and the per-operation request/response/accepted types (`OperationTypes`,
 * `RequestOf`, ...).
 */
export function emitOperations(ir: ApiIr): string {
  const types = new TypeExpressions(ir, "specOperations");
  const asyncIds = ir.operations.filter((op) => op.async !== null).map((op) => tsString(op.operationId));
  const pagedOps = ir.operations.filter((op) => op.pagination !== null);
  let out = banner(ir);
  out += types.importLine() + "\n" + DESCRIPTOR + "\n";
  out += `/** Every operationId of the spec (the keys of \`operations\` in @powercontext/types). */\nexport type OperationId = keyof specOperations;\n\n`;
  out += `/** Operations that may answer with an accepted status (\`x-powercontext-async\`). */\nexport type AsyncOperationId =${union(asyncIds)};\n\n`;
  out += `/** Operations that page with a cursor (\`x-powercontext-pagination\`). */\nexport type PaginatedOperationId =${union(pagedOps.map((op) => tsString(op.operationId)))};\n\n`;
  out += ir.operations.map(descriptor).join("");
  out += `/** The operation table, keyed by operationId. */\nexport const operations: { readonly [K in OperationId]: OperationDescriptor } = {\n`;
  out += ir.operations.map((op) => `  ${propertyKey(op.operationId)}: ${descriptorName(op)},\n`).join("");
  out += `};\n\n`;
  out += `/**\n * Request, success response and accepted (202-style) body types per operation.\n * \`request\` is the flat request object (path and query parameters by wire name plus body fields).\n */\nexport interface OperationTypes {\n`;
  for (const op of ir.operations) {
    out += `  ${propertyKey(op.operationId)}: {\n    request: ${types.request(op)};\n    response: ${types.response(op, op.success)};\n    accepted: ${types.response(op, op.accepted)};\n  };\n`;
  }
  out += `}\n\n`;
  out += `export type RequestOf<K extends OperationId> = OperationTypes[K]["request"];\nexport type ResponseOf<K extends OperationId> = OperationTypes[K]["response"];\nexport type AcceptedOf<K extends OperationId> = OperationTypes[K]["accepted"];\n\n`;
  out += `/** For paginated operations: the request without its cursor, and one item of a page. */\nexport interface PageTypes {\n`;
  for (const op of pagedOps) {
    const page = op.pagination!;
    out += `  ${propertyKey(op.operationId)}: {\n    request: Omit<RequestOf<${tsString(op.operationId)}>, ${tsString(page.cursorParameter)}>;\n    item: NonNullable<ResponseOf<${tsString(op.operationId)}>[${tsString(page.itemsField)}]>[number];\n  };\n`;
  }
  out += `}\n`;
  return out;
}

function union(members: readonly string[]): string {
  return members.length === 0 ? " never" : members.map((m) => `\n  | ${m}`).join("");
}

/** The exported name of an operation's descriptor: its method name plus `Descriptor`. */
function descriptorName(op: OperationIr): string {
  return `${op.methodName}Descriptor`;
}

function descriptor(op: OperationIr): string {
  const strings = (values: readonly string[]) => `[${values.map(tsString).join(", ")}]`;
  const nullableString = (value: string | null) => (value === null ? "null" : tsString(value));
  const lines = [
    `operationId: ${tsString(op.operationId)}`,
    `methodName: ${tsString(op.methodName)}`,
    `method: ${tsString(op.method)}`,
    `path: ${tsString(op.path)}`,
    `requestLocation: ${nullableString(op.requestLocation)}`,
    `pathParameters: ${strings(op.pathParameters.map((p) => p.name))}`,
    `queryParameters: ${strings(op.queryParameters.map((p) => p.name))}`,
    `successStatus: ${op.success.status}`,
    `errorStatuses: [${op.errorStatuses.join(", ")}]`,
    `scope: ${op.scope}`,
    `retryClass: ${tsString(op.retryClass)}`,
    `permission: ${nullableString(op.permission)}`,
    `summary: ${tsString(op.summary)}`,
    `requestSchema: ${nullableString(op.requestBody?.schemaName ?? null)}`,
    `responseSchema: ${nullableString(op.success.schemaName)}`,
    `async: ${op.async === null ? "null" : `{ acceptedStatus: ${op.async.acceptedStatus}, pollOperation: ${tsString(op.async.pollOperation)}, resultField: ${tsString(op.async.resultField)} }`}`,
    `reconcile: ${op.reconcile === null ? "null" : `{ readOperation: ${tsString(op.reconcile.readOperation)}, idParameter: ${tsString(op.reconcile.idParameter)}, holdsWhen: { status: ${strings(op.reconcile.holdsWhen.status)} } }`}`,
    `pagination: ${op.pagination === null ? "null" : `{ cursorParameter: ${tsString(op.pagination.cursorParameter)}, nextCursorField: ${tsString(op.pagination.nextCursorField)}, itemsField: ${tsString(op.pagination.itemsField)} }`}`,
  ];
  const doc = docComment([`\`${op.operationId}\`: ${op.method} ${op.path}`], "");
  return `${doc}export const ${descriptorName(op)}: OperationDescriptor = {\n${lines.map((l) => `  ${l},\n`).join("")}};\n\n`;
}
