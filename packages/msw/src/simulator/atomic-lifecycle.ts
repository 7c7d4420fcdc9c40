import { ATOMIC_MEMORY_FAMILY, reference } from "./artifacts.js";
import { isoTime } from "./clock.js";
import { SimError } from "./errors.js";
import type { AtomicMemoryRecord } from "./memory.js";
import type { ResourceWriter } from "./resources/writer.js";
import { getPath, stableJson, type JsonRecord } from "./members.js";
import { checkPreviewToken, issuePreviewToken } from "./preview-token.js";
import { CONTENT_SOURCE_NAME } from "./sources.js";

/**
 * The lifecycle of Atomic Memory records, as the release runs it: forgetting
 * a record, merging active records into a new one, and restoring a forgotten
 * record (previewed first) as a new revision of its Artifact. Every input
 * names the exact revision and `state_version` it expects: a stale revision
 * is `409 revision_conflict`, a stale state `409 atomic_memory_changed`, an
 * unknown record `404 not_found`. Forgetting a forgotten record again
 * changes nothing (`changed: false`). A restoration that presents a preview
 * token needs one a preview of that same restoration handed out, still
 * valid, whose record has not moved since (see preview-token.ts).
 */

/** What a restoration (or its preview) names: the record, the operation and the revision asked for. */
export interface RestorationTarget {
  readonly artifactId: string;
  readonly operation: string;
  readonly revision: number | null;
}

/** An input of a lifecycle change: the exact revision and state version the caller saw. */
export interface AtomicInput {
  readonly artifact: { readonly artifact_id: string; readonly revision: number };
  readonly state_version: number;
}

const ATOMIC_MEMORY = "atomic_memory";
/** The content of the Source a restoration journals, as the release writes it. */
const RESTORATION_NOTE = "Artifact restoration completed.";
/** How long a restoration preview stays valid: ten minutes. */
const PREVIEW_TTL_MS = 600_000;

/** Lifecycle changes of Atomic Memory records over the resource writer. */
export class AtomicLifecycle {
  /**
   * @param writer the resource writer every lifecycle change goes through
   * @param now the clock, in ms since the epoch
   * @param id a fresh server-assigned id `<prefix>_<32 hex digits>` from the seeded sequence
   */
  constructor(
    private readonly writer: ResourceWriter,
    private readonly now: () => number,
    private readonly id: (prefix: string) => string,
  ) {}

  /** `change_atomic_memory_lifecycle`: moves a record to `state` (the release allows `forgotten`). */
  change(scopeId: string, target: AtomicInput, state: string) {
    const record = this.#current(scopeId, target);
    if (record.state === state) return { changed: false, records: [record] };
    if (record.state !== "active") throw stateConflict();
    return { changed: true, records: [this.#move(scopeId, record, { state })] };
  }

  /**
   * `merge_atomic_memories`: a new active record from `content`; the inputs become
   * `merged` into it. Fewer than two inputs, or one named twice, is `409
   * invalid_memory_relation` before any input is read. The records come back in
   * the order of their Artifact ids, the new one among them.
   */
  merge(scopeId: string, inputs: readonly AtomicInput[], content: JsonRecord) {
    const ids = inputs.map((input) => input.artifact.artifact_id);
    if (ids.length < 2 || new Set(ids).size !== ids.length)
      throw new SimError(
        409,
        "invalid_memory_relation",
        "A merge needs two or more different inputs and a new result.",
        null,
      );
    const records = inputs.map((input) => this.#current(scopeId, input));
    if (records.some((r) => r.state !== "active")) throw stateConflict();
    const artifact = this.writer.insert(
      "artifact",
      [scopeId, ATOMIC_MEMORY_FAMILY],
      { content, artifacts: records.map((r) => ({ ...r.artifact })) },
      { quiet: true },
    );
    const merged = records.map((r) =>
      this.#move(scopeId, r, { state: "merged", merged_into_id: artifact.artifact_id }),
    );
    // A merged input's Artifact head leaves the family's list (the release lists heads not merged into another).
    for (const r of records) this.#list(scopeId, r.artifact.artifact_id, false);
    const result = this.writer.find(ATOMIC_MEMORY, [scopeId], artifact.artifact_id) as unknown as AtomicMemoryRecord;
    const byId = (a: AtomicMemoryRecord, b: AtomicMemoryRecord) =>
      a.artifact.artifact_id < b.artifact.artifact_id ? -1 : 1;
    return { changed: true, records: [...merged, result].sort(byId) };
  }

  /** `preview_atomic_memory_restoration`: what a restoration of the record would write, and the token that confirms it. */
  preview(scopeId: string, target: RestorationTarget, subject: string) {
    const record = this.#find(scopeId, target.artifactId);
    const plan = this.#plan(scopeId, target, record);
    const endpoint = endpointOf(record);
    const expiresAt = Math.floor((this.now() + PREVIEW_TTL_MS) / 1000);
    return {
      preview_token: issuePreviewToken({
        scope_id: scopeId,
        subject,
        operation: target.operation,
        artifact_id: target.artifactId,
        revision: target.revision,
        endpoint,
        expires_at: expiresAt,
      }),
      expires_at: isoTime(expiresAt * 1000).replace(/\.\d{3}Z$/, "Z"),
      endpoint,
      restore: [
        {
          artifact_id: target.artifactId,
          source_revision: plan.source.revision,
          creates_revision: plan.changed,
        },
      ],
      retire: [],
      undo_merge_results: [],
    };
  }

  /**
   * `restore_atomic_memory`: a forgotten record comes back active as a new revision of its Artifact.
   * @param previewToken the token of a preview of this restoration, or null to restore without one
   * @param subject the caller (`type:id`): a token handed to another principal is refused
   * @param authorize decides the caller's write once the token is checked, as the release's domain does
   * @throws SimError `422 invalid_preview` for a token no preview of this restoration (to this caller) handed out,
   *   `409 preview_expired` for an expired one, `409 preview_stale` when the record moved since the preview
   */
  restore(
    scopeId: string,
    target: RestorationTarget,
    previewToken: string | null,
    subject: string,
    authorize: () => void,
  ) {
    const artifactId = target.artifactId;
    const record = this.#find(scopeId, artifactId);
    if (previewToken !== null) {
      const seen = checkPreviewToken(
        previewToken,
        { scope_id: scopeId, subject, operation: target.operation, artifact_id: artifactId, revision: target.revision },
        Math.floor(this.now() / 1000),
      );
      if (stableJson(seen) !== stableJson(endpointOf(record)))
        throw new SimError(409, "preview_stale", "The restoration preview endpoint changed.", null);
    }
    authorize();
    const { artifact, source, changed } = this.#plan(scopeId, target, record);
    // Nothing to write: the record is already active at that content, and the answer still names it restored.
    if (!changed) return { changed: false, restored: [reference(artifact)], retired: [], undo_merge_results: [] };
    // The release journals the restoration itself, not the restored content, and the new revision cites it.
    const journal = this.writer.insert("source", [scopeId], {
      source_type: CONTENT_SOURCE_NAME,
      source_id: this.id("artifact-restoration"),
      content: RESTORATION_NOTE,
      receipt_identity: null,
      derived: true,
    });
    const next = this.writer.update(
      "artifact",
      [scopeId, ATOMIC_MEMORY_FAMILY],
      artifact,
      {
        content: source.content,
        sources: [{ source_type: CONTENT_SOURCE_NAME, source_id: journal.source_id }],
        // The new revision cites the revision it replaces and the one it restores (once when they are one).
        artifacts: [...new Map([reference(artifact), reference(source)].map((ref) => [stableJson(ref), ref])).values()],
      },
      { quiet: true },
    );
    this.#move(scopeId, this.#find(scopeId, artifactId), { state: "active", merged_into_id: null });
    this.#list(scopeId, artifactId, true);
    return { changed: true, restored: [reference(next)], retired: [], undo_merge_results: [] };
  }

  /**
   * What restoring `target` does, as the release plans it: the revision it restores (the one
   * the target names, else the current one), and whether that writes a new revision (the
   * record is not active, was merged, or the target names a revision).
   * @throws SimError `404 not_found` for a revision the Artifact never had (looked up once the write is allowed)
   */
  #plan(scopeId: string, target: RestorationTarget, record: AtomicMemoryRecord) {
    const keys = [scopeId, ATOMIC_MEMORY_FAMILY];
    const artifact = this.writer.find("artifact", keys, target.artifactId) as JsonRecord;
    const selected =
      target.revision === null
        ? undefined
        : this.writer.versions("artifact", keys, target.artifactId)?.find((v) => v.revision === target.revision);
    if (target.revision !== null && selected === undefined) throw notFound();
    const source = selected ?? artifact;
    const changed = record.state !== "active" || record.merged_into_id !== null || selected !== undefined;
    return { artifact, source, changed };
  }

  /** The record `input` names, checked against its expected revision and state version. */
  #current(scopeId: string, input: AtomicInput): AtomicMemoryRecord {
    const record = this.#find(scopeId, input.artifact.artifact_id);
    if (record.artifact.revision !== input.artifact.revision)
      throw new SimError(409, "revision_conflict", "The Memory Revision is stale.", null);
    if (record.state_version !== input.state_version)
      throw new SimError(409, "atomic_memory_changed", "The expected Artifact state version is stale.", null);
    return record;
  }

  /** Shows or hides an Atomic Memory Artifact's head in `list_artifacts` (its `listed` member, no new revision). */
  #list(scopeId: string, artifactId: string, listed: boolean): void {
    const keys = [scopeId, ATOMIC_MEMORY_FAMILY];
    const head = this.writer.find("artifact", keys, artifactId);
    if (head !== undefined) this.writer.revise("artifact", keys, head, { listed });
  }

  #find(scopeId: string, artifactId: string): AtomicMemoryRecord {
    const record = this.writer.find(ATOMIC_MEMORY, [scopeId], artifactId);
    if (record === undefined) throw notFound();
    return record as unknown as AtomicMemoryRecord;
  }

  /** The record's next state version with `changes`. */
  #move(scopeId: string, record: AtomicMemoryRecord, changes: JsonRecord): AtomicMemoryRecord {
    const current = this.writer.find(ATOMIC_MEMORY, [scopeId], getPath(record, "artifact.artifact_id")) as JsonRecord;
    return this.writer.update(ATOMIC_MEMORY, [scopeId], current, changes) as unknown as AtomicMemoryRecord;
  }
}

/** The record's place a preview describes and a restoration compares: its Artifact, revision and state version. */
function endpointOf(record: AtomicMemoryRecord): JsonRecord {
  return {
    artifact_id: record.artifact.artifact_id,
    revision: record.artifact.revision,
    state_version: record.state_version,
  };
}

function stateConflict(): SimError {
  return new SimError(
    409,
    "invalid_memory_state",
    "The Atomic Memory record is not in a state that allows this change.",
    null,
  );
}

/** The refusal of a record, or a revision of it, the Scope does not hold. */
function notFound(): SimError {
  return new SimError(404, "not_found", "The requested value was not found.", null);
}
