import { ConfigurationError } from "../errors.js";

/** Options that decide whether a base URL is acceptable (DESIGN §2). */
export interface BaseUrlPolicy {
  /**
   * Accept plaintext `http://` to a non-loopback host. Only honoured together
   * with a caller-supplied transport (`fetch`), like the Python client's
   * `trust_transport_security`: the caller vouches that its transport secures
   * the connection (a mesh sidecar, a tunnel, a unix socket).
   */
  trustTransportSecurity?: boolean;
  /** True when the caller injected its own `fetch`. */
  customTransport?: boolean;
}

/** True for `localhost`, `::1` and any address in `127.0.0.0/8`. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host === "[::1]" || host === "::1") return true;
  const octets = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return octets !== null && octets.slice(1).every((part) => Number(part) <= 255);
}

/**
 * Checks and normalises a base URL (DESIGN §2): `https://` anywhere, `http://`
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
      throw new ConfigurationError("plaintext http:// is for loopback hosts only; use https://, or your own fetch with trustTransportSecurity");
    }
    if (policy.customTransport !== true) {
      throw new ConfigurationError("trustTransportSecurity requires a caller-supplied fetch");
    }
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}
