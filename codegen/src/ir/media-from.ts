import { SpecError, SpecErrorList, pointerSegment } from "../errors.js";
import type { Json } from "./domain.js";
import type { MediaFromIr, ResponseIr } from "./model.js";

/** Our operation extension: the request member that chooses the success media type (docs/architecture.md). */
export const MEDIA_FROM_EXTENSION = "x-powercontext-media-from";

/**
 * Reads `x-powercontext-media-from` of one operation: `{ member, values: { <value>: <media type> } }`.
 * When the request's `member` has one of the values, the success answer is sent as that
 * media type; otherwise as the response's preferred one. Every media type named must be
 * declared by the operation's primary success response. Null without the extension.
 *
 * @param at - JSON pointer of the operation
 * @param members - the request's members (parameters by wire name and body properties)
 * @throws {SpecErrorList} `invalid_extension` naming the pointer of every malformed member
 */
export function readMediaFrom(
  op: Json,
  at: string,
  members: readonly string[],
  success: ResponseIr,
): MediaFromIr | null {
  const raw = op[MEDIA_FROM_EXTENSION];
  if (raw === undefined) return null;
  const base = `${at}/${MEDIA_FROM_EXTENSION}`;
  const issues: SpecError[] = [];
  const bad = (member: string, detail: string) =>
    issues.push(new SpecError("invalid_extension", { pointer: member === "" ? base : `${base}/${member}` }, detail));
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    bad("", "expected { member, values: { <value>: <media type> } }");
    throw new SpecErrorList(issues);
  }
  const node = raw as Json;
  if (typeof node.member !== "string" || !members.includes(node.member))
    bad("member", `expected a member of the request, not ${JSON.stringify(node.member)}`);
  const values: Record<string, string> = {};
  if (typeof node.values !== "object" || node.values === null || Array.isArray(node.values))
    bad("values", "expected { <value>: <media type> }");
  else {
    const declared = success.media.map((m) => m.mediaType);
    for (const [value, mediaType] of Object.entries(node.values as Json)) {
      if (typeof mediaType !== "string" || !declared.includes(mediaType))
        bad(
          `values/${pointerSegment(value)}`,
          `${JSON.stringify(mediaType)} is not a media type of the ${success.status} response (${declared.join(", ")})`,
        );
      else values[value] = mediaType;
    }
  }
  if (issues.length > 0) throw new SpecErrorList(issues);
  return { member: node.member as string, values };
}
