/**
 * The caller's own request headers (client-wide `headers`, a call's
 * `headers`, header parameters, and what middleware sets), checked before
 * anything is sent: a header that no HTTP/1.1
 * message can carry would otherwise fail inside the transport, look like a
 * network failure and be retried.
 */

import { redact, secretsOf } from "./sanitize.js";

/** A field name: an RFC 9110 token. */
const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** A field value as a message carries it: tab, space, visible ASCII and Latin-1 (obs-text); no CR, LF, NUL or DEL. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Fields the HTTP client writes itself to frame the message; a caller's value would contradict them. */
const FRAMING_FIELDS = new Set([
  "connection",
  "content-length",
  "expect",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
]);

/** True when `value` can be a field value as it is (see FIELD_VALUE). */
export function isFieldValue(value: string): boolean {
  return FIELD_VALUE.test(value);
}

/** What a field value must not hold, for the messages of every check. */
export const FIELD_VALUE_RULE = "must not contain CR, LF, NUL, DEL or characters beyond U+00FF";

/**
 * Why `token` cannot be sent as `Authorization: Bearer <token>`, or null when
 * it can. It is a configuration error, found when the client is built: sent,
 * it would fail inside the transport before anything left, look like a network
 * failure and be retried. The reason never quotes the token.
 */
export function tokenProblem(token: string): string | null {
  if (!FIELD_VALUE.test(token)) return FIELD_VALUE_RULE;
  // A header value loses the whitespace around it, so the server would see another token.
  if (/^[\t ]|[\t ]$/.test(token)) return "must not begin or end with a space or tab";
  return null;
}

/** Why a caller header named `Authorization` is refused while the client has a token. */
const AUTHORIZATION_FROM_TOKEN = "the Authorization header comes from the token and cannot be set in headers";

/**
 * Why a caller's header cannot be sent, or null when it can. The message
 * names a header only by a valid field name, never by its value or by a name
 * that is not one (a whole `Authorization: Bearer ...` line passed as a name
 * would otherwise be quoted, credential and all).
 *
 * @param token the client's bearer token; while it is set, `Authorization`
 *   comes from it and a caller's own is refused. It is removed from the
 *   message (a valid field name can still be the token itself).
 */
export function headerFieldProblem(name: string, value: unknown, token = ""): string | null {
  if (!FIELD_NAME.test(name)) return "a header name is not an HTTP token (name not shown)";
  const lower = name.toLowerCase();
  if (token !== "" && lower === "authorization") return AUTHORIZATION_FROM_TOKEN;
  const shown = redact(name, secretsOf(token));
  if (FRAMING_FIELDS.has(lower)) return `header ${shown} is set by the HTTP client`;
  if (typeof value !== "string") return `header ${shown} must be a string`;
  if (!FIELD_VALUE.test(value)) return `header ${shown} ${FIELD_VALUE_RULE}`;
  return null;
}
