/**
 * Requests whose body the embedded HTTP server refused to read because it
 * exceeds the body limit. The server marks the request it hands to the msw
 * handlers, which then answer `413 request_too_large` through the simulator
 * like any other outcome. A WeakSet: a request is forgotten with its object.
 */
const oversized = new WeakSet<Request>();

/** Marks `request` as carrying a body over the limit (its own body is empty). */
export function markOversized(request: Request): Request {
  oversized.add(request);
  return request;
}

/** True when the HTTP server marked `request` with {@link markOversized}. */
export function isOversized(request: Request): boolean {
  return oversized.has(request);
}
