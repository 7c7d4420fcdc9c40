/**
 * Operations implemented as mock routes: what generated msw handlers (and any
 * other mock that speaks the Fetch API) need to answer a request from an
 * implementation. It imports no mock library: each route resolves a request to
 * a Fetch `Response`, which msw's `http.get(url, resolver)` and its peers accept.
 */

/** One operation's route, as the generator lists them in matching order. */
export interface MockRoute {
  /** The operation's wire id (its key in the implementations). */
  readonly operationId: string;
  /** Lower-case HTTP method, as msw's `http` object names them. */
  readonly method: "get" | "post" | "put" | "patch" | "delete";
  /** Path in the `:name` parameter syntax, e.g. `/v1/operations/:operation_id`. */
  readonly path: string;
  /** True when the operation declares a request body (read as text, then parsed as JSON). */
  readonly hasBody: boolean;
  /** The declared media type of each status whose answer is text or bytes (JSON statuses are absent). */
  readonly media: { readonly [status: number]: string };
}

/** What an implementation receives: `body` is the parsed JSON body, not validated (`undefined` when absent or not JSON); `bodyText` the body as sent (`""` when none). */
export interface MockRouteContext {
  readonly request: Request;
  readonly params: unknown;
  readonly query: URLSearchParams;
  readonly body: unknown;
  readonly bodyText: string;
}

/** An implementation's answer: a status, a body (an object for JSON, a string or bytes for a text or binary media type), and headers. */
export interface MockRouteAnswer {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

/** Implements one operation. */
export type MockRouteImplementation = (context: MockRouteContext) => MockRouteAnswer | Promise<MockRouteAnswer>;

/** Where the routes answer, and the response header that always carries a request id. */
export interface MockRouteOptions {
  /** Origin (and optional path prefix) the routes answer on, e.g. `http://127.0.0.1:8787`; trailing slashes are dropped. */
  readonly baseUrl: string;
  /** Header set to a random UUID on every answer that lacks it, as the server always sends one. */
  readonly requestIdHeader: string;
}

/** A route bound to an implementation: its method, absolute URL pattern, and a resolver answering with a Fetch `Response`. */
export interface ImplementedRoute {
  readonly operationId: string;
  readonly method: MockRoute["method"];
  readonly url: string;
  readonly resolve: (info: { request: Request; params: unknown }) => Promise<Response>;
}

/**
 * The routes of `routes` that `implementations` implements, in the same order
 * (an operation without an implementation gets no route, so a mock library treats
 * its requests as unhandled). An answer's body is sent as its status's declared
 * media type: JSON unless `media` names a text or binary type for the status;
 * a string or bytes without a declared type go out as `application/octet-stream`.
 */
export function implementedRoutes(
  routes: readonly MockRoute[],
  implementations: { readonly [operationId: string]: MockRouteImplementation | undefined },
  options: MockRouteOptions,
): ImplementedRoute[] {
  const base = options.baseUrl.replace(/\/+$/, "");
  const bound: ImplementedRoute[] = [];
  for (const route of routes) {
    const implementation = Object.hasOwn(implementations, route.operationId)
      ? implementations[route.operationId]
      : undefined;
    if (implementation === undefined) continue;
    bound.push({
      operationId: route.operationId,
      method: route.method,
      url: base + route.path,
      resolve: async ({ request, params }) => {
        const bodyText = route.hasBody ? await request.text() : "";
        const answer = await implementation({
          request,
          params,
          query: new URL(request.url).searchParams,
          body: parseJson(bodyText),
          bodyText,
        });
        return toResponse(answer, route.media[answer.status] ?? null, options.requestIdHeader);
      },
    });
  }
  return bound;
}

function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function toResponse(answer: MockRouteAnswer, mediaType: string | null, requestIdHeader: string): Response {
  const headers = new Headers(answer.headers);
  if (!headers.has(requestIdHeader)) headers.set(requestIdHeader, globalThis.crypto.randomUUID());
  if (answer.body === undefined) return new Response(null, { status: answer.status, headers });
  if (typeof answer.body === "string" || answer.body instanceof Uint8Array) {
    if (!headers.has("content-type")) headers.set("content-type", mediaType ?? "application/octet-stream");
    return new Response(answer.body as BodyInit, { status: answer.status, headers });
  }
  if (!headers.has("content-type")) headers.set("content-type", "application/json");
  return new Response(JSON.stringify(answer.body), { status: answer.status, headers });
}
