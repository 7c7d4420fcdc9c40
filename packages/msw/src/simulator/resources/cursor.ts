import { fromBase64Url, toBase64Url } from "./base64url.js";
import { sha256Hex } from "../digest/sha256.js";

/**
 * Page cursors of the resource lists: opaque base64url text naming the last
 * record of the page (its order value and id) and a seal: a digest keyed by
 * the simulator's cursor key over that position and the request it belongs to
 * (every member but the cursor itself), as the release binds its cursors to
 * the query and refuses one that was tampered with. A cursor handed out for
 * another request, one decoded, changed and encoded again, or text that is no
 * cursor at all, does not decode. A bounded list's cursor also carries the
 * bound its first page set (`pages.ts`), sealed with the rest, so a list
 * always ends.
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
  /** The seal: {@link seal} of the request digest and the other members. */
  readonly d: string;
  /** The list's bound, when it has one. */
  readonly b?: unknown;
}

/** The digest of a request's stable text that a cursor is bound to. */
export function requestDigest(requestText: string): string {
  return sha256Hex(requestText).slice(0, 16);
}

/** Drawn once when this module loads: what nobody outside the process can know, whatever they read. */
const PROCESS_SECRET = Array.from(globalThis.crypto.getRandomValues(new Uint8Array(16)), (byte) =>
  byte.toString(16).padStart(2, "0"),
).join("");

/**
 * The key a simulator seals its cursors with, from its seed and a secret drawn once per
 * process: two simulators with one seed in one process hand out the same cursors (the
 * determinism the seed promises), while a cursor changed by hand, or sealed by someone
 * who knows the seed and this code, does not match its seal. Another process (a restarted
 * `powercontext-mock serve`) seals with another key, as it holds other records.
 */
export function cursorKey(seed: number): string {
  return sha256Hex(`powercontext-mock cursor key ${seed} ${PROCESS_SECRET}`).slice(0, 32);
}

/** A keyed digest of `content`: 16 hex digits, what every cursor of the simulator carries to prove it is one of its own. */
export function seal(key: string, content: string): string {
  return sha256Hex(`${key}\n${content}`).slice(0, 16);
}

function sealOf(key: string, digest: string, body: Omit<CursorBody, "d">): string {
  return seal(key, `${digest}\n${JSON.stringify([body.a, body.i, body.b])}`);
}

/** A cursor for the page after `position`, bound to the request `digest` and sealed with `key`. */
export function encodeCursor(position: CursorPosition, digest: string, key: string): string {
  const content = {
    ...(JSON.stringify(position.order ?? null) === position.id ? {} : { a: position.order }),
    i: position.id,
    ...(position.bound === undefined ? {} : { b: position.bound }),
  };
  const body: CursorBody = { ...content, d: sealOf(key, digest, content) };
  return toBase64Url(JSON.stringify(body));
}

/**
 * The position a cursor names, or null when it is malformed, belongs to another
 * request, or does not match its seal (it was changed after it was handed out).
 */
export function decodeCursor(cursor: string, digest: string, key: string): CursorPosition | null {
  if (!/^[A-Za-z0-9_-]{1,4096}$/.test(cursor)) return null;
  try {
    const body = JSON.parse(fromBase64Url(cursor)) as Partial<CursorBody>;
    if (typeof body !== "object" || body === null || typeof body.i !== "string") return null;
    const order = "a" in body ? body.a : (JSON.parse(body.i) as unknown);
    const position = "b" in body ? { order, id: body.i, bound: body.b } : { order, id: body.i };
    // Only the text the simulator wrote, seal included: a changed value fails the seal, and the same
    // values written otherwise (members added, reordered, repeated or spaced) are not that text.
    return encodeCursor(position, digest, key) === cursor ? position : null;
  } catch {
    return null;
  }
}
