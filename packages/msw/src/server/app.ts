import { Hono } from "hono";
import type { HttpBindings } from "@hono/node-server";
import { getResponse } from "msw";
import { createPowerContextHandlers } from "../handlers/create-handlers.js";
import { markOversized } from "../handlers/oversized.js";
import type { PowerContextSimulator } from "../simulator/simulator.js";
import { BODY_TOO_LARGE } from "../simulator/types.js";
import { DEFAULT_MAX_REQUEST_BODY_BYTES, readBodyWithin } from "./body-limit.js";
import { corsHeaders } from "./cors.js";
import { lenientPath } from "./lenient-path.js";

/** Options of {@link createMockApp}. */
export interface MockAppOptions {
  /** Largest request body read, in bytes; larger ones answer 413. Default 16 MiB ({@link DEFAULT_MAX_REQUEST_BODY_BYTES}). */
  readonly maxRequestBodyBytes?: number;
}

const BODYLESS = new Set(["GET", "HEAD"]);
/** Methods the fetch API cannot carry into a Request; no operation uses them. */
const UNREPRESENTABLE = new Set(["CONNECT", "TRACE", "TRACK"]);

/**
 * The Hono application that serves a simulator over HTTP on `@hono/node-server`.
 * It owns only what exists on a socket: the body limit (a body over it is
 * never buffered and answers `413 request_too_large`, then the connection
 * closes), CORS preflight, a reset fault as a destroyed socket, a 404
 * envelope with a request id for a path no operation has, and 405 for the
 * methods a fetch Request cannot carry (CONNECT, TRACE, TRACK), and a path
 * decoded as the release decodes it ({@link lenientPath}). Everything else
 * (routing, body parsing, validation, serialisation, faults) is the msw
 * handlers of {@link createPowerContextHandlers}, run through msw's
 * `getResponse`, so both transports answer the same.
 * @throws RangeError when `maxRequestBodyBytes` is not a positive integer
 */
export function createMockApp(simulator: PowerContextSimulator, options: MockAppOptions = {}): Hono<{ Bindings: HttpBindings }> {
  const maxBodyBytes = options.maxRequestBodyBytes ?? DEFAULT_MAX_REQUEST_BODY_BYTES;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1) throw new RangeError("maxRequestBodyBytes must be a positive integer");
  const app = new Hono<{ Bindings: HttpBindings }>();
  const handlers = createPowerContextHandlers(simulator, { baseUrl: "*" });
  let stray = 0;

  app.options("*", () => new Response(null, { status: 204, headers: corsHeaders }));

  const refusal = (status: number, code: string, message: string) => {
    stray += 1;
    const body = { error: { code, message, details: null } };
    return Response.json(body, {
      status,
      headers: { ...corsHeaders, "X-PowerContext-Request-ID": `req_route_${stray.toString(16).padStart(6, "0")}` },
    });
  };

  app.all("*", async (c) => {
    const raw = c.req.raw;
    if (UNREPRESENTABLE.has(raw.method.toUpperCase())) return refusal(405, "method_not_allowed", "The method is not allowed.");
    const text = BODYLESS.has(raw.method) ? "" : await readBodyWithin(c.env.incoming, maxBodyBytes);
    const tooLarge = text === BODY_TOO_LARGE;
    const url = new URL(raw.url);
    const request = new Request(`${url.origin}${lenientPath(url.pathname)}${url.search}`, {
      method: raw.method,
      headers: raw.headers,
      ...(tooLarge || text === "" ? {} : { body: text }),
    });
    if (tooLarge) markOversized(request);
    const response = await getResponse(handlers, request);
    if (response === undefined) return refusal(404, "not_found", "No such route.");
    if (response.type === "error" || response.status === 0) {
      c.env.incoming.socket.destroy();
      return new Response(null, { status: 500 });
    }
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(corsHeaders)) headers.set(name, value);
    // The unread rest of a refused upload is not worth keeping the connection for.
    if (tooLarge) headers.set("Connection", "close");
    return new Response(response.body, { status: response.status, headers });
  });

  return app;
}
