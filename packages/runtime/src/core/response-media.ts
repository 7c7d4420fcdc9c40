import type { DeclaredMedia, MediaKind, MediaReader } from "../descriptor.js";
import { invalidBody } from "../transport/parse-json.js";
import { readBody, readBytes } from "../transport/read-body.js";
import { charsetOf, readText } from "../transport/read-text.js";
import { sentMediaType, undeclaredMedia } from "./media-type.js";

/**
 * How to read an answer of an outcome status by the media types the status
 * declares and the answer's `Content-Type` (its media type, parameters and case
 * aside): the kind of the declared type it is, or of a declared range (`text/*`,
 * `*\/*`) that holds it. A status declared without content is read as none,
 * whatever was sent. An answer without a `Content-Type` is read as its status's
 * one declared type; when the status declares several, nothing says which one came.
 *
 * @param clean removes the secrets from the answer's type before it is quoted (a
 *   server may echo the token there).
 * @returns the kind, or `undeclared`: a sentence naming the answer's type and the
 *   declared ones.
 */
function bodyReading(
  declared: DeclaredMedia,
  contentType: string | null,
  clean: (text: string) => string = (text) => text,
): MediaKind | { undeclared: string } {
  const types = Object.keys(declared);
  const sent = sentMediaType(contentType);
  const essence = sent?.toLowerCase();
  const match = essence
    ? types.find((type) => [essence, essence.replace(/\/.*/, "/*"), "*/*"].includes(type.toLowerCase()))
    : types.length === 1
      ? types[0]
      : undefined;
  if (types.length === 0) return "none";
  if (match !== undefined) return declared[match] as MediaKind;
  return { undeclared: undeclaredMedia(sent, types, clean) };
}

/**
 * The media reader of the rows that declare `responseMedia` (the generator sets
 * it on them alone; docs/adr/0034-media-reader-per-descriptor.md): JSON as
 * UTF-8 text for the caller to parse and validate; text decoded strictly in the
 * charset its `Content-Type` names (`utf-8` when it names none); binary as the
 * bytes; nothing for a status declared without content (the body is released
 * unread).
 *
 * @throws InvalidResponseError (the promise rejects) for a type the status does
 *   not declare (the body is released unread), and for a body over
 *   `reading.maxBytes` or not valid in its charset.
 */
export const readResponseMedia: MediaReader = async (response, declared, { context, maxBytes, clean }) => {
  const contentType = response.headers.get("content-type");
  const kind = bodyReading(declared, contentType, clean);
  if (typeof kind !== "string") {
    response.cancel();
    throw invalidBody(`${context.statusCode} has ${clean(kind.undeclared)}`, context);
  }
  if (kind === "none") {
    // Declared without content: whatever the server sent, the outcome is "done, nothing to read".
    response.cancel();
    return { value: undefined };
  }
  if (kind === "binary") return { value: await readBytes(response, context, maxBytes) };
  if (kind === "text") return { value: await readText(response, context, maxBytes, charsetOf(contentType) ?? "utf-8") };
  return { json: await readBody(response, context, maxBytes) };
};
