import { fetchTransport, type FetchInit, type FetchLike } from "./fetch-adapter.js";
import type { Transport } from "./port.js";

/** The part of Deno's namespace this module uses (`Deno.createHttpClient`). */
interface DenoNamespace {
  createHttpClient?: (options: { poolMaxIdlePerHost?: number }) => unknown;
}

/**
 * On Deno, a `fetch` that sends every request on a connection of its own
 * (an `HttpClient` that keeps no idle connection), or undefined elsewhere.
 * Deno's fetch re-sends a request by itself when a reused keep-alive
 * connection drops before the answer, so a request that must reach the
 * server at most once goes through this one (docs/runtimes.md): on a fresh
 * connection, Deno has nothing to re-send it on.
 */
function denoNeverResendFetch(fetchFn: FetchLike): FetchLike | undefined {
  const deno = (globalThis as { Deno?: DenoNamespace }).Deno;
  if (typeof deno?.createHttpClient !== "function") return undefined;
  return (url: string, init: FetchInit) => {
    // One client for every PowerContext client of the process, made on first use.
    denoClient ??= deno.createHttpClient?.({ poolMaxIdlePerHost: 0 });
    return fetchFn(url, { ...init, client: denoClient } as FetchInit);
  };
}

/** The `Deno.HttpClient` of never-resend requests, shared (it holds no idle connection). */
let denoClient: unknown;

/**
 * The transport of a client that names none outside Node: the fetch adapter
 * on the global `fetch` (undefined when there is none), with Deno's
 * connection policy for never-resend requests.
 */
export function globalFetchTransport(): Transport | undefined {
  const global = globalThis.fetch as FetchLike | undefined;
  if (typeof global !== "function") return undefined;
  const fetchFn: FetchLike = (url, init) => global(url, init);
  const neverResendFetch = denoNeverResendFetch(fetchFn);
  return neverResendFetch === undefined ? fetchTransport(global) : fetchTransport(fetchFn, { neverResendFetch });
}
