import type { IncomingMessage } from "node:http";
import { BODY_TOO_LARGE } from "../simulator/types.js";

/**
 * The request-body limit of the HTTP mock server. A body larger than the limit
 * is never buffered: a declared `Content-Length` above it is refused before a
 * byte is read, and a streamed body is refused at the chunk that crosses it,
 * its chunks read so far dropped. The rest of the upload is then discarded
 * unread by `@hono/node-server` and the connection closed after the answer.
 */

/**
 * Default limit in bytes: 16 MiB, the released server's default
 * `max_request_body_bytes`, so every body the release accepts is read here too.
 */
export const DEFAULT_MAX_REQUEST_BODY_BYTES = 16 * 1024 * 1024;

/** True when `incoming` declares a `Content-Length` over `limitBytes` (refused before a byte is read). */
export function declaredTooLarge(incoming: IncomingMessage, limitBytes: number): boolean {
  const declared = incoming.headers["content-length"];
  return declared !== undefined && Number(declared) > limitBytes;
}

/**
 * Reads the body of `incoming` as UTF-8 text (invalid sequences replaced, as
 * `Request.text()` does), or returns {@link BODY_TOO_LARGE} once it is known
 * to exceed `limitBytes`.
 * @throws Error when the client aborts or the stream fails while being read
 */
export function readBodyWithin(incoming: IncomingMessage, limitBytes: number): Promise<string | typeof BODY_TOO_LARGE> {
  if (declaredTooLarge(incoming, limitBytes)) return Promise.resolve(BODY_TOO_LARGE);
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    const settle = (outcome: () => void) => {
      incoming.off("data", onData).off("end", onEnd).off("error", onError).off("aborted", onAborted);
      outcome();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limitBytes) {
        chunks.push(chunk);
        return;
      }
      chunks = [];
      incoming.pause();
      settle(() => resolve(BODY_TOO_LARGE));
    };
    const onEnd = () => settle(() => resolve(new TextDecoder().decode(Buffer.concat(chunks, size))));
    const onError = (error: Error) => settle(() => reject(error));
    const onAborted = () => settle(() => reject(new Error("the client aborted the request")));
    incoming.on("data", onData).on("end", onEnd).on("error", onError).on("aborted", onAborted);
    if (incoming.readableEnded) onEnd();
  });
}
