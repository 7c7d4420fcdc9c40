import type { InvalidResponseError } from "../errors.js";
import { invalidBody, type ResponseContext } from "./parse-json.js";

/** Default response body cap: 1 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

/** Strict UTF-8: a byte order mark is kept as U+FEFF, malformed bytes throw. */
const STRICT_UTF8: TextDecoderOptions = { ignoreBOM: true, fatal: true };

/**
 * Decoder for whole bodies. A call without `stream` leaves no state behind, so
 * one instance serves every response; a streamed body gets its own.
 */
const wholeBodyDecoder = new TextDecoder("utf-8", STRICT_UTF8);

function tooLarge(maxBytes: number, context: ResponseContext): InvalidResponseError {
  return invalidBody(`body exceeds ${maxBytes} bytes`, context);
}

/**
 * Decodes (a chunk of) UTF-8 strictly: a byte order mark is kept as U+FEFF
 * (so it is not JSON, as for a strict decoder), malformed bytes are an error.
 */
function decode(decoder: TextDecoder, context: ResponseContext, bytes?: ArrayBuffer | Uint8Array, stream?: boolean): string {
  try {
    return decoder.decode(bytes, { stream });
  } catch {
    throw invalidBody("body is not valid UTF-8", context);
  }
}

/**
 * Reads a response body as bytes, never holding more than `maxBytes` (default
 * 1 MiB). A declared `Content-Length` above the cap fails before reading;
 * otherwise bytes are counted while they stream in, and the stream is cancelled
 * as soon as the count passes the cap.
 *
 * @throws InvalidResponseError when the body is larger than `maxBytes`. Network
 *   failures while reading propagate unchanged (the caller turns them into
 *   `TransportError`).
 */
export async function readBytes(
  response: Response,
  context: ResponseContext,
  maxBytes: number = DEFAULT_MAX_RESPONSE_BYTES,
): Promise<Uint8Array> {
  const declared = response.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared)) {
    if (Number(declared) > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge(maxBytes, context);
    }
    // HTTP framing stops the body at the declared length, so no count is needed.
    return new Uint8Array(await response.arrayBuffer());
  }
  if (response.body === null) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes, context);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * Reads a response body as UTF-8 text, never holding more than `maxBytes`
 * (default 1 MiB). A declared `Content-Length` above the cap fails before
 * reading; otherwise bytes are counted while they stream in, and the stream is
 * cancelled as soon as the count passes the cap. Decoding is strict: a leading
 * byte order mark is kept (U+FEFF, which no JSON text starts with) and
 * malformed UTF-8 is refused.
 *
 * @throws InvalidResponseError when the body is larger than `maxBytes` or is
 *   not valid UTF-8. Network failures while reading propagate unchanged (the
 *   caller turns them into `TransportError`).
 */
export async function readBody(
  response: Response,
  context: ResponseContext,
  maxBytes: number = DEFAULT_MAX_RESPONSE_BYTES,
): Promise<string> {
  const declared = response.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared)) {
    if (Number(declared) > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge(maxBytes, context);
    }
    // HTTP framing stops the body at the declared length, so no count is needed.
    return decode(wholeBodyDecoder, context, await response.arrayBuffer());
  }
  if (response.body === null) return "";

  const decoder = new TextDecoder("utf-8", STRICT_UTF8);
  const reader = response.body.getReader();
  let received = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes, context);
    }
    text += decode(decoder, context, value, true);
  }
  return text + decode(decoder, context);
}
