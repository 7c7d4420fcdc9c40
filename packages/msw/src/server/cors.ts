/**
 * CORS headers of the embedded server, so a page in a browser can call it:
 * any origin, the `Authorization` and `Content-Type` request headers, and the
 * response headers a client reads (`X-PowerContext-Request-ID`, `Location`,
 * `Retry-After`, `WWW-Authenticate`) exposed.
 */
export const corsHeaders: Readonly<Record<string, string>> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, traceparent, tracestate",
  "Access-Control-Expose-Headers": "X-PowerContext-Request-ID, Location, Retry-After, WWW-Authenticate",
  "Access-Control-Max-Age": "600",
};
