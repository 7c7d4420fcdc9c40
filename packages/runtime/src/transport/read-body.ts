import type { InvalidResponseError } from "../errors.js";
import { invalidBody, type ResponseContext } from "./parse-json.js";
import { isIdentityEncoding, type TransportResponse } from "./port.js";

/** Default response body cap: 1 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

/** Strict UTF-8: a byte order mark is kept as U+FEFF, malformed bytes throw. */
const STRICT_UTF8: TextDecoderOptions = { ignoreBOM: true, fatal: true };

/** One decoder serves every body: a call without `stream` leaves no state behind. */
const decoder = new TextDecoder("utf-8", STRICT_UTF8);

function tooLarge(maxBytes: number, context: ResponseContext): InvalidResponseError {
  return invalidBody(`body exceeds ${maxBytes} bytes`, context);
}

/** What windows-1252 maps 0x80-0x9F to (the five it leaves undefined map to themselves). */
const WINDOWS_1252 =
  "\u20ac\x81\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\x8d\u017d\x8f\x90\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\x9d\u017e\u0178";

function windows1252(control: string): string {
  return WINDOWS_1252[control.charCodeAt(0) - 0x80] as string;
}

/**
 * Decodes a body strictly. JSON (`text` false) is UTF-8 with a leading byte order mark
 * kept as U+FEFF, so it is no JSON, as for a strict decoder; a text answer is read in its
 * charset, its byte order mark dropped. Malformed bytes are an error.
 */
function decode(bytes: Uint8Array, context: ResponseContext, charset: string, text: boolean): string {
  let named: TextDecoder;
  try {
    named = text ? new TextDecoder(charset, { fatal: true }) : decoder;
    // A UTF-16 text whose byte order mark says big-endian is read so, as the Encoding standard's decode does.
    if (named.encoding === "utf-16le" && bytes[0] === 0xfe && bytes[1] === 0xff)
      named = new TextDecoder("utf-16be", { fatal: true });
  } catch {
    // The label is not quoted: it is the server's text, which may hold anything.
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
 * Reads a response body as bytes, never holding more than `maxBytes` (default
 * 1 MiB) of decoded content, whatever its `content-encoding`: the transport
 * hands over decoded bytes, they are counted as they arrive, and reading stops
 * (the body is cancelled, its connection released) as soon as the count passes
 * the cap, so 300 KiB of gzip never becomes 300 MiB in memory. A declared
 * `Content-Length` above the cap fails before reading when the body is not
 * encoded (an encoded body's length says nothing about its decoded size).
 *
 * @throws InvalidResponseError when the body is larger than `maxBytes`.
 *   Failures of the transport while reading propagate unchanged (the caller
 *   turns them into `TransportError`).
 */
export async function readBytes(
  response: TransportResponse,
  context: ResponseContext,
  maxBytes: number = DEFAULT_MAX_RESPONSE_BYTES,
): Promise<Uint8Array> {
  const declared = response.headers.get("content-length");
  if (
    declared !== null &&
    /^\d+$/.test(declared) &&
    Number(declared) > maxBytes &&
    isIdentityEncoding(response.headers.get("content-encoding"))
  ) {
    response.cancel();
    throw tooLarge(maxBytes, context);
  }
  let received = 0;
  let first: Uint8Array | null = null;
  let chunks: Uint8Array[] | null = null;
  for (let chunk = await response.read(); chunk !== null; chunk = await response.read()) {
    received += chunk.byteLength;
    if (received > maxBytes) {
      response.cancel();
      throw tooLarge(maxBytes, context);
    }
    if (first === null) first = chunk;
    else (chunks ??= [first]).push(chunk);
  }
  if (first === null) return new Uint8Array(0);
  if (chunks === null) return first;
  const whole = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return whole;
}

/**
 * Reads a response body as text under the cap of {@link readBytes}: JSON as UTF-8, a
 * leading byte order mark kept (U+FEFF, which no JSON text starts with); a text answer
 * (`charset` given: from {@link charsetOf}, `utf-8` when it names none; any label of the
 * WHATWG Encoding standard: `utf-16`, `iso-8859-1`, ...) in its charset, its byte order
 * mark dropped. Decoding is strict: malformed bytes are refused, never replaced.
 *
 * @throws InvalidResponseError when the body is larger than `maxBytes`, or is
 *   not valid in its charset (or names one no decoder knows). Failures of the transport while reading propagate
 *   unchanged (the caller turns them into `TransportError`).
 */
export async function readBody(
  response: TransportResponse,
  context: ResponseContext,
  maxBytes: number = DEFAULT_MAX_RESPONSE_BYTES,
  charset?: string,
): Promise<string> {
  return decode(await readBytes(response, context, maxBytes), context, charset ?? "utf-8", charset !== undefined);
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
