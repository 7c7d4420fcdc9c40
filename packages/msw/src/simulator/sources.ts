import { SimError } from "./errors.js";

/**
 * Sources captured per Scope, each at a position (1, 2, 3, ... per scope).
 * Capture is idempotent per `source_id`: the same content under the same id
 * answers like the first capture and stores nothing; other content under a
 * used id is `409 source_conflict` (ADR 0001 §2, upstream capture semantics).
 */

/** One stored Source. Its content stays inside the simulator. */
export interface SourceRecord {
  readonly source_id: string;
  readonly position: number;
  readonly content: string;
  readonly metadataJson: string;
  readonly captured_at: number;
}

/** The `CaptureContentSourceResponse` wire body. */
export interface CaptureResult {
  status: "accepted";
  source: { name: string; source_id: string };
  position: number;
}

/** The Source type name reported in `SourceReference.name`. */
export const CONTENT_SOURCE_NAME = "content";

/** One scope's Sources: in position order (position `n` at index `n - 1`) and by `source_id`. */
interface ScopeSources {
  readonly list: SourceRecord[];
  readonly byId: Map<string, SourceRecord>;
}

/** Per-scope Source log. */
export class SourceStore {
  readonly #byScope = new Map<string, ScopeSources>();

  /**
   * Stores a Source, or replays an identical earlier capture.
   * @returns the capture response and whether a new Source was stored
   * @throws SimError 409 `source_conflict` when `source_id` already holds other content or metadata
   */
  capture(
    scopeId: string,
    sourceId: string,
    content: string,
    metadata: unknown,
    nowMs: number,
  ): { result: CaptureResult; created: boolean } {
    const { list, byId } = this.#scope(scopeId);
    const metadataJson = JSON.stringify(metadata ?? null);
    const existing = byId.get(sourceId);
    if (existing) {
      if (existing.content !== content || existing.metadataJson !== metadataJson) {
        throw new SimError(409, "source_conflict", "This source_id already holds different content.", {
          source_id: sourceId,
        });
      }
      return { result: toResult(existing), created: false };
    }
    const record: SourceRecord = { source_id: sourceId, position: list.length + 1, content, metadataJson, captured_at: nowMs };
    list.push(record);
    byId.set(sourceId, record);
    return { result: toResult(record), created: true };
  }

  /** Position of the newest Source of the scope (the Source head); 0 when none. */
  head(scopeId: string): number {
    return this.#byScope.get(scopeId)?.list.length ?? 0;
  }

  /** Sources with `after < position <= through`, in order. */
  window(scopeId: string, after: number, through: number): readonly SourceRecord[] {
    return (this.#byScope.get(scopeId)?.list ?? []).slice(Math.max(0, after), Math.max(0, through));
  }

  /** Scopes that hold at least one Source. */
  scopes(): string[] {
    return [...this.#byScope.keys()];
  }

  #scope(scopeId: string): ScopeSources {
    let scope = this.#byScope.get(scopeId);
    if (!scope) {
      scope = { list: [], byId: new Map() };
      this.#byScope.set(scopeId, scope);
    }
    return scope;
  }
}

function toResult(record: SourceRecord): CaptureResult {
  return {
    status: "accepted",
    source: { name: CONTENT_SOURCE_NAME, source_id: record.source_id },
    position: record.position,
  };
}
