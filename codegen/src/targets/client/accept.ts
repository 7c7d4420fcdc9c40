import { preferredMedia } from "../../domain/media.js";
import type { MediaIr, OperationIr } from "../../ir/model.js";

/**
 * The `Accept` header of an operation, built from the media types its success,
 * accepted and not-modified responses declare: the preferred one (JSON before
 * text before binary) first, the others with `q=0.9`, and `application/json`
 * with `q=0.1` when no JSON type is declared (error bodies are JSON envelopes);
 * `application/json` alone when no response declares content.
 */
export function acceptHeader(op: OperationIr): string {
  const media: MediaIr[] = [];
  for (const response of op.responses) {
    if (response.status >= 300 && response.status !== 304) continue;
    for (const entry of response.media) if (!media.some((m) => m.mediaType === entry.mediaType)) media.push(entry);
  }
  const first = preferredMedia(media);
  if (first === undefined) return "application/json";
  const rest = media.filter((m) => m !== first).map((m) => `${m.mediaType};q=0.9`);
  const errors = media.some((m) => m.kind === "json") ? [] : ["application/json;q=0.1"];
  return [first.mediaType, ...rest, ...errors].join(", ");
}
