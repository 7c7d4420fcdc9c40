import { ATOMIC_MEMORY_FAMILY } from "./artifacts.js";
import { SimError, invalidRequest } from "./errors.js";
import type { JsonRecord } from "./members.js";
import type { ResourceWriter } from "./resources/writer.js";
import { seal } from "./resources/cursor.js";
import { admitted } from "./lexical-admission.js";
import { foldKey } from "@powercontext/runtime/rules";

/**
 * Memory per Scope on the release's Atomic Memory records: every remembered
 * or flushed fact is an `atomic-memory` Artifact (written through the resource
 * writer, so `get_artifact`, `list_artifacts` and the Artifact lineage see
 * it) with its Atomic Memory record (`atomic_memory` in the resource store:
 * state `active`, `state_version` 0), listed in write order with a cursor,
 * and searched by word overlap over the active records.
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

/** The resource of Atomic Memory records in `x-powercontext-resources`. */
const ATOMIC_MEMORY = "atomic_memory";
const MAX_TEXT_BYTES = 8192;

/** Atomic Memory records of every scope, over the resource writer. */
export class MemoryStore {
  /**
   * @param writer writes the records
   * @param cursorKey seals the list's cursors (`resources/cursor.ts`), so one changed by hand is refused
   */
  constructor(
    private readonly writer: ResourceWriter,
    private readonly cursorKey = "",
  ) {}

  /**
   * Writes one new Atomic Memory Artifact per item; `journal` (a curated
   * write) also records each as a Source, as the release does for
   * `remember_memory`, while the flush's extraction, which runs when the clock
   * says, does not (and draws its ids from the background sequence).
   * @returns the records written
   */
  write(scopeId: string, items: readonly NewRecord[], journal = false): AtomicMemoryRecord[] {
    return items.map((item) => {
      const artifact = this.writer.insert(
        "artifact",
        [scopeId, ATOMIC_MEMORY_FAMILY],
        { content: { kind: item.kind, text: item.text } },
        { quiet: !journal, background: !journal },
      );
      return this.writer.find(ATOMIC_MEMORY, [scopeId], artifact.artifact_id) as unknown as AtomicMemoryRecord;
    });
  }

  /**
   * `remember_memory`: one curated record (`MemoryMutationResponse`).
   * @throws SimError 422 when `text` exceeds 8192 UTF-8 bytes
   */
  remember(scopeId: string, kind: string, text: string) {
    if (new TextEncoder().encode(text).length > MAX_TEXT_BYTES)
      throw invalidRequest("text", "must be at most 8192 bytes");
    return { changed: true, records: this.write(scopeId, [{ kind, text }], true) };
  }

  /**
   * `list_memory_entries`: records in write order, `limit` per page; the cursor is
   * the index of the next record, sealed. Only active records unless `includeInactive`.
   * @throws SimError 400 `invalid_cursor` for a cursor this store did not hand out for this request, or one changed since
   */
  list(
    scopeId: string,
    includeInactive: boolean,
    limit = 100,
    cursor: string | null = null,
    tagFilter: JsonRecord | null = null,
  ) {
    const all = this.#records(scopeId).filter(
      (r) => (includeInactive || r.state === "active") && this.#tagged(scopeId, r, tagFilter),
    );
    const sealed = (at: number): string => `${at}.${seal(this.cursorKey, `${scopeId}\n${includeInactive}\n${at}`)}`;
    const match = cursor === null ? null : /^(\d+)\.[a-f0-9]+$/.exec(cursor);
    const start =
      cursor === null ? 0 : match !== null && sealed(Number(match[1])) === cursor ? Number(match[1]) : Number.NaN;
    if (!(start >= 0 && start <= all.length)) {
      throw new SimError(400, "invalid_cursor", "The pagination cursor is invalid or does not match this request.", {
        field: "cursor",
        reason: "is invalid",
      });
    }
    const page = all.slice(start, start + limit);
    const next = start + page.length < all.length ? sealed(start + page.length) : null;
    return { entries: page, next_cursor: next };
  }

  /**
   * Ranks active records by the share of the query's distinct words their kind and text
   * contain (score in [0, 1]; the release indexes both), admitting only a record that holds
   * enough of them, as the release's lexical search does (lexical-admission.ts).
   */
  search(scopeId: string, query: string, limit: number, mode: SearchMode) {
    const used = mode === "auto" || mode === "fts" ? "text" : mode;
    const matchedBy: ("text" | "vector")[] = used === "hybrid" ? ["text", "vector"] : [used];
    const active = this.#records(scopeId).filter((r) => r.state === "active");
    const hits = admitted(query, active, (record) => [record.kind, record.text], limit).map((hit) => ({
      memory: hit.candidate,
      score: Math.round(hit.score * 1000) / 1000,
      matched_by: [...matchedBy],
    }));
    return { mode: used, hits };
  }

  /**
   * Whether the record's Artifact carries the filter's tags (`match: all`, else any of
   * them), compared after NFC and case folding, as the release matches tags.
   */
  #tagged(scopeId: string, record: AtomicMemoryRecord, filter: JsonRecord | null): boolean {
    if (filter === null) return true;
    const wanted = ((filter.tags as unknown[] | undefined) ?? []).map((tag) => foldKey(String(tag)));
    const head = this.writer.find("artifact", [scopeId, ATOMIC_MEMORY_FAMILY], record.artifact.artifact_id);
    const labels = new Set(((head?.tag_labels as unknown[] | undefined) ?? []).map((tag) => foldKey(String(tag))));
    return filter.match === "all" ? wanted.every((tag) => labels.has(tag)) : wanted.some((tag) => labels.has(tag));
  }

  #records(scopeId: string): AtomicMemoryRecord[] {
    return this.writer.records(ATOMIC_MEMORY, [scopeId]) as JsonRecord[] as unknown as AtomicMemoryRecord[];
  }
}
