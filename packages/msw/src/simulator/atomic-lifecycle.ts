import { ATOMIC_MEMORY_FAMILY, reference } from "./artifacts.js";
import { isoTime } from "./clock.js";
import { SimError } from "./errors.js";
import type { AtomicMemoryRecord } from "./memory.js";
import type { ResourceWriter } from "./resources/writer.js";
import { getPath, stableJson, unique, type JsonRecord } from "./members.js";
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
 *
 * A restoration follows the record's merge path to its end, the live result
 * (the endpoint a preview names), and undoes every merge on it, outermost
 * first: each result is retired and its inputs, as the merge froze them, come
 * back active. `undo_merge` also undoes the merge the record itself is the
 * result of; `restore` brings the record back active. Every record that
 * changes gets a new revision of its Artifact.
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

/** An Artifact revision a merge took as one of its inputs. */
interface FrozenInput {
  readonly artifact_id: string;
  readonly revision: number;
}

/** One record a restoration leaves active or retired, with the revision its new revision copies. */
interface PlannedWrite {
  readonly record: AtomicMemoryRecord;
  readonly state: "active" | "retired";
  /** The Artifact revision (head or the one asked for) whose content the record keeps. */
  readonly source: JsonRecord;
  /** False for a record already in that state, which keeps its revision. */
  readonly changed: boolean;
}

/** What a restoration does, as the release plans it before it writes. */
interface RestorationPlan {
  /** The live end of the record's merge path (the record itself when it was never merged). */
  readonly endpoint: AtomicMemoryRecord;
  /** The records it leaves active or retired, by Artifact id. */
  readonly writes: readonly PlannedWrite[];
  /** The merge results it undoes, outermost first. */
  readonly undone: readonly string[];
}

/** Lifecycle changes of Atomic Memory records over the resource writer. */
export class AtomicLifecycle {
  /** `<scope>\u0000<result id>` -> the inputs the merge took, as it froze them. */
  readonly #merged = new Map<string, readonly FrozenInput[]>();

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
   * invalid_memory_relation` before any input is read; then each input in turn must be
   * found (`404 not_found`), at the revision and state version the request names (`409
   * atomic_memory_changed`), and active (`409 invalid_memory_state`). The new record cites the
   * inputs and the other Artifact revisions the request names (`artifactRefs`) as
   * its lineage: one naming an input at another revision is `409
   * invalid_memory_relation`, one the Scope does not hold `404 not_found`, both
   * once the inputs passed. The records come back in the order of their Artifact
   * ids, the new one among them.
   */
  merge(
    scopeId: string,
    inputs: readonly AtomicInput[],
    content: JsonRecord,
    artifactRefs: readonly JsonRecord[] = [],
  ) {
    const ids = inputs.map((input) => input.artifact.artifact_id);
    if (ids.length < 2 || new Set(ids).size !== ids.length)
      throw relation("A merge needs two or more different inputs and a new result.");
    // Each input in turn: found, as the caller saw it (revision and state version), and active.
    const records = inputs.map((input) => {
      const record = this.#find(scopeId, input.artifact.artifact_id);
      if (record.artifact.revision !== input.artifact.revision || record.state_version !== input.state_version)
        throw new SimError(409, "atomic_memory_changed", "A merge input changed since it was read.", null);
      if (record.state !== "active") throw stateConflict();
      return record;
    });
    const cited = [...records.map((r) => ({ ...r.artifact }) as JsonRecord), ...artifactRefs];
    for (const ref of artifactRefs) {
      const input = records.find(
        (r) => ref.family === ATOMIC_MEMORY_FAMILY && r.artifact.artifact_id === ref.artifact_id,
      );
      if (input !== undefined && input.artifact.revision !== ref.revision)
        throw relation("A merge cites its inputs at the revisions it merges.");
    }
    for (const ref of artifactRefs) {
      const held = this.writer
        .versions("artifact", [scopeId, String(ref.family)], String(ref.artifact_id))
        ?.some((version) => version.revision === ref.revision);
      if (held !== true) throw notFound();
    }
    const artifact = this.writer.insert(
      "artifact",
      [scopeId, ATOMIC_MEMORY_FAMILY],
      { content, artifacts: unique(cited.map(reference)) },
      { quiet: true },
    );
    this.#merged.set(
      mergeKey(scopeId, String(artifact.artifact_id)),
      records.map((r) => ({ artifact_id: r.artifact.artifact_id, revision: r.artifact.revision })),
    );
    const merged = records.map((r) =>
      this.#move(scopeId, r, { state: "merged", merged_into_id: artifact.artifact_id }),
    );
    // A merged input's Artifact head leaves the family's list (the release lists heads not merged into another).
    for (const r of records) this.#list(scopeId, r.artifact.artifact_id, false);
    const result = this.writer.find(ATOMIC_MEMORY, [scopeId], artifact.artifact_id) as unknown as AtomicMemoryRecord;
    return { changed: true, records: [...merged, result].sort(byArtifactId) };
  }

  /** `preview_atomic_memory_restoration`: what a restoration of the record would write, and the token that confirms it. */
  preview(scopeId: string, target: RestorationTarget, subject: string) {
    const plan = this.#plan(scopeId, target, this.#find(scopeId, target.artifactId));
    const endpoint = endpointOf(plan.endpoint);
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
      restore: plan.writes
        .filter((write) => write.state === "active")
        .map((write) => ({
          artifact_id: write.record.artifact.artifact_id,
          source_revision: write.source.revision,
          creates_revision: write.changed,
        })),
      retire: plan.writes.filter((write) => write.state === "retired").map((write) => ({ ...write.record.artifact })),
      undo_merge_results: plan.undone,
    };
  }

  /**
   * `restore_atomic_memory`: carries out the plan of {@link preview}: the records it
   * restores come back active, the merge results it undoes are retired, each as a new
   * revision of its Artifact; the record's own new revision cites the Source that
   * journals the restoration.
   * @param previewToken the token of a preview of this restoration, or null to restore without one
   * @param subject the caller (`type:id`): a token handed to another principal is refused
   * @param authorize decides the caller's write once the token is checked, as the release's domain does
   * @throws SimError `422 invalid_preview` for a token no preview of this restoration (to this caller) handed out,
   *   `409 preview_expired` for an expired one, `409 preview_stale` when the merge path's end moved since the
   *   preview; the refusals of the plan ({@link #plan})
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
      const now = this.writer.find(ATOMIC_MEMORY, [scopeId], String(seen.artifact_id));
      if (now === undefined || stableJson(seen) !== stableJson(endpointOf(now as unknown as AtomicMemoryRecord)))
        throw new SimError(409, "preview_stale", "The restoration preview endpoint changed.", null);
    }
    authorize();
    const plan = this.#plan(scopeId, target, record);
    const changes = plan.writes.filter((write) => write.changed);
    const written = new Map<string, AtomicMemoryRecord>();
    if (changes.length > 0) {
      // The release journals the restoration itself, not the restored content; the record's new revision cites it.
      const journal = this.writer.insert("source", [scopeId], {
        source_type: CONTENT_SOURCE_NAME,
        source_id: this.id("artifact-restoration"),
        content: RESTORATION_NOTE,
        receipt_identity: null,
        derived: true,
      });
      for (const write of changes)
        written.set(write.record.artifact.artifact_id, this.#write(scopeId, write, artifactId, journal));
    }
    if (!written.has(artifactId)) written.set(artifactId, this.#find(scopeId, artifactId));
    const records = [...written.values()].sort(byArtifactId);
    const refs = (state: string) => records.filter((r) => r.state === state).map((r) => ({ ...r.artifact }));
    return {
      changed: changes.length > 0,
      restored: refs("active"),
      retired: refs("retired"),
      undo_merge_results: plan.undone,
    };
  }

  /** One planned change: a new revision of the record's Artifact, then its new state. */
  #write(scopeId: string, write: PlannedWrite, primary: string, journal: JsonRecord): AtomicMemoryRecord {
    const keys = [scopeId, ATOMIC_MEMORY_FAMILY];
    const artifactId = write.record.artifact.artifact_id;
    const head = this.writer.find("artifact", keys, artifactId) as JsonRecord;
    this.writer.update(
      "artifact",
      keys,
      head,
      {
        content: write.source.content,
        sources: artifactId === primary ? [{ source_type: CONTENT_SOURCE_NAME, source_id: journal.source_id }] : [],
        // The new revision cites the revision it replaces and the one it restores (once when they are one).
        artifacts: unique([reference(head), reference(write.source)]),
      },
      { quiet: true },
    );
    const moved = this.#move(scopeId, this.#find(scopeId, artifactId), { state: write.state, merged_into_id: null });
    // A restored record's head is listed again; a retired result's head leaves the list.
    this.#list(scopeId, artifactId, write.state === "active");
    return moved;
  }

  /**
   * What restoring `target` does, as the release plans it: follow the record's merge path
   * to its live end, undo every merge on it outermost first (and, for `undo_merge`, the
   * merge the record is the result of): each result retired, each of its frozen inputs
   * active again; `restore` also makes the record active, with the content of the revision
   * the target names, else its current one. A record already in its planned state, never
   * merged and not asked for another revision, keeps its revision.
   * @throws SimError `409 invalid_memory_state` for a retired record; `409
   *   invalid_memory_relation` for a result without two or more inputs it froze (a record
   *   no merge made, under `undo_merge`) or an input that moved since; `404 not_found` for a
   *   revision the Artifact never had (looked up once the write is allowed)
   */
  #plan(scopeId: string, target: RestorationTarget, record: AtomicMemoryRecord): RestorationPlan {
    if (record.state === "retired") throw stateConflict("Retired Atomic Memory records cannot be restored.");
    const keys = [scopeId, ATOMIC_MEMORY_FAMILY];
    const selected =
      target.revision === null
        ? undefined
        : this.writer.versions("artifact", keys, target.artifactId)?.find((v) => v.revision === target.revision);
    if (target.revision !== null && selected === undefined) throw notFound();
    const records = new Map<string, AtomicMemoryRecord>([[record.artifact.artifact_id, record]]);
    const results: string[] = [];
    let endpoint = record;
    while (endpoint.merged_into_id !== null) {
      const next = endpoint.merged_into_id;
      if (records.has(next)) throw relation("The merge path is cyclic.");
      endpoint = this.#find(scopeId, next);
      if (endpoint.state === "retired") throw relation("A live merge path cannot end in a retired result.");
      records.set(next, endpoint);
      results.push(next);
    }
    const undone = results.reverse();
    if (target.operation === "undo_merge") undone.push(record.artifact.artifact_id);
    const final = new Map<string, "active" | "retired">();
    for (const resultId of undone) {
      const inputs = this.#merged.get(mergeKey(scopeId, resultId)) ?? [];
      if (inputs.length < 2) throw relation("The result has no inputs a merge froze.");
      final.set(resultId, "retired");
      for (const input of inputs) {
        const current = records.get(input.artifact_id) ?? this.#find(scopeId, input.artifact_id);
        records.set(input.artifact_id, current);
        if (
          current.state !== "merged" ||
          current.merged_into_id !== resultId ||
          current.artifact.revision !== input.revision
        )
          throw relation("A merge input moved since the merge.");
        final.set(input.artifact_id, "active");
      }
    }
    if (target.operation === "restore") final.set(record.artifact.artifact_id, "active");
    const writes = [...final.entries()]
      .sort(([a], [b]) => compareText(a, b))
      .map(([artifactId, state]): PlannedWrite => {
        const current = records.get(artifactId) as AtomicMemoryRecord;
        const chosen = artifactId === target.artifactId ? selected : undefined;
        return {
          record: current,
          state,
          source: chosen ?? (this.writer.find("artifact", keys, artifactId) as JsonRecord),
          changed: state !== current.state || current.merged_into_id !== null || chosen !== undefined,
        };
      });
    return { endpoint, writes, undone };
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

function stateConflict(message = "The Atomic Memory record is not in a state that allows this change."): SimError {
  return new SimError(409, "invalid_memory_state", message, null);
}

/** A merge relation the restoration cannot undo. */
function relation(message: string): SimError {
  return new SimError(409, "invalid_memory_relation", message, null);
}

function mergeKey(scopeId: string, resultId: string): string {
  return `${scopeId}\u0000${resultId}`;
}

/** Texts in code-unit order, as the records of an answer come by Artifact id. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function byArtifactId(a: AtomicMemoryRecord, b: AtomicMemoryRecord): number {
  return compareText(a.artifact.artifact_id, b.artifact.artifact_id);
}

/** The refusal of a record, or a revision of it, the Scope does not hold. */
function notFound(): SimError {
  return new SimError(404, "not_found", "The requested value was not found.", null);
}
