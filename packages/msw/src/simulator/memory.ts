import { invalidRequest } from "./errors.js";
import type { SeededRandom } from "./random.js";

/**
 * Memory per Scope on the release's Atomic Memory records: every remembered
 * or flushed fact is its own record (an `atomic-memory` artifact at revision
 * 1, state `active`), listed newest last with a cursor, and searched by word
 * overlap. Enough for the examples and valid against `AtomicMemoryRecord`,
 * `SearchMemoryResponse`, `MemoryMutationResponse` and
 * `ListMemoryEntriesResponse`.
 */

/** The `ArtifactReference` wire shape. */
export interface ArtifactReference {
  family: string;
  artifact_id: string;
  revision: number;
}

/** The `AtomicMemoryRecord` wire shape. */
export interface AtomicMemoryRecord {
  artifact: ArtifactReference;
  kind: string;
  text: string;
  state: "active" | "forgotten" | "merged" | "retired";
  state_version: number;
  merged_into_id: string | null;
}

/** A new record to write. */
export interface NewRecord {
  kind: string;
  text: string;
}

/** Search modes of `SearchMemoryRequest.mode`. */
export type SearchMode = "auto" | "fts" | "vector" | "hybrid";

/** The artifact family of an Atomic Memory record, as the released server names it. */
export const ATOMIC_MEMORY_FAMILY = "atomic-memory";
const MAX_TEXT_BYTES = 8192;

/** Atomic Memory records of every scope. */
export class MemoryStore {
  readonly #byScope = new Map<string, AtomicMemoryRecord[]>();

  constructor(private readonly random: SeededRandom) {}

  /** The artifact of the scope's newest record, or null before its first write. */
  ref(scopeId: string): ArtifactReference | null {
    const newest = this.#byScope.get(scopeId)?.at(-1);
    return newest ? { ...newest.artifact } : null;
  }

  /** Writes one new record per item. @returns copies of the written records */
  write(scopeId: string, items: readonly NewRecord[]): AtomicMemoryRecord[] {
    let records = this.#byScope.get(scopeId);
    if (!records) {
      records = [];
      this.#byScope.set(scopeId, records);
    }
    const written = items.map((item): AtomicMemoryRecord => ({
      artifact: { family: ATOMIC_MEMORY_FAMILY, artifact_id: this.random.id("art"), revision: 1 },
      kind: item.kind,
      text: item.text,
      state: "active",
      state_version: 0,
      merged_into_id: null,
    }));
    records.push(...written);
    return structuredClone(written);
  }

  /**
   * `remember_memory`: one curated record (`MemoryMutationResponse`).
   * @throws SimError 422 when `text` exceeds 8192 UTF-8 bytes
   */
  remember(scopeId: string, kind: string, text: string) {
    if (new TextEncoder().encode(text).length > MAX_TEXT_BYTES) throw invalidRequest("text", "must be at most 8192 bytes");
    return { changed: true, records: this.write(scopeId, [{ kind, text }]) };
  }

  /**
   * `list_memory_entries`: records in write order, `limit` per page; the cursor is
   * the index of the next record. Only active records unless `includeInactive`.
   * @throws SimError 422 for a cursor this store did not hand out
   */
  list(scopeId: string, includeInactive: boolean, limit = 100, cursor: string | null = null) {
    const all = (this.#byScope.get(scopeId) ?? []).filter((r) => includeInactive || r.state === "active");
    const start = cursor === null ? 0 : /^\d+$/.test(cursor) ? Number(cursor) : Number.NaN;
    if (!(start >= 0 && start <= all.length)) throw invalidRequest("cursor", "is not a cursor of this list");
    const page = all.slice(start, start + limit);
    const next = start + page.length < all.length ? String(start + page.length) : null;
    return { entries: structuredClone(page), next_cursor: next };
  }

  /** Ranks active records by the share of query words they contain (score in [0, 1]). */
  search(scopeId: string, query: string, limit: number, mode: SearchMode) {
    const words = tokenize(query);
    const used = mode === "auto" || mode === "fts" ? "text" : mode;
    const matchedBy: ("text" | "vector")[] = used === "hybrid" ? ["text", "vector"] : [used];
    const hits = (this.#byScope.get(scopeId) ?? [])
      .filter((r) => r.state === "active")
      .map((record) => {
        const have = new Set(tokenize(record.text));
        const score = words.length === 0 ? 0 : words.filter((w) => have.has(w)).length / words.length;
        return { record, score };
      })
      .filter((h) => h.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, limit)
      .map((h) => ({ memory: structuredClone(h.record), score: Math.round(h.score * 1000) / 1000, matched_by: [...matchedBy] }));
    return { mode: used, hits };
  }
}

function tokenize(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
}
