import type { ApiIr, OperationIr } from "../../ir/model.js";
import { docComment, tsString } from "../../emit/ts/syntax.js";
import { banner } from "../../emit/banner.js";

function preamble(ir: ApiIr): string {
  const runtime = tsString(ir.names.runtimePackage);
  return `import { CallPromise, callWithResponse, descriptorFor, paginate, submit, type CallOptions, type Runtime, type WithResponse } from ${runtime};
import type { AcceptedOf, AsyncOperationId, OperationId, PageTypes, PaginatedOperationId, RequestOf, ResponseOf } from "./operations.js";

/**
 * First outcome of submitting an asynchronous operation: either the finished
 * result (the success status) or the accepted Operation resource (the accepted
 * status) with its \`Location\` and \`Retry-After\` (in milliseconds).
 */
export type SubmitOutcome<K extends AsyncOperationId> =
  | {
      readonly state: "completed";
      readonly status: number;
      readonly result: ResponseOf<K>;
      readonly operationId: null;
      readonly requestId: string | null;
    }
  | {
      readonly state: "accepted";
      readonly status: number;
      readonly operation: AcceptedOf<K>;
      /** The accepted Operation's id, from its body or else its \`Location\`; null when neither names it. */
      readonly operationId: string | null;
      readonly location: string | null;
      readonly retryAfterMs: number | null;
      readonly requestId: string | null;
    };

/**
 * One method per operation of the spec, over a runtime built with
 * \`createRuntime(options, { operations, validators: validatorMap })\` from the
 * runtime package. Every public method is a one-line call into the three
 * protected primitives, so go-to-definition lands on a real method. A facade
 * may extend this class to add its own members. A method that sends one call
 * returns a \`CallPromise\`: await it for the parsed result, or call
 * \`.withResponse()\` for the result with its status, headers, request id and
 * attempt count.
 */
export class ${ir.names.clientClassName} {
  /** @param runtime - the runtime every call goes through; it must hold this spec's operation table. */
  constructor(protected readonly runtime: Runtime) {}

  /**
   * Sends one operation with the retry policy of its retry class and returns the
   * validated result. For asynchronous operations this submits and then polls
   * until a terminal state or the deadline.
   */
  protected call<K extends OperationId>(operationId: K, request: RequestOf<K>, options: CallOptions | undefined): CallPromise<ResponseOf<K>> {
    const outcome = callWithResponse(this.runtime, descriptorFor(this.runtime, operationId), request, options ?? {});
    return new CallPromise(outcome as Promise<WithResponse<ResponseOf<K>>>);
  }

  /**
   * Sends an operation that answers \`304\` to a conditional request: when \`request\`
   * carries \`header\` (its \`If-None-Match\`), the outcome keyed by status (\`200\` with the
   * body, or \`304\`); without it, the body alone (docs/architecture.md, "Conditional reads").
   */
  protected callConditional<K extends OperationId>(operationId: K, request: RequestOf<K>, header: string, options: CallOptions | undefined): CallPromise<unknown> {
    const outcome = callWithResponse(this.runtime, descriptorFor(this.runtime, operationId), request, options ?? {});
    if ((request as Record<string, unknown> | undefined)?.[header] !== undefined) return new CallPromise(outcome);
    return new CallPromise(outcome.then(({ data, response }) => ({ data: (data as { readonly body: unknown }).body, response })));
  }

  /** Sends an asynchronous operation once (with retries) and returns its first outcome without polling. */
  protected submit<K extends AsyncOperationId>(operationId: K, request: RequestOf<K>, options: CallOptions | undefined): CallPromise<SubmitOutcome<K>> {
    const submission = submit(this.runtime, descriptorFor(this.runtime, operationId), request, options ?? {});
    return new CallPromise(submission.then((outcome): WithResponse<SubmitOutcome<K>> => {
      if (!outcome.accepted) {
        return { data: { state: "completed", status: outcome.statusCode, result: outcome.result as ResponseOf<K>, requestId: outcome.requestId, operationId: null }, response: outcome.response };
      }
      const data: SubmitOutcome<K> = {
        state: "accepted",
        status: outcome.statusCode,
        operation: outcome.body as AcceptedOf<K>,
        location: outcome.location,
        retryAfterMs: outcome.retryAfterMs,
        requestId: outcome.requestId,
        operationId: outcome.operationId,
      };
      return { data, response: outcome.response };
    }));
  }

  /** Follows the operation's cursor from \`request\` and yields every item of every page. */
  protected paginate<K extends PaginatedOperationId>(operationId: K, request: PageTypes[K]["request"], options: CallOptions | undefined): AsyncIterable<PageTypes[K]["item"]> {
    return paginate(this.runtime, descriptorFor(this.runtime, operationId), request as Record<string, unknown>, options ?? {}) as AsyncIterable<PageTypes[K]["item"]>;
  }
`;
}

/**
 * Emits `packages/sdk/src/generated/methods.ts`: the class named by
 * `names.clientClassName` (default `PowerContextOperations`) over a runtime, with
 * one camelCase method per operation, a
 * `submit<Name>` method per `x-powercontext-async` operation and a `<name>All`
 * iterator per `x-powercontext-pagination` operation.
 */
export function emitMethods(ir: ApiIr): string {
  let out = banner(ir) + preamble(ir);
  for (const op of ir.operations) {
    const id = tsString(op.operationId);
    const header = conditionalHeader(op);
    if (header !== null) out += conditionalMethod(op, header);
    else {
      out += `\n${docComment(describe(op), "  ")}`;
      out += `  ${op.methodName}(${requestParameter(op)}options?: CallOptions): CallPromise<ResponseOf<${id}>> {\n    return this.call(${id}, ${requestArgument(op)}, options);\n  }\n`;
    }
    if (op.async !== null) {
      out += `\n${docComment([`Submits ${op.operationId} and returns the first outcome without waiting: the result (${op.success.status}) or the accepted operation (${op.async.acceptedStatus}) to wait on later.`, "", ...facts(op)], "  ")}`;
      out += `  submit${op.typeName}(${requestParameter(op)}options?: CallOptions): CallPromise<SubmitOutcome<${id}>> {\n    return this.submit(${id}, ${requestArgument(op)}, options);\n  }\n`;
    }
    if (op.pagination !== null) {
      const optional = !pageRequestRequired(op);
      out += `\n${docComment([`Iterates every item (\`${op.pagination.itemsField}\`) of ${op.operationId}, following \`${op.pagination.nextCursorField}\` until it is empty.`, "", ...facts(op)], "  ")}`;
      out += `  ${op.methodName}All(request: PageTypes[${id}]["request"]${optional ? " = {}" : ""}, options?: CallOptions): AsyncIterable<PageTypes[${id}]["item"]> {\n    return this.paginate(${id}, request, options);\n  }\n`;
    }
  }
  return `${out}}\n`;
}

/**
 * The request member of an operation's \`If-None-Match\` header parameter, when the
 * operation's outcomes are one success status and a 304 (not modified): its method
 * answers the body unless the request carries that header. Null otherwise (such an
 * operation resolves to the outcome keyed by status, as any with several outcomes).
 */
function conditionalHeader(op: OperationIr): string | null {
  if (op.notModified === null || op.async !== null || op.successResponses.length !== 1) return null;
  return op.parameters.header.find((parameter) => parameter.name.toLowerCase() === "if-none-match")?.name ?? null;
}

/**
 * A conditional read's method: two overloads keyed by the presence of the
 * \`If-None-Match\` member. Without it the method resolves to the success body;
 * with it, to \`{ status, body, headers }\` (\`200\` with the body, or \`304\`).
 */
function conditionalMethod(op: OperationIr, header: string): string {
  const id = tsString(op.operationId);
  const name = tsString(header);
  const body = `Extract<ResponseOf<${id}>, { readonly status: ${op.success.status} }>["body"]`;
  const lines = [
    ...describe(op),
    "",
    `Without \`${header}\` in the request, resolves to the ${op.success.status} body. With it, resolves to the outcome keyed by status: \`{ status: ${op.success.status}, body, headers }\`, or \`{ status: ${op.notModified?.status}, body: undefined, headers }\` while the resource still matches that ETag.`,
  ];
  let out = `\n${docComment(lines, "  ")}`;
  out += `  ${op.methodName}(request: RequestOf<${id}> & { readonly ${name}: string }, options?: CallOptions): CallPromise<ResponseOf<${id}>>;\n`;
  out += `  ${op.methodName}(request: Omit<RequestOf<${id}>, ${name}> & { readonly ${name}?: undefined }, options?: CallOptions): CallPromise<${body}>;\n`;
  out += `  ${op.methodName}(request: Omit<RequestOf<${id}>, ${name}> & { readonly ${name}?: string | undefined }, options?: CallOptions): CallPromise<unknown> {\n    return this.callConditional(${id}, request as RequestOf<${id}>, ${name}, options);\n  }\n`;
  return out;
}

function describe(op: OperationIr): string[] {
  const lines: string[] = [];
  if (op.summary) lines.push(op.summary);
  if (op.description) lines.push(...(lines.length > 0 ? [""] : []), op.description);
  if (lines.length > 0) lines.push("");
  lines.push(...facts(op));
  if (op.deprecated) lines.push("@deprecated The spec marks this operation deprecated.");
  return lines;
}

function facts(op: OperationIr): string[] {
  const statuses = [`Success: ${op.successResponses.map((r) => r.status).join(" or ")}`];
  if (op.notModified !== null) statuses.push(`not modified: ${op.notModified.status}`);
  if (op.accepted !== null) statuses.push(`accepted: ${op.accepted.status}`);
  if (op.errorStatuses.length > 0)
    statuses.push(`errors: ${op.errorStatuses.map((status) => withCodes(op, status)).join(", ")}`);
  return [
    `\`${op.method} ${op.path}\` (operationId \`${op.operationId}\`).`,
    `Retry class: ${op.retryClass}. ${accessLine(op)}`,
    `${statuses.join("; ")}.`,
  ];
}

/** An error status with the codes the operation declares for it (`x-powercontext-errors`), such as `409 (version_conflict)`. */
function withCodes(op: OperationIr, status: number): string {
  const codes = op.errorCodes.find((entry) => entry.status === status)?.codes ?? [];
  return codes.length === 0 ? String(status) : `${status} (${codes.map((code) => `\`${code}\``).join(", ")})`;
}

/** The access sentence of a method's TSDoc, from `x-powercontext-access` and `security`. */
function accessLine(op: OperationIr): string {
  const schemes = (op.security ?? []).flatMap((requirement) => Object.keys(requirement));
  const credential =
    op.security !== null && schemes.length === 0
      ? "no credential"
      : schemes.length > 0
        ? `credential ${schemes.join(" or ")}`
        : null;
  const access = op.access;
  let permission: string;
  if (access === null) permission = op.permission === null ? "none checked" : `\`${op.permission}\``;
  else if (access.kind === "resolver") permission = `decided by the server per resource (rule \`${access.resolver}\`)`;
  else if (access.scopeIdFrom !== null)
    permission = `\`${access.action}\` on the Scope named by \`${access.scopeIdFrom}\``;
  else permission = `\`${access.action}\` on the ${access.resource}`;
  return `Permission: ${permission}${credential === null ? "" : `; ${credential}`}.`;
}

function requestParameter(op: OperationIr): string {
  const id = tsString(op.operationId);
  if (op.requestLocation === null) return "";
  if (op.requestRequired) return `request: RequestOf<${id}>, `;
  const parameters =
    op.pathParameters.length + op.queryParameters.length + op.parameters.header.length + op.parameters.cookie.length;
  if (op.requestBody !== null && parameters === 0) return `request?: RequestOf<${id}>, `;
  return `request: RequestOf<${id}> = {}, `;
}

function requestArgument(op: OperationIr): string {
  return op.requestLocation === null ? "undefined" : "request";
}

function pageRequestRequired(op: OperationIr): boolean {
  const cursor = op.pagination?.cursorParameter;
  return (
    (op.requestBody?.required ?? false) ||
    [...op.pathParameters, ...op.queryParameters, ...op.parameters.header, ...op.parameters.cookie].some(
      (p) => p.required && p.name !== cursor,
    )
  );
}
