import type { FetchLike } from "./send.js";

/** Options of {@link createNodeTransport}; durations in milliseconds. */
export interface NodeTransportOptions {
  /** How long an idle keep-alive socket stays open. Default 4 000 ms. */
  keepAliveTimeoutMs?: number;
  /** TCP + TLS connect timeout. Default 10 000 ms. */
  connectTimeoutMs?: number;
  /** Maximum sockets per origin. Default: unlimited (undici's default). */
  connections?: number;
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
    ...(options.connections === undefined ? {} : { connections: options.connections }),
  });
  const fetchFn: FetchLike = (url, init) =>
    undici.fetch(url, { ...init, dispatcher: agent }) as unknown as Promise<Response>;
  return { fetch: fetchFn, close: () => agent.close() };
}
