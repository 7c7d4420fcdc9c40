/**
 * Shapes crossing the simulator boundary: one request in, one outcome out.
 * Nothing here knows about msw, fetch or node:http.
 */

/** A Scope permission as the release names it (`action` of `x-powercontext-access` on a scope). */
export type ScopePermission = "scope.read" | "scope.contribute" | "scope.admin";

/** A server-wide permission (`action` of `x-powercontext-access` on the server). */
export type ServerPermission = "server.observe" | "server.admin";

/** Any permission the simulator checks. */
export type Permission = ScopePermission | ServerPermission;

/** Marker passed as `body` when the request body was not parseable JSON. */
export const INVALID_JSON: unique symbol = Symbol("invalid-json");

/**
 * Marker passed as `body` when the wiring refused to read the body because it
 * exceeds the request-body limit; the simulator answers `413 request_too_large`.
 */
export const BODY_TOO_LARGE: unique symbol = Symbol("body-too-large");

/** One request, already split into its parts by the wiring. */
export interface SimRequest {
  /** Bearer token without the `Bearer ` prefix; absent or empty means anonymous. */
  readonly token?: string | null;
  /** Path parameters by wire name, e.g. `{ operation_id: "op_..." }`. */
  readonly params?: Readonly<Record<string, string | undefined>>;
  /** Query parameters by wire name (first value wins). */
  readonly query?: Readonly<Record<string, string | undefined>>;
  /** Every value of each query parameter, in order (for array parameters); `query` is used when absent. */
  readonly queryAll?: Readonly<Record<string, readonly string[] | undefined>>;
  /** Request headers by name (any case), e.g. `If-None-Match`; `Authorization` is read into `token` instead. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Parsed JSON body, `undefined` when there was none, {@link INVALID_JSON} when unparseable,
   * {@link BODY_TOO_LARGE} when the wiring did not read it because of its size. A body
   * sent without a JSON media type is parsed too (`undefined` when it is no JSON), with
   * `bodyNotJson` set: the release's access layer reads such a body, its contract check
   * does not.
   */
  readonly body?: unknown;
  /** True when a non-empty body came without a JSON `Content-Type` (none, `text/plain`, a form). Default false. */
  readonly bodyNotJson?: boolean;
}

/** A regular HTTP answer. `body` is `null` for an empty response. */
export interface SimResponse {
  readonly status: number;
  /** Response headers; always includes `X-PowerContext-Request-ID`. */
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON value, or a string (text media) or bytes (binary media) sent as `contentType`; `null` for no content. */
  readonly body: unknown;
  /** Media type of a string or byte body; JSON bodies are `application/json`. */
  readonly contentType?: string;
  /** Milliseconds the wiring should wait before answering (delay fault); 0 when none. */
  readonly delayMs: number;
  /** When set, the wiring sends these bytes instead of `JSON.stringify(body)` (malformed-body fault). */
  readonly rawBody?: string;
}

/** The connection is dropped without an answer (`HttpResponse.error()` in msw, a destroyed socket over HTTP). */
export interface SimReset {
  readonly fault: "reset";
  /** Milliseconds to wait before dropping the connection; 0 when none. */
  readonly delayMs: number;
}

/** What `sim.handle()` returns. */
export type SimOutcome = SimResponse | SimReset;

/** True when the outcome is a dropped connection rather than a response. */
export function isReset(outcome: SimOutcome): outcome is SimReset {
  return "fault" in outcome;
}

/** What a handler returns before the simulator adds headers and faults. */
export interface HandlerResult {
  readonly status: number;
  /** A JSON value; a string or `Uint8Array` sent as is with {@link contentType}; `null` for no content. */
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Media type of a string or byte body (the status's declared media type). */
  readonly contentType?: string;
}
