import type { HttpHandler } from "msw";
import { createHandlers, type HandlerImpl } from "../generated/handlers.js";
import { simOperationIds } from "../simulator/operation-table.js";
import type { PowerContextSimulator } from "../simulator/simulator.js";
import { bearerToken, outcomeToMsw, queryRecord } from "./outcome-to-msw.js";

/** Options of {@link createPowerContextHandlers}. */
export interface PowerContextHandlersOptions {
  /** Origin (and optional path prefix) to intercept, e.g. `http://127.0.0.1:8787`. */
  readonly baseUrl: string;
}

/**
 * msw handlers for every operation of `openapi.yaml`, answered by `sim`
 * (packages/msw/README.md). Built on the generated `createHandlers`, so routing and the
 * per-status body types come from the spec. Every response carries the
 * simulator's `X-PowerContext-Request-ID`; faults become network errors or
 * broken bodies. Works with `setupServer` (msw/node) and `setupWorker`
 * (msw/browser).
 */
export function createPowerContextHandlers(sim: PowerContextSimulator, options: PowerContextHandlersOptions): HttpHandler[] {
  const entries = simOperationIds.map((operationId) => [
    operationId,
    async (ctx: { request: Request; params: Record<string, string>; query: URLSearchParams; body: unknown }) =>
      outcomeToMsw(
        sim.handle(operationId, {
          token: bearerToken(ctx.request),
          params: ctx.params,
          query: queryRecord(ctx.query),
          body: ctx.body,
        }),
        options.baseUrl,
      ),
  ]);
  return createHandlers(Object.fromEntries(entries) as unknown as Partial<HandlerImpl>, { baseUrl: options.baseUrl });
}
