import type { SimRequest } from "../types.js";
import { headerValue } from "./request-check.js";

/**
 * Whether the request's `If-None-Match` names `etag`, compared as RFC 9110
 * asks for this header: weakly (`W/"x"` names `"x"`), and any tag of a
 * comma-separated list. The release answers `304` in both cases; it answers
 * `*` with the representation (`200`), and so does this.
 */
export function noneMatch(headers: SimRequest["headers"], etag: string): boolean {
  const value = headerValue(headers, "If-None-Match");
  if (value === undefined) return false;
  const wanted = opaque(etag);
  return (value.match(TAG) ?? []).some((tag) => opaque(tag) === wanted);
}

/** An entity tag, weak or strong, as it appears in a list. */
const TAG = /(?:W\/)?"[^"]*"/g;

function opaque(tag: string): string {
  return tag.trim().replace(/^W\//, "");
}
