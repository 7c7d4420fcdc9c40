/**
 * base64url text (RFC 4648 section 5, no padding) of UTF-8 text, for the
 * opaque tokens the mock hands out: page cursors and restoration previews.
 */

/** The base64url form of `text`'s UTF-8 bytes. */
export function toBase64Url(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * The UTF-8 text base64url `encoded` holds.
 * @throws Error when `encoded` is not base64 or its bytes are not UTF-8
 */
export function fromBase64Url(encoded: string): string {
  const binary = atob(encoded.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}
