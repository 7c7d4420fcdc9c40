/**
 * The mock's documented tokens (`pc-admin`, `pc-writer`, `pc-reader`) are public: anyone
 * who reads the README holds them. Served on loopback they reach only this machine; on
 * any other interface they would let the whole network in. So outside loopback the
 * server needs a principals file of its own, or the caller's explicit consent.
 */

/** True when `host` binds only loopback: `localhost`, `::1` (with or without brackets) or an IPv4 address in 127.0.0.0/8. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (bare.toLowerCase() === "localhost" || bare === "::1" || bare === "0:0:0:0:0:0:0:1") return true;
  const octets = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(bare);
  return octets !== null && octets[1] === "127" && octets.slice(2).every((part) => Number(part) <= 255);
}

/** Why serving the documented tokens on `host` is refused, or null when it is not. */
export function exposureProblem(host: string, ownPrincipals: boolean, allowDefaultTokens: boolean): string | null {
  if (ownPrincipals || allowDefaultTokens || isLoopbackHost(host)) return null;
  return (
    `refusing to serve the documented tokens (pc-admin, pc-writer, pc-reader) on ${host}, which is not loopback: ` +
    "anyone on the network could use them. Give a principals file of your own (--config), " +
    "or pass --allow-default-tokens if this network is yours alone"
  );
}
