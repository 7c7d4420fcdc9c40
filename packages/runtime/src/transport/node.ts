import { Agent, fetch as undiciFetch, type Dispatcher } from "undici";
import type { FetchLike } from "./fetch-adapter.js";

/** Options of {@link createNodeTransport}; durations in milliseconds. */
export interface NodeTransportOptions {
  /** How long an idle keep-alive socket stays open. Default 4 000 ms. */
  keepAliveTimeoutMs?: number;
  /** TCP + TLS connect timeout. Default 10 000 ms. */
  connectTimeoutMs?: number;
  /** Maximum sockets per origin. Default: unlimited (undici's default). */
  connections?: number;
}

/**
 * A dedicated undici `Agent` with keep-alive and a connect timeout: pass
 * `dispatcher` to the client (the undici adapter, the fast one) or `fetch`
 * (undici's fetch on the same agent), and call `close()` when done.
 */
export interface NodeTransport {
  /** The undici Agent to pass as the client's `dispatcher` option (the undici adapter). */
  dispatcher: Dispatcher;
  /** undici's fetch on the same Agent, for the client's `fetch` option. */
  fetch: FetchLike;
  /** Closes the undici Agent. The client never calls this: the caller owns the transport. */
  close(): Promise<void>;
}

/**
 * Creates a Node-only transport: an undici `Agent` with keep-alive and a
 * connect timeout, for clients that want their own pool (a connection limit,
 * other timeouts) instead of the shared default agent.
 */
export async function createNodeTransport(options: NodeTransportOptions = {}): Promise<NodeTransport> {
  const agent = new Agent({
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 4000,
    connectTimeout: options.connectTimeoutMs ?? 10_000,
    ...(options.connections === undefined ? {} : { connections: options.connections }),
  });
  const fetchFn: FetchLike = (url, init) =>
    undiciFetch(url, { ...init, dispatcher: agent }) as unknown as Promise<Response>;
  // Bun's undici is its own, whose Agent has no close: there is nothing to close then.
  const close = (agent as Partial<Agent>).close;
  return {
    dispatcher: agent,
    fetch: fetchFn,
    close: () => (typeof close === "function" ? close.call(agent) : Promise.resolve()),
  };
}
