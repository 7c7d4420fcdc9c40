import { ConfigurationError } from "../errors.js";

/** Options that decide whether a base URL is acceptable (docs/compatibility.md). */
export interface BaseUrlPolicy {
  /**
   * Accept plaintext `http://` to a non-loopback host. Only honoured together
   * with a caller-supplied transport (`fetch`), like the Python client's
   * `trust_transport_security`: the caller vouches that its transport secures
   * the connection (a mesh sidecar, a tunnel, a unix socket).
   */
  trustTransportSecurity?: boolean;
  /** True when the caller injected its own `fetch`, dispatcher or transport. */
  customTransport?: boolean;
}

/** A dotted-quad in 127.0.0.0/8, each octet decimal without a leading zero (the only form a parsed URL holds). */
const LOOPBACK_IPV4 = /^127(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/**
 * The loopback rule of the Python client, applied to a hostname as the WHATWG
 * URL parser returns it (`new URL(raw).hostname`): exactly `localhost`, the
 * IPv6 loopback `[::1]` (or `::1`), or an IPv4 address in `127.0.0.0/8`.
 * Nothing else, and in particular no trailing dot (`localhost.` is an
 * absolute DNS name that skips `/etc/hosts`), no other name that usually
 * resolves to loopback (`localhost.localdomain`, `sub.localhost`), no
 * IPv4-mapped IPv6 (`[::ffff:7f00:1]`), and not `0.0.0.0` or `[::]`.
 *
 * Spellings the URL parser rewrites (`127.1`, `0x7f.0.0.1`, `2130706433`,
 * `LOCALHOST`, full-width letters, `[0:0:0:0:0:0:0:1]`) are judged by what they
 * become, as the Python client does after its own URL normalisation; the
 * client then connects to that normalised host, never to the spelling.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === "localhost" || host === "[::1]" || host === "::1" || LOOPBACK_IPV4.test(host);
}

/**
 * Checks and normalises a base URL (docs/compatibility.md): `https://` anywhere, `http://`
 * only to loopback unless the transport is trusted; no userinfo, query or
 * fragment (not even an empty `?` or `#`). Returns the URL without a trailing
 * slash, so that operation paths can be appended: `https://h/prefix`.
 *
 * @throws ConfigurationError when any rule is broken. The message never repeats
 *   the URL, since userinfo may hold a secret.
 */
export function normalizeBaseUrl(raw: string, policy: BaseUrlPolicy = {}): string {
  if (typeof raw !== "string" || raw.trim() === "") throw new ConfigurationError("baseUrl is required");
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigurationError("baseUrl is not an absolute URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ConfigurationError(`baseUrl must be http or https, not ${url.protocol}`);
  }
  if (url.username !== "" || url.password !== "" || /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(raw.trim())) {
    throw new ConfigurationError("baseUrl must not contain userinfo; pass the token as `token`");
  }
  // The URL parser gives a query or a fragment only to a string holding "?" or "#".
  if (/[?#]/.test(raw)) throw new ConfigurationError("baseUrl must not contain a query string or fragment");
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    if (policy.trustTransportSecurity !== true) {
      throw new ConfigurationError(
        "plaintext http:// is for loopback hosts only; use https://, or your own fetch with trustTransportSecurity",
      );
    }
    if (policy.customTransport !== true) {
      throw new ConfigurationError("trustTransportSecurity requires a caller-supplied fetch, dispatcher or transport");
    }
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}
