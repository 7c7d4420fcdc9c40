import type { SimOperation } from "../contract/operation-table.js";

/**
 * Which declared media type an answer is sent as. An operation whose contract
 * names a request member that chooses it (`x-powercontext-media-from`, e.g.
 * `format: markdown` -> `text/markdown`) is answered in the media type the
 * request's value names; otherwise, and for other values, in the response's
 * preferred one (JSON first).
 */

/** The media type `flat` (the flat request) asks for, or null for the preferred one. */
export function requestedMedia(op: SimOperation, flat: unknown): string | null {
  const choice = op.mediaFrom;
  if (choice === null || typeof flat !== "object" || flat === null) return null;
  const value = (flat as Record<string, unknown>)[choice.member];
  return typeof value === "string" && Object.hasOwn(choice.values, value) ? (choice.values[value] as string) : null;
}

/** The `Content-Type` of a body of `mediaType`: a text type carries `charset=utf-8`, as the release labels it. */
export function contentTypeOf(mediaType: string): string {
  return mediaType.startsWith("text/") && !/;\s*charset=/i.test(mediaType) ? `${mediaType}; charset=utf-8` : mediaType;
}
