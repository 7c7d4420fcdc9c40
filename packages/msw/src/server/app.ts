import { Hono } from "hono";
import type { HttpBindings } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { getResponse } from "msw";
import { createPowerContextHandlers } from "../handlers/create-handlers.js";
import { markOversized } from "../handlers/oversized.js";
import type { PowerContextSimulator } from "../simulator/simulator.js";
import { BODY_TOO_LARGE } from "../simulator/types.js";
import { DEFAULT_MAX_REQUEST_BODY_BYTES, declaredTooLarge, readBodyWithin } from "./body-limit.js";
import { corsHeaders } from "./cors.js";
import { lenientPath } from "./lenient-path.js";
import { bearerToken } from "../handlers/outcome-to-msw.js";
import { unauthorized } from "../simulator/access/principals.js";
import { Router, frameworkBody, isPublicPath } from "./routing.js";
import { SimError } from "../simulator/errors.js";
import { CONTRACT_PAGE, contractJson } from "./contract-page.js";

/** Options of {@link createMockApp}. */
export interface MockAppOptions {
  /** Largest request body read, in bytes; larger ones answer 413. Default 16 MiB ({@link DEFAULT_MAX_REQUEST_BODY_BYTES}). */
  readonly maxRequestBodyBytes?: number;
  /**
   * Answer CORS for any origin (preflights `204`, the headers a page reads exposed), for
   * a page that calls the mock from another origin. Default false: as the release, which
   * has no CORS (a preflight, sent without a token, is `401`; `OPTIONS` with one is `405`).
   */
  readonly cors?: boolean;
}

const BODYLESS = new Set(["GET", "HEAD"]);

/**
 * The Hono application that serves a simulator over HTTP on `@hono/node-server`.
 * It owns only what exists on a socket, in the release's order: the body limit
 * first, on every path and method (a declared `Content-Length` over it answers
 * `413 request_too_large` before anything else; a streamed body is never buffered
 * past it, and the connection closes after the answer), CORS only when asked for
 * (`cors`), a reset fault as a destroyed socket, a path decoded as the release
 * decodes it ({@link lenientPath}), and the release's router ({@link Router}) for
 * requests no operation takes: the credential first (`401` off the public paths),
 * then `405` with `Allow` for a method the path does not take (`OPTIONS` and `HEAD`
 * included), `307` to the path without (or with) a trailing slash, `404` otherwise;
 * the 404 and 405 carry the release's framework bodies (`{"detail": "Not Found"}`,
 * `x-powercontext-router.framework-bodies`). Its own page, `GET /openapi.json`,
 * answers the served contract (`contractJson`). Everything else (body parsing,
 * validation, serialisation, faults) is the msw handlers of
 * {@link createPowerContextHandlers}, run through msw's `getResponse`, so both
 * transports answer the same.
 * @throws RangeError when `maxRequestBodyBytes` is not a positive integer
 */
export function createMockApp(
  simulator: PowerContextSimulator,
  options: MockAppOptions = {},
): Hono<{ Bindings: HttpBindings }> {
  const maxBodyBytes = options.maxRequestBodyBytes ?? DEFAULT_MAX_REQUEST_BODY_BYTES;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1)
    throw new RangeError("maxRequestBodyBytes must be a positive integer");
  const app = new Hono<{ Bindings: HttpBindings }>();
  const handlers = createPowerContextHandlers(simulator, { baseUrl: "*" });
  let stray = 0;
  const cors: Readonly<Record<string, string>> = options.cors === true ? corsHeaders : {};

  if (options.cors === true) app.options("*", () => new Response(null, { status: 204, headers: corsHeaders }));

  const router = new Router([CONTRACT_PAGE]);
  const requestId = () => `req_route_${(stray += 1).toString(16).padStart(6, "0")}`;
  const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    Response.json(body, { status, headers: { ...cors, ...headers, "X-PowerContext-Request-ID": requestId() } });
  // Written to the socket directly: @hono/node-server gives every Response without a Content-Type a text/plain one.
  const redirect = (outgoing: HttpBindings["outgoing"], location: string) => {
    outgoing.writeHead(307, {
      ...cors,
      Location: location,
      "Content-Length": "0",
      "X-PowerContext-Request-ID": requestId(),
    });
    outgoing.end();
    return RESPONSE_ALREADY_SENT;
  };
  const refusal = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
    answer(status, { error: { code, message, details: null } }, headers);

  // The release's framework answers a path no route has, and a method a path does not take, with its own bodies.
  const notFound = () => {
    const body = frameworkBody(404);
    return body === null ? refusal(404, "not_found", "No route has this path.") : answer(404, body);
  };
  const notAllowed = (allow: string) => {
    const body = frameworkBody(405);
    return body === null
      ? refusal(405, "method_not_allowed", "The route does not take this method.", { Allow: allow })
      : answer(405, body, { Allow: allow });
  };

  app.all("*", async (c) => {
    const raw = c.req.raw;
    const url = new URL(raw.url);
    // Admission comes first, as the release's resource limits sit outside its authentication and router.
    if (declaredTooLarge(c.env.incoming, maxBodyBytes)) {
      const error = new SimError(413, "request_too_large", "The request body exceeds the size limit.");
      return answer(error.status, error.toEnvelope(), { Connection: "close" });
    }
    const route = router.route(raw.method, url.pathname);
    if (route.kind !== "operation") {
      // The release authenticates before it routes: off its public paths, no credential is 401 whatever the path.
      if (!isPublicPath(url.pathname) && !simulator.authenticates(bearerToken(raw))) {
        const error = unauthorized();
        return answer(error.status, error.toEnvelope(), { ...error.headers });
      }
      if (route.kind === "method") return notAllowed(route.allow);
      if (route.kind === "slash") return redirect(c.env.outgoing, `${url.origin}${route.pathname}${url.search}`);
      if (route.kind === "missing") return notFound();
      if (route.kind === "page") {
        return new Response(await contractJson(), {
          status: 200,
          headers: { ...cors, "Content-Type": "application/json", "X-PowerContext-Request-ID": requestId() },
        });
      }
    }
    const text = BODYLESS.has(raw.method) ? "" : await readBodyWithin(c.env.incoming, maxBodyBytes);
    const tooLarge = text === BODY_TOO_LARGE;
    const request = new Request(`${url.origin}${lenientPath(url.pathname)}${url.search}`, {
      method: raw.method,
      headers: raw.headers,
      ...(tooLarge || text === "" ? {} : { body: text }),
    });
    if (tooLarge) markOversized(request);
    const response = await getResponse(handlers, request);
    if (response === undefined) return notFound();
    if (response.type === "error" || response.status === 0) {
      c.env.incoming.socket.destroy();
      return new Response(null, { status: 500 });
    }
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(cors)) headers.set(name, value);
    // The unread rest of a refused upload is not worth keeping the connection for.
    if (tooLarge) headers.set("Connection", "close");
    // A 304 (or any answer without a body or a type) goes out as it is: no Content-Type, as from the release.
    if (response.body === null && !headers.has("Content-Type")) {
      c.env.outgoing.writeHead(response.status, Object.fromEntries(headers));
      c.env.outgoing.end();
      return RESPONSE_ALREADY_SENT;
    }
    return new Response(response.body, { status: response.status, headers });
  });

  return app;
}
