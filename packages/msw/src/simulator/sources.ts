import { SimError } from "./errors.js";
import { stableJson } from "./members.js";
import type { ResourceWriter } from "./resources/writer.js";
import type { ResourceStore } from "./resources/store.js";

/**
 * Sources captured per Scope, each at a position (1, 2, 3, ... per scope):
 * the `source` records of the resource store, so `list_sources`,
 * `get_source` and `create_source` (answered by the generic engine) see
 * every captured Source. Capture is idempotent per `source_id`: the same
 * content under the same id answers like the first capture and stores
 * nothing; other content under a used id is `409 source_conflict` (ADR 0001
 * §2, the release's capture semantics).
 */

/** One stored Source, as the flush and Topic Memory read it. */
export interface SourceRecord {
  readonly source_id: string;
  readonly position: number;
  /** The content as text (JSON text for structured content). */
  readonly content: string;
  /** Journaled by an Artifact write: nothing to extract. */
  readonly derived: boolean;
}

/** The `CaptureContentSourceResponse` wire body. */
export interface CaptureResult {
  status: "accepted";
  source: { name: string; source_id: string };
  position: number;
}

/** The Source type name reported in `SourceReference.name` and `source_type`. */
export const CONTENT_SOURCE_NAME = "content";

/** The resource name of Sources in `x-powercontext-resources`. */
const SOURCE = "source";

/** Per-scope Source log over the resource store. */
export class SourceStore {
  constructor(
    private readonly store: ResourceStore,
    private readonly writer: ResourceWriter,
  ) {}

  /**
   * Stores a Source of `options.type` (default `content`), or replays an identical earlier
   * capture. `options.derived` marks a Source the Memory flush passes over without
   * extracting (a working note, which the release never promotes through a Source window).
   * @returns the capture response
   * @throws SimError 409 `source_conflict` when `source_id` already holds other content
   */
  capture(
    scopeId: string,
    sourceId: string,
    content: unknown,
    { type = CONTENT_SOURCE_NAME, derived = false }: { readonly type?: string; readonly derived?: boolean } = {},
  ): CaptureResult {
    const origin = stableJson(content);
    const existing = this.store.find(SOURCE, [scopeId], sourceId);
    if (existing) {
      if (existing.origin !== origin)
        throw new SimError(409, "source_conflict", "The Source identity has different content.", null);
      return toResult(type, sourceId, existing.current.position as number);
    }
    const record = this.writer.insert(
      SOURCE,
      [scopeId],
      { source_type: type, source_id: sourceId, content, receipt_identity: null, ...(derived ? { derived } : {}) },
      { origin },
    );
    return toResult(type, sourceId, record.position as number);
  }

  /** Scopes that hold at least one Source. */
  scopes(): string[] {
    return this.store.collectionKeys(SOURCE).map((keys) => String(keys[0]));
  }

  /** Position of the newest Source of the scope (the Source head); 0 when none. */
  head(scopeId: string): number {
    return this.store.count(SOURCE, [scopeId]);
  }

  /** True when a Source past position `after` has content to extract (one not derived). */
  extractable(scopeId: string, after: number): boolean {
    return this.window(scopeId, after, Number.POSITIVE_INFINITY).some((source) => !source.derived);
  }

  /** Sources with `after < position <= through`, in order. */
  window(scopeId: string, after: number, through: number): readonly SourceRecord[] {
    return this.store
      .records(SOURCE, [scopeId])
      .map((r) => r.current)
      .filter((r) => (r.position as number) > after && (r.position as number) <= through)
      .sort((a, b) => (a.position as number) - (b.position as number))
      .map((r) => ({
        source_id: r.source_id as string,
        position: r.position as number,
        content: typeof r.content === "string" ? r.content : stableJson(r.content),
        derived: r.derived === true,
      }));
  }
}

function toResult(type: string, sourceId: string, position: number): CaptureResult {
  return { status: "accepted", source: { name: type, source_id: sourceId }, position };
}
