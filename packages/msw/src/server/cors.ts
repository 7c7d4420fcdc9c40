import { contractClientHeaders, contractOperations } from "../generated/contract.js";
import type { ContractOperation } from "../contract/types.js";

/**
 * CORS headers of the embedded server, so a page in a browser can call every
 * operation from another origin, all of it read from the contract:
 *
 * - every method an operation uses (PUT among them), and `OPTIONS`;
 * - the request headers a client sends (`Authorization`, `Content-Type`, the
 *   trace context, the contract's client headers) and every header parameter an
 *   operation declares (`If-Match`, `If-None-Match`, ...);
 * - exposed: the response headers a client reads (the request id,
 *   `Location`, `Retry-After`, `ETag`, `WWW-Authenticate`) and every header a
 *   response declares (the Handoff Report's digests among them).
 */
export const corsHeaders: Readonly<Record<string, string>> = buildCorsHeaders(
  Object.values(contractOperations),
  contractClientHeaders,
);

/** The CORS headers for `operations` and the headers every request carries (exported for its test). */
export function buildCorsHeaders(
  operations: readonly ContractOperation[],
  clientHeaders: readonly string[] = [],
): Readonly<Record<string, string>> {
  const methods = new Set<string>(["GET", "POST"]);
  const requestHeaders = new Set(["Authorization", "Content-Type", "traceparent", "tracestate", ...clientHeaders]);
  const exposed = new Set(["X-PowerContext-Request-ID", "Location", "Retry-After", "ETag", "WWW-Authenticate"]);
  for (const operation of operations) {
    methods.add(operation.method);
    for (const parameter of operation.parameters.header) requestHeaders.add(parameter.name);
    for (const response of operation.responses) for (const header of response.headers) exposed.add(header);
  }
  const list = (names: Set<string>) => [...dedupe(names)].join(", ");
  return {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": `${[...methods].sort().join(", ")}, OPTIONS`,
    "Access-Control-Allow-Headers": list(requestHeaders),
    "Access-Control-Expose-Headers": list(exposed),
    "Access-Control-Max-Age": "600",
  };
}

/** The names without a second spelling of one (header names are case-insensitive), in first-seen order. */
function dedupe(names: Set<string>): Set<string> {
  const seen = new Map<string, string>();
  for (const name of names) if (!seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
  return new Set(seen.values());
}
