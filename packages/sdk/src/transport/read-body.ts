import type { InvalidResponseError } from "../errors.js";
import { invalidBody, type ResponseContext } from "./parse-json.js";

/** Default response body cap: 1 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

function tooLarge(maxBytes: number, context: ResponseContext): InvalidResponseError {
  return invalidBody(`body exceeds ${maxBytes} bytes`, context);
}

/**
 * Reads a response body as UTF-8 text, never holding more than `maxBytes`
 * (default 1 MiB). A declared `Content-Length` above the cap fails before
 * reading; otherwise bytes are counted while they stream in, and the stream is
 * cancelled as soon as the count passes the cap.
 *
 * @throws InvalidResponseError when the body is larger than `maxBytes`.
 *   Network failures while reading propagate unchanged (the caller turns them
 *   into `TransportError`).
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
    return response.text();
  }
  if (response.body === null) return "";

  const reader = response.body.getReader();
  const decoder = new TextDecoder();
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
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}
