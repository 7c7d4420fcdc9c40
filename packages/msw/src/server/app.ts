import { Hono, type Context } from "hono";
import type { HttpBindings } from "@hono/node-server";
import { isReset, INVALID_JSON, type SimRequest } from "../simulator/types.js";
import { simOperationIds, simOperations } from "../simulator/operation-table.js";
import type { PowerContextSimulator } from "../simulator/simulator.js";
import { bearerToken } from "../handlers/outcome-to-msw.js";
import { corsHeaders } from "./cors.js";

/**
 * The Hono application that serves a simulator over HTTP: one route per
 * operation of the contract, CORS preflight, a reset fault as a destroyed
 * socket, and a 404 envelope with a request id for unknown paths.
 */
export function createMockApp(simulator: PowerContextSimulator): Hono<{ Bindings: HttpBindings }> {
  const app = new Hono<{ Bindings: HttpBindings }>();
  let stray = 0;

  app.options("*", () => new Response(null, { status: 204, headers: corsHeaders }));

  for (const operationId of simOperationIds) {
    const { method, path } = simOperations[operationId];
    const honoPath = path.replace(/\{([^}]+)\}/g, ":$1");
    app.on(method, honoPath, async (c) => {
      const outcome = simulator.handle(operationId, await readRequest(c, method));
      if (outcome.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, outcome.delayMs));
      if (isReset(outcome)) {
        c.env.incoming.socket.destroy();
        return new Response(null, { status: 500 });
      }
      const headers = new Headers({ ...corsHeaders, ...outcome.headers });
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
async function readRequest(c: Context, method: "GET" | "POST"): Promise<SimRequest> {
  const token = bearerToken(c.req.raw);
  let body: unknown;
  if (method === "POST") {
    const text = await c.req.text();
    if (text.length > 0) {
      try {
        body = JSON.parse(text);
      } catch {
        body = INVALID_JSON;
      }
    }
  }
  return { token, params: c.req.param(), query: c.req.query(), body };
}
