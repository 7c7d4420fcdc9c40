import type { HttpHandler } from "msw";
import { createHandlers, type HandlerImpl } from "../generated/handlers.js";
import { simOperationIds } from "../simulator/contract/operation-table.js";
import type { PowerContextSimulator } from "../simulator/simulator.js";
import { BODY_TOO_LARGE, INVALID_JSON, type SimRequest } from "../simulator/types.js";
import { bearerToken, headerRecord, outcomeToMsw, queryLists, queryRecord } from "./outcome-to-msw.js";
import { isOversized } from "./oversized.js";

/** Options of {@link createPowerContextHandlers}. */
export interface PowerContextHandlersOptions {
  /**
   * Origin (and optional path prefix) to intercept, e.g. `http://127.0.0.1:8787`;
   * `*` matches every origin (the embedded HTTP server uses it).
   */
  readonly baseUrl: string;
}

/** The handler context the generated `createHandlers` passes (see `src/generated/handlers.ts`). */
interface Context {
  readonly request: Request;
  readonly params: Record<string, string>;
  readonly query: URLSearchParams;
  readonly body: unknown;
  readonly bodyText: string;
}

/**
 * msw handlers for every operation of `openapi.yaml`, answered by `sim`.
 * Built on the generated `createHandlers`, so routing, body reading and the
 * per-status media types come from the spec; the embedded HTTP server sends
 * its requests through these same handlers. Every response carries the
 * simulator's `X-PowerContext-Request-ID`; a reset fault becomes a network
 * error, a malformed-body fault broken bytes. Works with `setupServer`
 * (msw/node), `setupWorker` (msw/browser) and msw's `getResponse`.
 */
export function createPowerContextHandlers(
  sim: PowerContextSimulator,
  options: PowerContextHandlersOptions,
): HttpHandler[] {
  const entries = simOperationIds.map((operationId) => [
    operationId,
    async (ctx: Context) => outcomeToMsw(sim.handle(operationId, toSimRequest(ctx)), ctx.request),
  ]);
  return createHandlers(Object.fromEntries(entries) as unknown as Partial<HandlerImpl>, { baseUrl: options.baseUrl });
}

/** One intercepted request as the simulator's {@link SimRequest}. */
function toSimRequest(ctx: Context): SimRequest {
  let body: unknown;
  const bodyNotJson = ctx.bodyText.length > 0 && !sentAsJson(ctx.request);
  if (isOversized(ctx.request)) body = BODY_TOO_LARGE;
  else if (bodyNotJson) body = parsedOrUndefined(ctx.bodyText);
  else if (ctx.bodyText.length > 0) body = ctx.body === undefined ? INVALID_JSON : ctx.body;
  return {
    bodyNotJson,
    token: bearerToken(ctx.request),
    params: ctx.params,
    query: queryRecord(ctx.query),
    queryAll: queryLists(ctx.query),
    headers: headerRecord(ctx.request.headers),
    body,
  };
}

/**
 * Whether the body is sent as JSON, as the released server's contract check reads
 * it: with a JSON `Content-Type` (`application/json`, `+json`). A body without a
 * `Content-Type`, or of another type (`text/plain`, a form), is no JSON body for
 * that check, though the release's access layer still parses its text.
 */
function sentAsJson(request: Request): boolean {
  const type = request.headers.get("content-type");
  if (type === null) return false;
  const essence = (type.split(";")[0] ?? "").trim().toLowerCase();
  return essence === "application/json" || essence.endsWith("+json");
}

/** The JSON value of `text`, or `undefined` when it is no JSON. */
function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
