import type { MediaKind, OperationDescriptor } from "../descriptor.js";

/**
 * How to read an answer of an outcome status, by the media types the status
 * declares (`responseMedia`, default `application/json` alone) and the answer's
 * `Content-Type` (its media type, parameters and case aside): the kind of the
 * declared type it is, or of a declared range (`text/*`, `*\/*`) that holds it.
 * A status declared without content is read as none, whatever was sent. An
 * answer without a `Content-Type` is read as its status's one declared type;
 * when the status declares several, nothing says which one came.
 *
 * @param clean removes the secrets from the answer's type before it is quoted (a
 *   server may echo the token there); the quote is then cut, so no cut leaves part
 *   of a secret behind.
 * @returns the kind, or `undeclared`: a sentence naming the answer's type (its
 *   first 100 characters, as sent) and the declared ones.
 */
export function bodyReading(
  descriptor: OperationDescriptor,
  statusCode: number,
  contentType: string | null,
  clean: (text: string) => string = (text) => text,
): MediaKind | { undeclared: string } {
  const declared = descriptor.responseMedia?.[statusCode] ?? { "application/json": "json" };
  const types = Object.keys(declared);
  const sent = contentType?.split(";")[0]?.trim();
  const essence = sent?.toLowerCase();
  const match = essence
    ? types.find((type) => [essence, essence.replace(/\/.*/, "/*"), "*/*"].includes(type.toLowerCase()))
    : types.length === 1
      ? types[0]
      : undefined;
  if (types.length === 0) return "none";
  if (match !== undefined) return declared[match] as MediaKind;
  // A header can be many kilobytes: the sentence quotes its first 100 characters.
  return {
    undeclared: `${sent ? `content type ${clean(sent).slice(0, 100)}` : "no content type"}, which the contract does not declare (it declares ${types.join(", ")})`,
  };
}
