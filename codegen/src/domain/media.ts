import type { MediaKind } from "./types.js";

/**
 * How a client reads or writes a body of this media type: `json` for
 * `application/json` and any structured `+json` type, `text` for `text/*`,
 * `binary` for everything else (octet streams, images, archives). Parameters such
 * as `; charset=utf-8` are ignored.
 */
export function mediaKind(mediaType: string): Exclude<MediaKind, "none"> {
  const essence = mediaType.split(";")[0]!.trim().toLowerCase();
  if (essence === "application/json" || essence.endsWith("+json")) return "json";
  if (essence.startsWith("text/")) return "text";
  return "binary";
}

const PREFERENCE: Record<Exclude<MediaKind, "none">, number> = { json: 0, text: 1, binary: 2 };

/**
 * The media type a client asks for first among those declared: JSON before text
 * before binary, then declaration order. Undefined for an empty list.
 */
export function preferredMedia<T extends { readonly mediaType: string; readonly kind: Exclude<MediaKind, "none"> }>(
  media: readonly T[],
): T | undefined {
  let best: T | undefined;
  for (const entry of media) if (best === undefined || PREFERENCE[entry.kind] < PREFERENCE[best.kind]) best = entry;
  return best;
}
