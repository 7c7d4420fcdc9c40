import { Hono, type Context } from "hono";
import type { HttpBindings } from "@hono/node-server";
import { BODY_TOO_LARGE, isReset, INVALID_JSON, type SimRequest } from "../simulator/types.js";
import { simOperationIds, simOperations } from "../simulator/operation-table.js";
import type { PowerContextSimulator } from "../simulator/simulator.js";
import { bearerToken, queryRecord } from "../handlers/outcome-to-msw.js";
import { DEFAULT_MAX_REQUEST_BODY_BYTES, readBodyWithin } from "./body-limit.js";
import { corsHeaders } from "./cors.js";

/** Options of {@link createMockApp}. */
export interface MockAppOptions {
  /** Largest request body read, in bytes; larger ones answer 413. Default 16 MiB ({@link DEFAULT_MAX_REQUEST_BODY_BYTES}). */
  readonly maxRequestBodyBytes?: number;
}

/**
 * The Hono application that serves a simulator over HTTP on `@hono/node-server`:
 * one route per operation of the contract, CORS preflight, a reset fault as a
 * destroyed socket, a body over the limit as `413 request_too_large` (then the
 * connection closes), and a 404 envelope with a request id for unknown paths.
 * @throws RangeError when `maxRequestBodyBytes` is not a positive integer
 */
export function createMockApp(simulator: PowerContextSimulator, options: MockAppOptions = {}): Hono<{ Bindings: HttpBindings }> {
  const maxBodyBytes = options.maxRequestBodyBytes ?? DEFAULT_MAX_REQUEST_BODY_BYTES;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1) throw new RangeError("maxRequestBodyBytes must be a positive integer");
  const app = new Hono<{ Bindings: HttpBindings }>();
  let stray = 0;

  app.options("*", () => new Response(null, { status: 204, headers: corsHeaders }));

  for (const operationId of simOperationIds) {
    const { method, path } = simOperations[operationId];
    const honoPath = path.replace(/\{([^}]+)\}/g, ":$1");
    app.on(method, honoPath, async (c) => {
      const request = await readRequest(c, method, maxBodyBytes);
      const outcome = simulator.handle(operationId, request);
      if (outcome.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, outcome.delayMs));
      if (isReset(outcome)) {
        c.env.incoming.socket.destroy();
        return new Response(null, { status: 500 });
      }
      const headers = new Headers({ ...corsHeaders, ...outcome.headers });
      // The unread rest of a refused upload is not worth keeping the connection for.
      if (request.body === BODY_TOO_LARGE) headers.set("Connection", "close");
      if (outcome.body === null && outcome.rawBody === undefined) return new Response(null, { status: outcome.status, headers });
      headers.set("Content-Type", "application/json");
      return new Response(outcome.rawBody ?? JSON.stringify(outcome.body), { status: outcome.status, headers });
    });
  }

  app.notFound(() => {
    stray += 1;
    const body = { error: { code: "not_found", message: "No such route.", details: null } };
    return Response.json(body, {
      status: 404,
      headers: { ...corsHeaders, "X-PowerContext-Request-ID": `req_route_${stray.toString(16).padStart(6, "0")}` },
    });
  });

  return app;
}

/** Splits an HTTP request into the simulator's {@link SimRequest}. */
async function readRequest(c: Context<{ Bindings: HttpBindings }>, method: "GET" | "POST", maxBodyBytes: number): Promise<SimRequest> {
  const token = bearerToken(c.req.raw);
  const query = queryRecord(new URL(c.req.url).searchParams);
  let body: unknown;
  if (method === "POST") {
    const text = await readBodyWithin(c.env.incoming, maxBodyBytes);
    if (text === BODY_TOO_LARGE) {
      body = BODY_TOO_LARGE;
    } else if (text.length > 0) {
      try {
        body = JSON.parse(text);
      } catch {
        body = INVALID_JSON;
      }
    }
  }
  return { token, params: c.req.param(), query, body };
}
