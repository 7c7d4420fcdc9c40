import { SimError } from "./errors.js";
import { fromBase64Url, toBase64Url } from "./resources/base64url.js";
import { stableJson, type JsonRecord } from "./members.js";
import { sha256Hex } from "./digest/sha256.js";

/**
 * Restoration preview tokens: what `preview_atomic_memory_restoration` hands
 * out and `restore_atomic_memory` must be given back, as the release's signed
 * previews work. A token is `<payload>.<seal>`: the base64url JSON of its
 * claims (Scope, the principal it was issued to, operation, Artifact, the
 * revision asked for, the endpoint the preview saw, the expiry in whole seconds) and a digest of that payload. The
 * mock has no secret; the seal only makes a token it did not issue, or one
 * changed by hand, fail as the release's signature check fails.
 */

/** What a token was issued for, compared with the restoration that presents it. */
export interface PreviewClaims {
  readonly scope_id: string;
  /** The principal the preview was handed to (`type:id`); another principal's restoration is refused. */
  readonly subject: string;
  readonly operation: string;
  readonly artifact_id: string;
  readonly revision: number | null;
  readonly endpoint: JsonRecord;
  /** Seconds since the epoch after which the token is refused (`409 preview_expired`). */
  readonly expires_at: number;
}

/** The release's bound on a token's length. */
const MAX_TOKEN_LENGTH = 16_384;
const SEAL_CONTEXT = "powercontext-mock.restoration-preview.v1";

/** A token for `claims`. */
export function issuePreviewToken(claims: PreviewClaims): string {
  const payload = toBase64Url(stableJson(claims));
  return `${payload}.${seal(payload)}`;
}

/**
 * The endpoint a token saw, after checking it was issued by this mock for
 * exactly this restoration and has not expired.
 * @throws SimError `422 invalid_preview` for a token not issued, changed, or issued for another restoration;
 *   `409 preview_expired` once `nowSeconds` reached its expiry
 */
export function checkPreviewToken(
  token: string,
  expected: Omit<PreviewClaims, "endpoint" | "expires_at">,
  nowSeconds: number,
): JsonRecord {
  const claims = readClaims(token);
  if (claims === null) throw invalidPreview("The restoration preview token is invalid.");
  const asked = [expected.scope_id, expected.subject, expected.operation, expected.artifact_id, expected.revision];
  const given = [claims.scope_id, claims.subject, claims.operation, claims.artifact_id, claims.revision];
  if (stableJson(asked) !== stableJson(given))
    throw invalidPreview("The restoration preview does not match this request.");
  if (nowSeconds >= claims.expires_at)
    throw new SimError(409, "preview_expired", "The restoration preview has expired.", null);
  return claims.endpoint;
}

function readClaims(token: string): PreviewClaims | null {
  if (token.length > MAX_TOKEN_LENGTH) return null;
  const parts = token.split(".");
  if (parts.length !== 2 || !/^[A-Za-z0-9_-]+$/.test(parts[0] ?? "") || parts[1] !== seal(parts[0] ?? "")) return null;
  try {
    const claims = JSON.parse(fromBase64Url(parts[0] as string)) as PreviewClaims;
    return typeof claims === "object" && claims !== null && typeof claims.expires_at === "number" ? claims : null;
  } catch {
    return null;
  }
}

function seal(payload: string): string {
  return sha256Hex(`${SEAL_CONTEXT}\n${payload}`);
}

function invalidPreview(message: string): SimError {
  return new SimError(422, "invalid_preview", message, null);
}
