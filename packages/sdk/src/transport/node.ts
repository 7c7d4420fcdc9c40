import type { FetchInit, FetchLike } from "./send.js";

/** Options of {@link createNodeTransport}; durations in milliseconds. */
export interface NodeTransportOptions {
  /** How long an idle keep-alive socket stays open. Default 4 000 ms. */
  keepAliveTimeoutMs?: number;
  /** TCP + TLS connect timeout. Default 10 000 ms. */
  connectTimeoutMs?: number;
  /**
   * Maximum sockets per origin. Default: unlimited (undici's default). With a
   * limit, every attempt carries an AbortSignal (`FetchLike.boundedPool`), so
   * a timed-out exchange never holds a socket that later requests wait for.
   */
  connections?: number;
  /**
   * Longest wait for a response's headers, and between two chunks of its
   * body, before undici closes the socket. Default 300 000 ms (undici's).
   * This also ends an exchange that the client stopped waiting for after its
   * per-attempt timeout once the server falls silent (ADR 0003); a body that
   * keeps trickling in is bounded only by the 1 MiB response cap.
   */
  idleResponseTimeoutMs?: number;
}

/** A keep-alive transport backed by undici; pass `fetch` to the client, `close()` when done. */
export interface NodeTransport {
  fetch: FetchLike;
  /** Closes the undici Agent. The client never calls this: the caller owns the transport. */
  close(): Promise<void>;
}

/**
 * Creates a Node-only transport: undici's `fetch` on a dedicated `Agent` with
 * keep-alive and a connect timeout. undici is an optional dependency loaded on
 * demand, so importing the SDK never requires it.
 *
 * @throws Error when undici is not installed.
 */
export async function createNodeTransport(options: NodeTransportOptions = {}): Promise<NodeTransport> {
  const undici = await import("undici");
  const agent = new undici.Agent({
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 4000,
    connectTimeout: options.connectTimeoutMs ?? 10_000,
    headersTimeout: options.idleResponseTimeoutMs ?? 300_000,
    bodyTimeout: options.idleResponseTimeoutMs ?? 300_000,
    ...(options.connections === undefined ? {} : { connections: options.connections }),
  });
  const send = (url: string, init: FetchInit): Promise<Response> =>
    undici.fetch(url, { ...init, dispatcher: agent }) as unknown as Promise<Response>;
  // With a connection limit, a timed-out exchange must be aborted to free its socket.
  const fetchFn: FetchLike = Object.assign(send, { boundedPool: options.connections !== undefined });
  return { fetch: fetchFn, close: () => agent.close() };
}
