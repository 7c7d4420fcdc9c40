/**
 * What middleware is, as the client options take it: the hooks around every
 * HTTP attempt and what they see (ADR 0009). How an attempt passes them is
 * `core/middleware.ts`.
 */

/**
 * What a middleware hook sees of one attempt's request. `Authorization` is not
 * among `headers`: the token is the client's, middleware neither reads nor
 * sets it (setting it throws `MiddlewareError`). The method, URL and body
 * are read-only, so a hook cannot send the request (and the token) elsewhere.
 */
export interface MiddlewareRequest {
  /** Wire operationId, such as `flush_memory`. */
  readonly operationId: string;
  /** 1-based attempt number: hooks run once per attempt, retries included. */
  readonly attempt: number;
  /** HTTP method, upper case. */
  readonly method: string;
  /** Absolute URL, query string included. */
  readonly url: string;
  /** The attempt's request headers without `Authorization`; `onRequest` may set, replace or delete any other. */
  readonly headers: Headers;
  /** The serialized JSON body (the same bytes on every attempt), or undefined. */
  readonly body: string | undefined;
}

/** What `onResponse` sees of an attempt's response: its status and headers (the body is read by the client). */
export interface MiddlewareResponse {
  /** HTTP status code. */
  readonly status: number;
  /** The response headers as received. */
  readonly headers: Headers;
}

/**
 * Hooks around every HTTP attempt of every call, in the manner of
 * openapi-fetch's middleware: `onRequest` hooks run in the order given,
 * `onResponse` and `onError` hooks in reverse order. They run inside the retry
 * loop, once per attempt (not once per call), and never for operation polls'
 * waits. Every hook is optional and may be async.
 *
 * A hook that throws ends the call with `MiddlewareError` (an SDK error
 * passes unchanged); it is never retried. `onError` cannot change the outcome.
 */
export interface Middleware {
  /** Before the attempt is sent; may change `request.headers` (not `Authorization`). */
  onRequest?(request: MiddlewareRequest): void | Promise<void>;
  /**
   * After the response's headers arrived, before its body is read and decoded;
   * returns a replacement `Response`, or nothing to keep the one received.
   */
  onResponse?(exchange: {
    readonly request: MiddlewareRequest;
    readonly response: MiddlewareResponse;
    // biome-ignore lint/suspicious/noConfusingVoidType: a hook that returns nothing must type-check as it is written
  }): void | Response | Promise<void | Response>;
  /** The attempt failed (transport error, timeout, error status, invalid response); for observation only. */
  onError?(failure: { readonly request: MiddlewareRequest; readonly error: unknown }): void | Promise<void>;
}
