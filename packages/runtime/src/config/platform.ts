/**
 * What differs between the runtime's entries (browser and Node): the default
 * transport, and whether an undici dispatcher can be used; and the transport
 * a client's options name.
 */
import { ConfigurationError } from "../errors.js";
import { fetchTransport } from "../transport/fetch-adapter.js";
import { globalFetchTransport } from "../transport/global-fetch.js";
import type { Transport } from "../transport/port.js";
import type { ClientOptions, DispatcherLike } from "./options.js";

/** What differs between the runtime's entries: the default transport, and whether a dispatcher can be used. */
export interface Platform {
  /** The transport of a client that names none; undefined when there is none (no global fetch). */
  defaultTransport(): Transport | undefined;
  /**
   * Wraps a caller's undici dispatcher; absent where undici is not available (browsers).
   * @throws ConfigurationError when it is no dispatcher (it has no `request` method).
   */
  dispatcherTransport?: (dispatcher: DispatcherLike) => Transport;
}

/** The browser entry's platform (also Deno's, Bun's and Workers'): the global `fetch`, no dispatcher. */
export const FETCH_PLATFORM: Platform = { defaultTransport: globalFetchTransport };

/** The transport named by the options, or the platform's default. @throws ConfigurationError */
export function transportOf(options: ClientOptions, platform: Platform): Transport {
  const given = [options.fetch, options.dispatcher, options.transport].filter((value) => value !== undefined).length;
  if (given > 1) throw new ConfigurationError("pass at most one of fetch, dispatcher and transport");
  if (options.fetch !== undefined) {
    if (typeof options.fetch !== "function") throw new ConfigurationError("fetch must be a function");
    return fetchTransport(options.fetch);
  }
  if (options.dispatcher !== undefined) {
    if (platform.dispatcherTransport === undefined)
      throw new ConfigurationError("dispatcher needs Node (the runtime's node entry)");
    return platform.dispatcherTransport(options.dispatcher);
  }
  if (options.transport !== undefined) {
    if (typeof (options.transport as { send?: unknown } | null)?.send !== "function") {
      throw new ConfigurationError("transport must have a send function");
    }
    return options.transport;
  }
  const transport = platform.defaultTransport();
  if (transport === undefined) throw new ConfigurationError("no global fetch: pass fetch, dispatcher or transport");
  return transport;
}
