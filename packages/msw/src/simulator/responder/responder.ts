import { SimError } from "../errors.js";
import { SeededRandom } from "../random.js";
import type { SimOperation } from "../contract/operation-table.js";
import { noneMatch } from "../contract/conditional.js";
import { flatRequest } from "../contract/request-check.js";
import type { HandlerResult, SimRequest } from "../types.js";
import { contentTypeOf, requestedMedia } from "./media.js";
import { sampleValue } from "./sample.js";

/**
 * The deterministic responder: answers an operation the simulator keeps no
 * state for with its plain success status (the lowest declared 2xx other than
 * an accepted one) and a body built from that status's schema with every
 * member it declares, as the release's models serialise them (an optional one
 * its default or `null`; an empty list page without a next cursor), checked with
 * the operation's generated response validator. The body depends only on the
 * seed and the operationId, so it is the same on every call and every run
 * with the same seed. Text and binary successes get a short body of their
 * media type (a text type labelled `charset=utf-8`), as does a request whose
 * `x-powercontext-media-from` member asks for a text type; an operation that
 * declares `304` answers it when `If-None-Match` names the ETag the responder
 * sends.
 */

const VARIANTS = 16;

/** Builds the success answers of operations, memoised per operationId. */
export class Responder {
  readonly #seed: number;
  readonly #cache = new Map<string, HandlerResult>();

  /** @param seed the simulator's seed */
  constructor(seed: number) {
    this.#seed = seed;
  }

  /**
   * The answer of `operationId` to `request`.
   * @throws SimError 500 when no sampled body satisfies the operation's validator (a schema the sampler cannot meet)
   */
  answer(operationId: string, op: SimOperation, request: SimRequest): HandlerResult {
    const media = requestedMedia(op, flatRequest(op, request));
    const key = media === null ? operationId : `${operationId}\u0000${media}`;
    let result = this.#cache.get(key);
    if (result === undefined) {
      result = this.#build(operationId, op, media);
      this.#cache.set(key, result);
    }
    const etag = result.headers?.ETag;
    const notModified = op.responses.some((r) => r.status === 304);
    if (notModified && etag !== undefined && noneMatch(request.headers, etag)) {
      return { status: 304, body: null, headers: { ETag: etag } };
    }
    return result;
  }

  #build(operationId: string, op: SimOperation, media: string | null): HandlerResult {
    const status = op.successStatuses.find((s) => s !== op.acceptedStatus) ?? (op.successStatuses[0] as number);
    const response = op.responses.find((r) => r.status === status);
    const headers: Record<string, string> = {};
    const declares304 = op.responses.some((r) => r.status === 304);
    const random = () => new SeededRandom(hash(`${this.#seed}:${operationId}`));
    if (response === undefined || response.kind === "none") return { status, body: null };
    const text = media?.startsWith("text/")
      ? media
      : response.kind === "text"
        ? (response.mediaType ?? "text/plain")
        : null;
    if (text !== null)
      return {
        status,
        body: `sample ${operationId}\n`,
        contentType: contentTypeOf(text),
        headers: withEtag(headers, declares304, operationId),
      };
    if (response.kind === "binary")
      return {
        status,
        body: new TextEncoder().encode(operationId),
        contentType: response.mediaType ?? "application/octet-stream",
        headers: withEtag(headers, declares304, operationId),
      };
    const target = op.successBodies[status];
    if (target === undefined) return { status, body: {}, headers: withEtag(headers, declares304, operationId) };
    // Every declared member first, as the release's models serialise them, then the smallest
    // instance; an answer that leaves out what the server did not set tries the smallest first.
    for (const nulls of op.excludeUnset ? [false, true] : [true, false]) {
      for (let variant = 0; variant < VARIANTS; variant += 1) {
        const body = lastPage(op, sampleValue(target.schema, { random: random(), variant, nulls }), target.validate);
        if (target.validate(body))
          return { status, body, headers: withEtag(headers, declares304, JSON.stringify(body)) };
      }
    }
    throw new SimError(500, "internal_error", "The server failed.");
  }
}

/**
 * A list with no items is its last page: its next cursor is null (or left out
 * where it may not be null), so a caller paging through a list the mock keeps
 * no state for stops after one page, as `paginate()` does on the release.
 */
function lastPage(op: SimOperation, body: unknown, validate: (value: unknown) => boolean): unknown {
  const page = op.pagination;
  if (page === null || typeof body !== "object" || body === null || Array.isArray(body)) return body;
  const fields = body as Record<string, unknown>;
  const items = fields[page.itemsField];
  if (
    !Array.isArray(items) ||
    items.length > 0 ||
    fields[page.nextCursorField] === null ||
    fields[page.nextCursorField] === undefined
  )
    return body;
  const ended = { ...fields, [page.nextCursorField]: null };
  if (validate(ended)) return ended;
  const { [page.nextCursorField]: _cursor, ...without } = fields;
  return validate(without) ? without : body;
}

function withEtag(headers: Record<string, string>, declares304: boolean, content: string): Record<string, string> {
  return declares304 ? { ...headers, ETag: `"${hash(content).toString(16)}"` } : headers;
}

/** FNV-1a over the UTF-16 code units of `text`, 32 bits. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
