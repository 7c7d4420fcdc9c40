import type { ApiIr, OperationIr } from "../ir/model.js";
import { commentLine, docComment, mswPath, propertyKey, tsString } from "./ts/syntax.js";
import { banner } from "./banner.js";
import { TypeExpressions } from "./type-expressions.js";

const runtime = (requestIdHeader: string) => `
/**
 * What an operation implementation receives. \`body\` is the parsed JSON body, not validated;
 * \`undefined\` when absent or not JSON. \`bodyText\` is the body as sent (\`""\` when there was none),
 * so an implementation can tell an unparseable body from a missing one.
 */
export interface HandlerContext<P, B> {
  readonly request: Request;
  readonly params: P;
  readonly query: URLSearchParams;
  readonly body: B;
  readonly bodyText: string;
}

/** Implements one operation: answers with one of the statuses the spec declares for it. */
export type OperationHandler<K extends OperationId> = (
  ctx: HandlerContexts[K],
) => HandlerResponses[K] | Promise<HandlerResponses[K]>;

/** One implementation per operation of the spec. */
export type HandlerImpl = { readonly [K in OperationId]: OperationHandler<K> };

export interface CreateHandlersOptions {
  /** Origin (and optional path prefix) the handlers answer on, e.g. \`http://127.0.0.1:8787\`. */
  readonly baseUrl: string;
}

/**
 * msw (v2) request handlers for every operation \`impl\` implements, each delegating to it;
 * an operation without an implementation gets no handler, so msw treats its requests as unhandled.
 * A response without \`${commentLine(requestIdHeader)}\` gets a random one, as the server always sends it.
 * A body is sent as the status's declared media type: JSON, text or bytes.
 */
export function createHandlers(impl: Partial<HandlerImpl>, options: CreateHandlersOptions): HttpHandler[] {
  const bound = implementedRoutes(routes, impl as { readonly [operationId: string]: MockRouteImplementation | undefined }, { baseUrl: options.baseUrl, requestIdHeader: ${tsString(requestIdHeader)} });
  return bound.map((route) => http[route.method](route.url, route.resolve));
}
`;

/**
 * Emits `packages/msw/src/generated/handlers.ts`: per operation a response union
 * over every declared status (so a body the spec does not allow for a status fails
 * type-checking), the handler context, the routes table, and `createHandlers(impl, { baseUrl })`,
 * which binds the table through `implementedRoutes` of `@powercontext/runtime/testing`.
 */
export function emitMswHandlers(ir: ApiIr): string {
  const types = new TypeExpressions(ir, "operations");
  let out = banner(ir);
  out += `import { http, type HttpHandler } from "msw";\nimport { implementedRoutes, type MockRoute, type MockRouteImplementation } from "@powercontext/runtime/testing";\n${types.importLine()}\n`;
  out += `/** Every operationId of the spec (the keys of \`operations\` in @powercontext/types). */\nexport type OperationId = keyof operations;\n\n`;
  out += `/** Per operation, the union of every declared status with its body type. */\nexport interface HandlerResponses {\n`;
  for (const op of ir.operations) {
    out += `  ${propertyKey(op.operationId)}:${op.responses.map((r) => `\n    | { status: ${r.status}; body${r.kind === "none" ? "?: undefined" : `: ${types.response(op, r)}`}; headers?: Record<string, string> }`).join("")};\n`;
  }
  out += `}\n\n/** Per operation, what its implementation receives. */\nexport interface HandlerContexts {\n`;
  for (const op of ir.operations) {
    const params =
      op.pathParameters.length === 0
        ? "Record<string, never>"
        : `{ ${op.pathParameters.map((p) => `readonly ${propertyKey(p.name)}: string`).join("; ")} }`;
    const body = types.body(op);
    out += `  ${propertyKey(op.operationId)}: HandlerContext<${params}, ${body === null ? "undefined" : `${body} | undefined`}>;\n`;
  }
  out += `}\n\n/** Routes in matching order: fewer path parameters first, so a literal segment wins over a parameter. */\nconst routes: readonly (MockRoute & { readonly operationId: OperationId })[] = [\n`;
  for (const op of sortedRoutes(ir.operations)) {
    out += docComment([op.summary || op.operationId], "  ");
    const media = op.responses
      .filter((r) => r.kind === "text" || r.kind === "binary")
      .map((r) => `${r.status}: ${tsString(r.mediaType as string)}`);
    out += `  { operationId: ${tsString(op.operationId)}, method: ${tsString(op.method.toLowerCase())}, path: ${tsString(mswPath(op.path))}, hasBody: ${op.requestBody !== null}, media: { ${media.join(", ")} } },\n`;
  }
  out += `];\n${runtime(ir.requestIdHeader)}`;
  return out;
}

function sortedRoutes(operations: readonly OperationIr[]): OperationIr[] {
  return [...operations].sort(
    (a, b) =>
      a.pathParameters.length - b.pathParameters.length ||
      (a.operationId < b.operationId ? -1 : a.operationId > b.operationId ? 1 : 0),
  );
}
