/**
 * The mock's documented tokens (`pc-admin`, `pc-writer`, `pc-reader`) are public: anyone
 * who reads the README holds them. Served on loopback they reach only this machine; on
 * any other interface they would let the whole network in. So outside loopback the
 * server needs a principals file of its own, or the caller's explicit consent.
 */
import { isLoopbackHost } from "@powercontext/runtime";
import { defaultPrincipals, type PrincipalConfig } from "../simulator/access/principals.js";
import type { PowerContextSimulator } from "../simulator/simulator.js";

/** True when `config` maps any of the documented tokens (`pc-admin`, `pc-writer`, `pc-reader`). */
export function holdsDocumentedTokens(config: PrincipalConfig): boolean {
  return Object.keys(defaultPrincipals.tokens).some((token) => Object.hasOwn(config.tokens, token));
}

/** True when `simulator` accepts any of the documented tokens (`pc-admin`, `pc-writer`, `pc-reader`). */
export function servesDocumentedTokens(simulator: PowerContextSimulator): boolean {
  return Object.keys(defaultPrincipals.tokens).some((token) => simulator.authenticates(token));
}

/**
 * True when `host` binds only loopback, by the client's own rule (`isLoopbackHost` of
 * `@powercontext/runtime`: `localhost`, `::1`, 127.0.0.0/8) applied to the host as a URL
 * parser reads it. A host no URL can hold is not loopback.
 */
export function isLoopbackBind(host: string): boolean {
  const bracketed = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  try {
    return isLoopbackHost(new URL(`http://${bracketed}/`).hostname);
  } catch {
    return false;
  }
}

/** Why serving the documented tokens on `host` is refused, or null when it is not. */
export function exposureProblem(host: string, ownPrincipals: boolean, allowDefaultTokens: boolean): string | null {
  if (ownPrincipals || allowDefaultTokens || isLoopbackBind(host)) return null;
  return (
    `refusing to serve the documented tokens (pc-admin, pc-writer, pc-reader) on ${host}, which is not loopback: ` +
    "anyone on the network could use them. Give a principals file of your own without them (--config), " +
    "or pass --allow-default-tokens if this network is yours alone"
  );
}
