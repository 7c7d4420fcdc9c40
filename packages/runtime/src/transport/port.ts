/**
 * The transport port (docs/adr/0008-transport-port.md): the one seam between
 * the runtime and an HTTP client. Everything the runtime promises (refused
 * redirects, the body cap, strict decoding, retries, error mapping, the token
 * kept out of errors) sits above it, once; an adapter only moves bytes.
 * Adapters: `fetchTransport` (browsers, Deno, Bun, any injected fetch) and,
 * on Node, `undiciTransport` (undici's dispatcher API, the default there).
 */

/** One attempt of a prepared request. */
export interface TransportRequest {
  /** HTTP method, upper case. */
  readonly method: string;
  /** Absolute URL including the query string. */
  readonly url: string;
  /** Lower-case header names; sent as given. */
  readonly headers: Readonly<Record<string, string>>;
  /** Serialized body, or undefined when there is none. */
  readonly body: string | undefined;
  /**
   * Limit of this attempt in milliseconds, covering the wait for the response
   * headers and the reading of the body. When it passes, the adapter gives the
   * exchange up, releases its connection at once (so that nothing keeps the
   * process alive, ADR 0003) and rejects with an error whose `code` is
   * {@link ATTEMPT_TIMEOUT} (undici's `UND_ERR_HEADERS_TIMEOUT` and
   * `UND_ERR_BODY_TIMEOUT` mean the same).
   */
  readonly timeoutMs: number;
  /** The caller's signal, only when the caller passed one: aborting it ends the exchange and releases its connection. */
  readonly signal: AbortSignal | undefined;
  /**
   * True when the request must reach the server at most once (an operation
   * of the `never` retry class). The runtime never re-sends it after it may
   * have left; an adapter whose HTTP client re-sends a request by itself when
   * a reused connection drops (Deno's fetch does) sends this one on a
   * connection that is not reused (docs/runtimes.md).
   */
  readonly neverResend?: boolean;
}

/** Reads response headers by lower-case name; several values of one name are joined with ", ". */
export interface HeaderReader {
  /** The value of header `name` (lower case), or null when absent. */
  get(name: string): string | null;
  /** Every header as `[lower-case name, value]` pairs (several values of one name joined with ", "). */
  entries(): IterableIterator<[string, string]>;
}

/** A response whose headers have arrived; its body is read chunk by chunk. */
export interface TransportResponse {
  /** HTTP status; 0 for a redirect a browser hides (an opaque redirect). Redirects are never followed. */
  readonly status: number;
  /** The response headers. */
  readonly headers: HeaderReader;
  /**
   * The next chunk of the body, decoded from its `content-encoding`, or null
   * at its end. An adapter may hand a body framed by `content-length` over in
   * one chunk. Rejects like the exchange (timeout, abort, broken connection).
   */
  read(): Promise<Uint8Array | null>;
  /** Stops reading and releases the connection; harmless after the end or a failure. */
  cancel(): void;
}

/** The port: sends one attempt and resolves once the response headers are in. */
export interface Transport {
  /** Sends one attempt; resolves when the headers have arrived, rejects on a transport failure or timeout. */
  send(request: TransportRequest): Promise<TransportResponse>;
}

/** `code` of the error an adapter rejects with when `timeoutMs` passed. */
export const ATTEMPT_TIMEOUT = "ERR_POWERCONTEXT_ATTEMPT_TIMEOUT";

/** Error codes that mean the attempt's limit passed (ours and undici's). */
export const TIMEOUT_CODES: ReadonlySet<string> = new Set([
  ATTEMPT_TIMEOUT,
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

/** The error an adapter rejects with when the attempt's `timeoutMs` passed. */
export function attemptTimeout(): Error {
  return Object.assign(new Error("attempt timed out"), { code: ATTEMPT_TIMEOUT });
}

/** True for content-encodings that leave the bytes as they are. */
export function isIdentityEncoding(value: string | null): boolean {
  return value === null || value === "" || value.trim().toLowerCase() === "identity";
}
