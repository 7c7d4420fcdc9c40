import { fromBase64Url, toBase64Url } from "./base64url.js";
import { sha256Hex } from "./sha256.js";

/**
 * Page cursors of the resource lists: opaque base64url text naming the last
 * record of the page (its order value and id) and a digest of the request it
 * belongs to (every member but the cursor itself), as the release binds its
 * cursors to the query. A cursor handed out for another request, or text
 * that is no cursor at all, does not decode. A bounded list's cursor also
 * carries the bound its first page set (`pages.ts`).
 */

/** Where the next page starts: after the record with this order value and id text. */
export interface CursorPosition {
  readonly order: unknown;
  readonly id: string;
  /** The bound of a bounded list (the highest value of its bound member at the first page); undefined for none. */
  readonly bound?: unknown;
}

interface CursorBody {
  /** The order value; left out when it is the id itself, so a cursor fits the release's shortest cursor member (128 characters). */
  readonly a?: unknown;
  readonly i: string;
  readonly d: string;
  /** The list's bound, when it has one. */
  readonly b?: unknown;
}

/** The digest a cursor carries: of the request's stable text. */
export function requestDigest(requestText: string): string {
  return sha256Hex(requestText).slice(0, 16);
}

/** A cursor for the page after `position`, bound to `digest`. */
export function encodeCursor(position: CursorPosition, digest: string): string {
  const body: CursorBody = {
    ...(JSON.stringify(position.order ?? null) === position.id ? {} : { a: position.order }),
    i: position.id,
    d: digest,
    ...(position.bound === undefined ? {} : { b: position.bound }),
  };
  return toBase64Url(JSON.stringify(body));
}

/** The position a cursor names, or null when it is malformed or belongs to another request. */
export function decodeCursor(cursor: string, digest: string): CursorPosition | null {
  if (!/^[A-Za-z0-9_-]{1,4096}$/.test(cursor)) return null;
  try {
    const body = JSON.parse(fromBase64Url(cursor)) as Partial<CursorBody>;
    if (typeof body !== "object" || body === null || body.d !== digest || typeof body.i !== "string") return null;
    const order = "a" in body ? body.a : (JSON.parse(body.i) as unknown);
    return "b" in body ? { order, id: body.i, bound: body.b } : { order, id: body.i };
  } catch {
    return null;
  }
}
