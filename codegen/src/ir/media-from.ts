import { SpecError, SpecErrorList, pointerSegment } from "../errors.js";
import { readFact } from "../facts/read-fact.js";
import type { Json } from "../domain/types.js";
import type { MediaFromIr, ResponseIr } from "./model.js";

/** Our operation extension: the request member that chooses the success media type (docs/extensions.md). */
export const MEDIA_FROM_EXTENSION = "x-powercontext-media-from";

/**
 * Reads `x-powercontext-media-from` of one operation (docs/extensions.md,
 * `media-from`), whose shape the loader checked: its member is a request member,
 * and every media type it names is declared by the operation's primary success
 * response. Null without the extension.
 *
 * @param at - JSON pointer of the operation
 * @param members - the request's members (parameters by wire name and body properties)
 * @throws {SpecErrorList} `invalid_extension` naming the pointer of every broken reference
 */
export function readMediaFrom(
  op: Json,
  at: string,
  members: readonly string[],
  success: ResponseIr,
): MediaFromIr | null {
  const raw = op[MEDIA_FROM_EXTENSION];
  if (raw === undefined) return null;
  const fact = readFact("media-from", raw) as MediaFromIr;
  const base = `${at}/${MEDIA_FROM_EXTENSION}`;
  const issues: SpecError[] = [];
  if (!members.includes(fact.member))
    issues.push(
      new SpecError(
        "invalid_extension",
        { pointer: `${base}/member` },
        `expected a member of the request, not ${JSON.stringify(fact.member)}`,
      ),
    );
  const declared = success.media.map((m) => m.mediaType);
  for (const [value, mediaType] of Object.entries(fact.values))
    if (!declared.includes(mediaType))
      issues.push(
        new SpecError(
          "invalid_extension",
          { pointer: `${base}/values/${pointerSegment(value)}` },
          `${JSON.stringify(mediaType)} is not a media type of the ${success.status} response (${declared.join(", ")})`,
        ),
      );
  if (issues.length > 0) throw new SpecErrorList(issues);
  return fact;
}
