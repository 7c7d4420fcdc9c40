import type { ApiIr, OperationIr } from "../../ir/model.js";
import { docComment, docLine, propertyKey, tsString } from "../../emit/ts/syntax.js";
import { expression, tsValue } from "../../emit/ts/value.js";
import { retryStopCodes } from "../../ir/error-codes.js";
import { banner } from "../../emit/banner.js";
import { acceptHeader } from "./accept.js";
import { TypeExpressions, hasKeyedResult } from "../../emit/type-expressions.js";

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
  // The descriptor shapes belong to the hand-written runtime (generated code
  // depends on the runtime, never the reverse).
  // Only rows with parameters point at the runtime's parameter writer, so a bundle of operations without any leaves it out.
  const writer = ir.operations.some(hasParameters) ? "writeParameters, " : "";
  // Likewise only rows that declare other media than JSON point at the media reader (ADR 0034).
  const reader = ir.operations.some((op) => responseMedia(op) !== undefined) ? "readResponseMedia, " : "";
  out += `${types.importLine()}\nimport { operationsById, ${reader}${writer}type OperationDescriptor, type OperationRow } from ${tsString(ir.names.runtimePackage)};\n`;
  // The codes that stop a retry, one table every descriptor points at (emitted once, see error-codes.ts).
  const stopCodes = retryStopCodes(ir.errorCodes).length > 0;
  out += `${stopCodes ? `import { retryStopCodes } from "./error-codes.js";\n` : ""}\n`;
  out += rowFunction(ir, stopCodes);
  out += `/** Every operationId of the spec (the keys of \`operations\` in @powercontext/types). */\nexport type OperationId = keyof specOperations;\n\n`;
  out += `/** Operations that may answer with an accepted status (\`x-powercontext-async\`). */\nexport type AsyncOperationId =${union(asyncIds)};\n\n`;
  out += `/** Operations that page with a cursor (\`x-powercontext-pagination\`). */\nexport type PaginatedOperationId =${union(pagedOps.map((op) => tsString(op.operationId)))};\n\n`;
  out += ir.operations.map(descriptor).join("");
  // The table is built from the rows, which name their operationId, rather than spelling each id again as a key.
  out += `/** The operation table, keyed by operationId. */\nexport const operations = /* @__PURE__ */ operationsById([\n`;
  out += ir.operations.map((op) => `  ${descriptorName(op)},\n`).join("");
  out += `]) as { readonly [K in OperationId]: OperationDescriptor };\n\n`;
  out += `/**\n * Request, result, accepted (202-style) and error body types per operation.\n * \`request\` is the flat request object (path, query, header and cookie parameters by wire name plus body fields).\n * \`response\` is what a call resolves to: the success body, or, for an operation with several\n * outcomes (several success statuses, or a declared 304), a union keyed by \`status\`.\n * \`errors\` maps each declared error status to its body type.\n */\nexport interface OperationTypes {\n`;
  for (const op of ir.operations) {
    out += `${docLine(`\`${op.method} ${op.path}\`.`, "  ")}  ${propertyKey(op.operationId)}: {\n    /** The flat request object. */\n    request: ${types.request(op)};\n    /** What the method resolves to: the success body, or a union keyed by status. */\n    response: ${types.result(op)};\n    /** The accepted (202-style) body; \`never\` without an accepted status. */\n    accepted: ${types.outcome(op, op.accepted)};\n    /** The declared error bodies by status. */\n    errors: ${types.errors(op)};\n  };\n`;
  }
  out += `}\n\n`;
  out += `/** The request object of operation \`K\`. */\nexport type RequestOf<K extends OperationId> = OperationTypes[K]["request"];\n`;
  out += `/** What the method of operation \`K\` resolves to. */\nexport type ResponseOf<K extends OperationId> = OperationTypes[K]["response"];\n`;
  out += `/** The accepted (202-style) body of operation \`K\`; \`never\` when it has no accepted status. */\nexport type AcceptedOf<K extends OperationId> = OperationTypes[K]["accepted"];\n`;
  out += `/** The declared errors of an operation as a union keyed by status. */\nexport type ErrorOf<K extends OperationId> = { [S in keyof OperationTypes[K]["errors"]]: {\n    /** The error status. */\n    readonly status: S;\n    /** Its declared body. */\n    readonly body: OperationTypes[K]["errors"][S];\n  } }[keyof OperationTypes[K]["errors"]];\n\n`;
  out += `/** For paginated operations: the request without its cursor, and one item of a page. */\nexport interface PageTypes {\n`;
  for (const op of pagedOps) {
    const page = op.pagination!;
    out += `${docLine(`Pages of \`${op.operationId}\`, following \`${page.nextCursorField}\`.`, "  ")}  ${propertyKey(op.operationId)}: {\n`;
    out += `${docLine(`The request without its cursor (\`${page.cursorParameter}\`).`, "    ")}    request: Omit<RequestOf<${tsString(op.operationId)}>, ${tsString(page.cursorParameter)}>;\n`;
    out += `${docLine(`One item of \`${page.itemsField}\`.`, "    ")}    item: NonNullable<ResponseOf<${tsString(op.operationId)}>[${tsString(page.itemsField)}]>[number];\n  };\n`;
  }
  out += `}\n`;
  return out;
}

function union(members: readonly string[]): string {
  return members.length === 0 ? " never" : members.map((m) => `\n  | ${m}`).join("");
}

/** True when the operation has a path, query, header or cookie parameter (its row then gets `writeParameters`). */
function hasParameters(op: OperationIr): boolean {
  return (
    op.pathParameters.length + op.queryParameters.length + op.parameters.header.length + op.parameters.cookie.length > 0
  );
}

/** The exported name of an operation's descriptor: its method name plus `Descriptor`. */
function descriptorName(op: OperationIr): string {
  return `${op.methodName}Descriptor`;
}

/**
 * The descriptor members beyond the 0.0.2-era row, each written only when it
 * differs from the runtime's default (see the runtime's `OperationDescriptor`),
 * so that a row stays as small as the operation allows.
 */
function wideFacts(op: OperationIr): Record<string, unknown> {
  const defaultStatuses = [op.success.status, ...(op.accepted === null ? [] : [op.accepted.status])].sort(
    (a, b) => a - b,
  );
  const styles = Object.fromEntries(
    [...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie]
      .filter((p) => (p.in === "header" ? p.style !== "simple" || p.explode : p.style !== "form" || !p.explode))
      .map((p) => [p.name, { style: p.style, explode: p.explode }]),
  );
  const accept = acceptHeader(op);
  return {
    headerParameters: nonEmpty(op.parameters.header.map((p) => p.name)),
    cookieParameters: nonEmpty(op.parameters.cookie.map((p) => p.name)),
    parameterStyles: Object.keys(styles).length > 0 ? styles : undefined,
    successStatuses: op.successStatuses.join() !== defaultStatuses.join() ? op.successStatuses : undefined,
    notModifiedStatus: op.notModified?.status,
    responseMedia: responseMedia(op),
    readMedia: responseMedia(op) === undefined ? undefined : expression("readResponseMedia"),
    accept: accept !== "application/json" ? accept : undefined,
    keyedResult: hasKeyedResult(op) ? true : undefined,
    notServed: op.notServed ?? undefined,
  };
}

function nonEmpty<T>(values: readonly T[]): readonly T[] | undefined {
  return values.length > 0 ? values : undefined;
}

/**
 * The declared media types of each success status (the accepted one
 * included) whose declaration is not `application/json` alone, the runtime's
 * default: `{ 200: { "application/json": "json", "text/markdown": "text" } }`,
 * `{}` for a status without content; undefined when every status is the default.
 * A declared 304 is not listed: the runtime reads it as no content.
 */
function responseMedia(op: OperationIr): Record<number, Record<string, string>> | undefined {
  const rows = op.responses
    .filter((r) => op.successStatuses.includes(r.status))
    .filter(
      (r) => !(r.media.length === 1 && r.media[0]?.mediaType === "application/json" && r.media[0].kind === "json"),
    )
    .map((r) => [r.status, Object.fromEntries(r.media.map((m) => [m.mediaType, m.kind]))] as const);
  return rows.length === 0 ? undefined : Object.fromEntries(rows);
}

/**
 * The module's `row` function: a row plus the members it leaves out, the
 * defaults of the runtime's `OperationRow` (no parameters, no asynchronous
 * answer, reconciliation or paging) and what every row shares (the error codes
 * that stop a retry, the request id header), written here once instead of on
 * every row (about 0.4 kB min+gzip for the whole table).
 */
function rowFunction(ir: ApiIr, stopCodes: boolean): string {
  const shared = {
    pathParameters: [],
    queryParameters: [],
    async: null,
    reconcile: null,
    pagination: null,
    errorCodes: stopCodes ? expression("retryStopCodes") : undefined,
    requestIdHeader: ir.requestIdHeader.toLowerCase(),
  };
  const members = Object.entries(shared)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => ` ${propertyKey(key)}: ${tsValue(value)}`)
    .join(",");
  const doc = docComment(
    [
      "A descriptor from its row, which writes only what differs from the defaults",
      "(no parameters, asynchronous answer, reconciliation or paging) and from what every",
      "row shares (the error codes that stop a retry, the request id header).",
    ],
    "",
  );
  return `${doc}const row = (fields: OperationRow): OperationDescriptor => ({${members}, ...fields });\n\n`;
}

/** One operation's descriptor: its row through `row`, marked pure so that a bundle keeps only the rows it names. */
function descriptor(op: OperationIr): string {
  const row = {
    operationId: op.operationId,
    method: op.method,
    path: op.path,
    requestLocation: op.requestLocation,
    pathParameters: nonEmpty(op.pathParameters.map((p) => p.name)),
    queryParameters: nonEmpty(op.queryParameters.map((p) => p.name)),
    writeParameters: hasParameters(op) ? expression("writeParameters") : undefined,
    successStatus: op.success.status,
    errorStatuses: op.errorStatuses,
    retryClass: op.retryClass,
    ...wideFacts(op),
    async: op.async ?? undefined,
    reconcile: op.reconcile ?? undefined,
    pagination: op.pagination ?? undefined,
  };
  const doc = docComment([`\`${op.operationId}\`: ${op.method} ${op.path}`], "");
  return `${doc}export const ${descriptorName(op)}: OperationDescriptor = /* @__PURE__ */ row(${tsValue(row, 1)});\n\n`;
}
