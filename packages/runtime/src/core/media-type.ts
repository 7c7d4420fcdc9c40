/**
 * The media type an answer's `Content-Type` names, as sent: what comes before its
 * first parameter, trimmed; undefined when the header is absent.
 */
export function sentMediaType(contentType: string | null): string | undefined {
  return contentType?.split(";")[0]?.trim();
}

/**
 * The sentence for an answer of a media type its status does not declare: the
 * answer's type (its first 100 characters, as sent, after `clean` removed the
 * secrets, so no cut leaves part of a secret behind) and the declared ones.
 */
export function undeclaredMedia(
  sent: string | undefined,
  declared: readonly string[],
  clean: (text: string) => string,
): string {
  return `${sent ? `content type ${clean(sent).slice(0, 100)}` : "no content type"}, which the contract does not declare (it declares ${declared.join(", ")})`;
}
