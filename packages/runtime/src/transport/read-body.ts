import type { BodySource } from "../descriptor.js";
import type { InvalidResponseError } from "../errors.js";
import { invalidBody, type ResponseContext } from "./parse-json.js";
import { isIdentityEncoding } from "./port.js";

/** Default response body cap: 1 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

/** Strict UTF-8: a byte order mark is kept as U+FEFF, malformed bytes throw. */
const STRICT_UTF8: TextDecoderOptions = { ignoreBOM: true, fatal: true };

/** One decoder serves every body: a call without `stream` leaves no state behind. */
const decoder = new TextDecoder("utf-8", STRICT_UTF8);

function tooLarge(maxBytes: number, context: ResponseContext): InvalidResponseError {
  return invalidBody(`body exceeds ${maxBytes} bytes`, context);
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
  response: BodySource,
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
 * Reads a JSON body as text under the cap of {@link readBytes}: UTF-8, decoded strictly
 * (malformed bytes are refused, never replaced), a leading byte order mark kept as U+FEFF,
 * which no JSON text starts with. A text answer in another charset is read by
 * `readText` (`read-text.ts`), which only the media reader of the rows that declare
 * text brings into a bundle.
 *
 * @throws InvalidResponseError when the body is larger than `maxBytes` or is not valid
 *   UTF-8. Failures of the transport while reading propagate unchanged (the caller turns
 *   them into `TransportError`).
 */
export async function readBody(
  response: BodySource,
  context: ResponseContext,
  maxBytes: number = DEFAULT_MAX_RESPONSE_BYTES,
): Promise<string> {
  const bytes = await readBytes(response, context, maxBytes);
  try {
    return decoder.decode(bytes);
  } catch {
    throw invalidBody("body is not valid UTF-8", context);
  }
}
