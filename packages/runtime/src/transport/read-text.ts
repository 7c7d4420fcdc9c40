import type { BodySource } from "../descriptor.js";
import { invalidBody, type ResponseContext } from "./parse-json.js";
import { readBytes } from "./read-body.js";

/** What windows-1252 maps 0x80-0x9F to (the five it leaves undefined map to themselves). */
const WINDOWS_1252 =
  "\u20ac\x81\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\x8d\u017d\x8f\x90\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\x9d\u017e\u0178";

function windows1252(control: string): string {
  return WINDOWS_1252[control.charCodeAt(0) - 0x80] as string;
}

/**
 * Reads a text answer under the cap of {@link readBytes}, strictly, in `charset`: any
 * label of the WHATWG Encoding standard (`utf-8`, `utf-16`, `iso-8859-1`, ...; from
 * {@link charsetOf}, `utf-8` when the answer names none). Its byte order mark is dropped;
 * malformed bytes are refused, never replaced.
 *
 * @throws InvalidResponseError when the body is larger than `maxBytes` (default 1 MiB),
 *   is not valid in its charset, or names a charset no decoder of this runtime knows (the
 *   label, the server's text, is not quoted). Failures of the transport while reading
 *   propagate unchanged (the caller turns them into `TransportError`).
 */
export async function readText(
  response: BodySource,
  context: ResponseContext,
  maxBytes: number | undefined,
  charset: string,
): Promise<string> {
  const bytes = await readBytes(response, context, maxBytes);
  let named: TextDecoder;
  try {
    named = new TextDecoder(charset, { fatal: true });
    // A UTF-16 text whose byte order mark says big-endian is read so, as the Encoding standard's decode does.
    if (named.encoding === "utf-16le" && bytes[0] === 0xfe && bytes[1] === 0xff)
      named = new TextDecoder("utf-16be", { fatal: true });
  } catch {
    throw invalidBody("body names a charset this runtime cannot decode", context);
  }
  try {
    const decoded = named.decode(bytes);
    // Node 20 reads windows-1252's 0x80-0x9F as C1 controls. A decoder that follows the
    // Encoding standard yields only the five that map to themselves, which stay as they are.
    return named.encoding === "windows-1252" ? decoded.replace(/[\x80-\x9f]/g, windows1252) : decoded;
  } catch {
    throw invalidBody(charset === "utf-8" ? "body is not valid UTF-8" : "body is not valid in its charset", context);
  }
}

/**
 * The `charset` parameter of a media type (its first), unquoted, trimmed and lower case, or
 * null when it names none. Parameters are read in turn, each quoted value whole, so a
 * `charset=` inside another parameter's quoted value is not one.
 */
export function charsetOf(contentType: string | null): string | null {
  for (const [, name, value] of (contentType ?? "").matchAll(/;\s*([^\s;=]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g))
    if (name?.toLowerCase() === "charset") {
      const label = value?.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, "$1") : (value ?? "");
      return label.trim().toLowerCase() || null;
    }
  return null;
}
