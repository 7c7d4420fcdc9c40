import type { ApiIr, OperationIr } from "../../ir/model.js";
import { commentLine, docComment, mswPath, propertyKey, tsString } from "../../emit/ts/syntax.js";
import { banner } from "../../emit/banner.js";
import { TypeExpressions } from "../../emit/type-expressions.js";

const handlerTypes = `
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
`;

const createHandlers = (requestIdHeader: string) => `
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

/** The declarations of the handlers' types: every operationId, each one's response union and context, and an implementation's signature. */
function typeDeclarations(ir: ApiIr, types: TypeExpressions): string {
  let out = `/** Every operationId of the spec (the keys of \`operations\` in @powercontext/types). */\nexport type OperationId = keyof operations;\n\n`;
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
  return `${out}}\n${handlerTypes}`;
}

/**
 * Emits `packages/msw/src/generated/handler-types.ts`: the handlers' types alone
 * (per operation a response union over every declared status, so a body the spec
 * does not allow for a status fails type-checking; the handler context; an
 * implementation's signature). It imports nothing of msw, so the simulator's
 * types do not depend on it.
 */
export function emitMswHandlerTypes(ir: ApiIr): string {
  const types = new TypeExpressions(ir, "operations");
  return `${banner(ir)}${types.importLine()}\n${typeDeclarations(ir, types)}`;
}

/**
 * Emits `handlers.ts`: the routes table in matching order and
 * `createHandlers(impl, { baseUrl })`, which binds the table through
 * `implementedRoutes` of `@powercontext/runtime/testing`. With `typesModule` (the
 * repository layout) the types come from that module and are re-exported; without
 * it (a standalone folder) they are declared here.
 */
export function emitMswHandlers(ir: ApiIr, typesModule: string | null = null): string {
  const types = new TypeExpressions(ir, "operations");
  let out = banner(ir);
  out += `import { http, type HttpHandler } from "msw";\nimport { implementedRoutes, type MockRoute, type MockRouteImplementation } from "@powercontext/runtime/testing";\n`;
  if (typesModule === null) out += `${types.importLine()}\n${typeDeclarations(ir, types)}`;
  else
    out += `import type { HandlerImpl, OperationId } from ${tsString(typesModule)};\n\nexport type * from ${tsString(typesModule)};\n`;
  out += `\n/** Routes in matching order: fewer path parameters first, so a literal segment wins over a parameter. */\nconst routes: readonly (MockRoute & { readonly operationId: OperationId })[] = [\n`;
  for (const op of sortedRoutes(ir.operations)) {
    out += docComment([op.summary || op.operationId], "  ");
    const media = op.responses
      .filter((r) => r.kind === "text" || r.kind === "binary")
      .map((r) => `${r.status}: ${tsString(r.mediaType as string)}`);
    out += `  { operationId: ${tsString(op.operationId)}, method: ${tsString(op.method.toLowerCase())}, path: ${tsString(mswPath(op.path))}, hasBody: ${op.requestBody !== null}, media: { ${media.join(", ")} } },\n`;
  }
  return `${out}];\n${createHandlers(ir.requestIdHeader)}`;
}

function sortedRoutes(operations: readonly OperationIr[]): OperationIr[] {
  return [...operations].sort(
    (a, b) =>
      a.pathParameters.length - b.pathParameters.length ||
      (a.operationId < b.operationId ? -1 : a.operationId > b.operationId ? 1 : 0),
  );
}
