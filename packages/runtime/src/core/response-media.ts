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
 * @returns the kind, or `undeclared`: a sentence naming the answer's type (its
 *   first 100 characters) and the declared ones (the caller removes secrets from it).
 */
export function bodyReading(
  descriptor: OperationDescriptor,
  statusCode: number,
  contentType: string | null,
): MediaKind | { undeclared: string } {
  const declared = descriptor.responseMedia?.[statusCode] ?? { "application/json": "json" };
  const types = Object.keys(declared);
  const essence = contentType?.split(";")[0]?.trim().toLowerCase();
  const match = essence
    ? types.find((type) => [essence, essence.replace(/\/.*/, "/*"), "*/*"].includes(type.toLowerCase()))
    : types.length === 1
      ? types[0]
      : undefined;
  if (types.length === 0) return "none";
  if (match !== undefined) return declared[match] as MediaKind;
  // A header can be many kilobytes: the sentence quotes its first 100 characters.
  return {
    undeclared: `${essence ? `content type ${essence.slice(0, 100)}` : "no content type"}, which the contract does not declare (it declares ${types.join(", ")})`,
  };
}
