import { SimError, invalidRequest } from "./errors.js";
import type { SeededRandom } from "./random.js";

/**
 * Memory per Scope: one Memory artifact whose revision grows with every write,
 * holding entries that can be listed, fetched by citation and searched by
 * word overlap. Enough to be useful in examples and valid against the
 * `MemoryEntry`, `SearchMemoryResponse` and `MemoryMutationResponse` schemas.
 */

export interface ArtifactReference {
  family: string;
  artifact_id: string;
  revision: number;
}

export interface MemoryCitation {
  memory_ref: ArtifactReference;
  entry_id: string;
  entry_version_id: string;
}

/** The `MemoryEntry` wire shape. */
export interface MemoryEntry {
  citation: MemoryCitation;
  version: number;
  kind: string;
  text: string;
  state: "active" | "inactive";
  source_refs: { name: string; source_id: string }[];
  artifact_refs: ArtifactReference[];
}

/** A new entry to write. */
export interface NewEntry {
  kind: string;
  text: string;
  source_refs?: { name: string; source_id: string }[];
}

/** Search modes of `SearchMemoryRequest.mode`. */
export type SearchMode = "auto" | "fts" | "vector" | "hybrid";

interface ScopeMemory {
  ref: ArtifactReference;
  entries: MemoryEntry[];
}

const MEMORY_FAMILY = "memory";
const MAX_TEXT_BYTES = 8192;

/** Memory artifacts of every scope. */
export class MemoryStore {
  readonly #byScope = new Map<string, ScopeMemory>();

  constructor(private readonly random: SeededRandom) {}

  /** The scope's current Memory reference, or null before its first write. */
  ref(scopeId: string): ArtifactReference | null {
    const memory = this.#byScope.get(scopeId);
    return memory ? { ...memory.ref } : null;
  }

  /**
   * Writes entries as one new Memory revision.
   * @returns the new reference and the written entries
   */
  write(scopeId: string, items: readonly NewEntry[]): { memory: ArtifactReference; entries: MemoryEntry[] } {
    let memory = this.#byScope.get(scopeId);
    if (!memory) {
      memory = { ref: { family: MEMORY_FAMILY, artifact_id: this.random.id("mem"), revision: 0 }, entries: [] };
      this.#byScope.set(scopeId, memory);
    }
    memory.ref = { ...memory.ref, revision: memory.ref.revision + 1 };
    const written = items.map((item): MemoryEntry => ({
      citation: { memory_ref: { ...memory.ref }, entry_id: this.random.id("ent"), entry_version_id: this.random.id("ver") },
      version: 1,
      kind: item.kind,
      text: item.text,
      state: "active",
      source_refs: item.source_refs ?? [],
      artifact_refs: [],
    }));
    memory.entries.push(...written);
    return { memory: { ...memory.ref }, entries: structuredClone(written) };
  }

  /**
   * `remember_memory`: one curated entry, one new revision.
   * @throws SimError 422 when `text` exceeds 8192 UTF-8 bytes
   * @throws SimError 409 `revision_conflict` (details.current_revision) when `expectedRevision` is set and stale
   */
  remember(scopeId: string, kind: string, text: string, expectedRevision: number | null) {
    if (new TextEncoder().encode(text).length > MAX_TEXT_BYTES) throw invalidRequest("text", "must be at most 8192 bytes");
    const current = this.#byScope.get(scopeId)?.ref.revision ?? 0;
    if (expectedRevision !== null && expectedRevision !== current) {
      throw new SimError(409, "revision_conflict", "The Memory changed since the expected revision.", {
        current_revision: current,
      });
    }
    const { memory, entries } = this.write(scopeId, [{ kind, text }]);
    return { memory, entry: entries[0] ?? null };
  }

  /** Entries of the current head; inactive ones only when asked. */
  list(scopeId: string, includeInactive: boolean) {
    const memory = this.#byScope.get(scopeId);
    const entries = (memory?.entries ?? []).filter((e) => includeInactive || e.state === "active");
    return { memory: this.ref(scopeId), entries: structuredClone(entries) };
  }

  /** @throws SimError 404 `not_found` when the citation names no entry of this scope. */
  get(scopeId: string, citation: MemoryCitation): MemoryEntry {
    const found = this.#byScope.get(scopeId)?.entries.find(
      (e) =>
        e.citation.entry_id === citation.entry_id &&
        e.citation.entry_version_id === citation.entry_version_id &&
        e.citation.memory_ref.artifact_id === citation.memory_ref?.artifact_id &&
        e.citation.memory_ref.revision === citation.memory_ref?.revision,
    );
    if (!found) throw new SimError(404, "not_found", "No Memory entry matches this citation.", null);
    return structuredClone(found);
  }

  /** Ranks active entries by the share of query words they contain (score in [0, 1]). */
  search(scopeId: string, query: string, limit: number, mode: SearchMode) {
    const words = tokenize(query);
    const used = mode === "auto" ? "fts" : mode;
    const matchedBy: ("fts" | "vector")[] = used === "hybrid" ? ["fts", "vector"] : [used];
    const hits = (this.#byScope.get(scopeId)?.entries ?? [])
      .filter((e) => e.state === "active")
      .map((e) => {
        const have = new Set(tokenize(e.text));
        const score = words.length === 0 ? 0 : words.filter((w) => have.has(w)).length / words.length;
        return { entry: e, score };
      })
      .filter((h) => h.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, limit)
      .map((h) => ({
        citation: structuredClone(h.entry.citation),
        text: h.entry.text,
        score: Math.round(h.score * 1000) / 1000,
        matched_by: [...matchedBy],
      }));
    return { memory: this.ref(scopeId), mode: this.#byScope.has(scopeId) ? used : null, hits };
  }
}

function tokenize(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
}
