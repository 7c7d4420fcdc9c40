import { isoTime } from "../clock.js";
import { SimError } from "../errors.js";
import { copyJson, type JsonRecord } from "../members.js";
import type { ResourceStore } from "../resources/store.js";
import { SKILL_FAMILY, type ManagedSkills } from "./managed.js";
import { invalidTargetState, type RemoteSkillTargets } from "./remote-targets.js";

/**
 * What a remote target should hold, and what its receiver reported: one
 * publication per target and Skill. An administrator sets the desired state
 * (publish an exact package-backed revision, or unpublish), each change under
 * the publication's `generation`; the receiver, with its target credential,
 * reconciles (gets one action per publication that is not yet as desired),
 * downloads exactly the package it was told to install, and records a receipt
 * for that generation. Until a receipt, the observed members are null.
 */

const PUBLICATIONS = "skill_publication";
const PUBLISHED = "published";
const UNPUBLISHED = "unpublished";
const INSTALL = "install";
const UNPUBLISH = "unpublish";
const SUCCEEDED = "succeeded";

/** The publications of every remote target. */
export class SkillPublications {
  constructor(
    private readonly store: ResourceStore,
    private readonly targets: RemoteSkillTargets,
    private readonly skills: ManagedSkills,
    private readonly now: () => number,
  ) {}

  /** The publications of one target, by Artifact id (the release's order). */
  of(scopeId: string, targetId: string): JsonRecord[] {
    return this.store
      .records(PUBLICATIONS, [scopeId, targetId])
      .map((r) => r.current)
      .sort((a, b) => String(a.artifact_id).localeCompare(String(b.artifact_id)));
  }

  /**
   * Sets the exact revision `artifact` as what the target should hold.
   * @throws SimError 409 `invalid_target_state` (target not active, or no such Skill revision), 422 `invalid_skill_lifecycle` (retired, or deprecated without `allowDeprecated`), 409 `publication_generation_conflict` (a new publication named a generation, or an existing one another than its own)
   */
  publish(
    scopeId: string,
    targetId: string,
    artifact: JsonRecord,
    expected: number | null,
    allowDeprecated: boolean,
  ): JsonRecord {
    this.targets.requireActive(scopeId, targetId);
    const treeDigest = this.#treeDigest(scopeId, artifact);
    const state = this.skills.governance(scopeId, String(artifact.artifact_id))?.lifecycle_state;
    if (state === "retired" || (state === "deprecated" && !allowDeprecated))
      throw new SimError(422, "invalid_skill_lifecycle", "This Skill's lifecycle state does not allow publishing it.");
    const current = this.#find(scopeId, targetId, String(artifact.artifact_id));
    if (current === undefined) {
      if (expected !== null) throw generationConflict();
      const publication: JsonRecord = {
        scope_id: scopeId,
        target_id: targetId,
        artifact_id: artifact.artifact_id,
        desired_state: PUBLISHED,
        desired_revision: artifact.revision,
        desired_tree_digest: treeDigest,
        observed_revision: null,
        observed_tree_digest: null,
        observed_generation: null,
        state: "pending",
        last_error_code: null,
        observed_at: null,
        generation: 0,
      };
      return this.store.insert(PUBLICATIONS, [scopeId, targetId], artifact.artifact_id, publication, "").current;
    }
    if (expected === null || current.generation !== expected) throw generationConflict();
    if (
      current.desired_state === PUBLISHED &&
      current.desired_revision === artifact.revision &&
      current.desired_tree_digest === treeDigest
    )
      return current;
    return this.#save({
      ...current,
      desired_state: PUBLISHED,
      desired_revision: artifact.revision,
      desired_tree_digest: treeDigest,
      state: "pending",
      last_error_code: null,
      generation: expected + 1,
    });
  }

  /**
   * Sets that the target should no longer hold the Skill.
   * @throws SimError 409 `invalid_target_state` (target not active, or never published there), 409 `publication_generation_conflict`
   */
  unpublish(scopeId: string, targetId: string, artifactId: string, expected: number): JsonRecord {
    this.targets.requireActive(scopeId, targetId);
    const current = this.#find(scopeId, targetId, artifactId);
    if (current === undefined) throw invalidTargetState();
    if (current.generation !== expected) throw generationConflict();
    if (current.desired_state === UNPUBLISHED) return current;
    return this.#save({
      ...current,
      desired_state: UNPUBLISHED,
      state: "pending",
      last_error_code: null,
      generation: expected + 1,
    });
  }

  /**
   * The actions the receiver holding `credential` should take: one per publication that is not yet as desired.
   * @throws SimError 409 `invalid_target_state` (two observations of one Skill, before the credential is read), 401 `invalid_target_credential`
   */
  reconcile(
    credential: string | undefined,
    observations: readonly JsonRecord[],
    receiverVersion: string,
    fingerprint: string | null,
  ): JsonRecord {
    // Two observations of one Skill are refused before the credential is read, as the release does.
    const observed = new Map(observations.map((o) => [String((o.artifact as JsonRecord).artifact_id), o]));
    if (observed.size !== observations.length) throw invalidTargetState();
    const target = this.targets.authenticate(credential);
    this.targets.observe(target, receiverVersion, fingerprint);
    const scopeId = String(target.scope_id);
    const actions = this.of(scopeId, String(target.target_id)).flatMap((publication) => {
      const artifact = {
        family: SKILL_FAMILY,
        artifact_id: publication.artifact_id,
        revision: publication.desired_revision,
      };
      const observation = observed.get(String(publication.artifact_id)) ?? null;
      const built = this.skills.package(scopeId, artifact);
      const settled =
        publication.observed_generation === publication.generation &&
        (publication.desired_state === PUBLISHED
          ? publication.state === "current" && observation?.tree_digest === publication.desired_tree_digest
          : publication.state === UNPUBLISHED && observation === null);
      if (settled) return [];
      return [
        {
          operation: publication.desired_state === PUBLISHED ? INSTALL : UNPUBLISH,
          generation: publication.generation,
          artifact,
          tree_digest: publication.desired_tree_digest,
          skill_name: (this.skills.get(scopeId, artifact).content as JsonRecord).name,
          package: publication.desired_state === PUBLISHED ? { ...built.reference } : null,
          expected_local: copyJson(observation),
          blocked_error_code: null,
        },
      ];
    });
    return { scope_id: scopeId, target_id: target.target_id, actions };
  }

  /**
   * The package the receiver was told to install at `generation`.
   * @throws SimError 401 `invalid_target_credential` for a bad credential, or any package other than the desired one
   */
  download(credential: string | undefined, generation: number, artifact: JsonRecord, pkg: JsonRecord): JsonRecord {
    const target = this.targets.authenticate(credential);
    const scopeId = String(target.scope_id);
    const publication = this.#find(scopeId, String(target.target_id), String(artifact.artifact_id));
    if (
      publication === undefined ||
      publication.desired_state !== PUBLISHED ||
      publication.generation !== generation ||
      publication.desired_revision !== artifact.revision ||
      publication.desired_tree_digest !== pkg.tree_digest
    )
      throw new SimError(401, "invalid_target_credential", "The receiver's target credential is not valid.", null);
    const built = this.skills.package(scopeId, artifact);
    return { package: { ...built.reference }, archive_base64: built.archiveBase64 };
  }

  /**
   * Records what the receiver did for a generation: an older one is answered as stale, the current one updates the observation.
   * @throws SimError 401 `invalid_target_credential`, 409 `invalid_target_state` (no publication, or a receipt for another action), 409 `publication_generation_conflict` (a generation not issued yet)
   */
  receipt(credential: string | undefined, receipt: JsonRecord): JsonRecord {
    const target = this.targets.authenticate(credential);
    const fingerprint = (receipt.environment_fingerprint as string | null | undefined) ?? null;
    this.targets.observe(target, String(receipt.receiver_version), fingerprint);
    const artifact = receipt.artifact as JsonRecord;
    const publication = this.#find(String(target.scope_id), String(target.target_id), String(artifact.artifact_id));
    if (publication === undefined) throw invalidTargetState();
    if ((receipt.generation as number) < (publication.generation as number))
      return { accepted: false, stale: true, publication };
    if ((receipt.generation as number) > (publication.generation as number)) throw generationConflict();
    const install = publication.desired_state === PUBLISHED;
    const succeeded = receipt.outcome === SUCCEEDED;
    if (
      receipt.operation !== (install ? INSTALL : UNPUBLISH) ||
      artifact.family !== SKILL_FAMILY ||
      artifact.revision !== publication.desired_revision ||
      receipt.expected_tree_digest !== publication.desired_tree_digest ||
      (succeeded && install && receipt.observed_tree_digest !== publication.desired_tree_digest)
    )
      throw invalidTargetState();
    const observation = {
      observed_generation: publication.generation,
      observed_at: isoTime(this.now()),
      ...(!succeeded
        ? { state: receipt.failure_state, last_error_code: receipt.error_code }
        : install
          ? {
              observed_revision: artifact.revision,
              observed_tree_digest: receipt.observed_tree_digest,
              state: "current",
              last_error_code: null,
            }
          : { observed_revision: null, observed_tree_digest: null, state: UNPUBLISHED, last_error_code: null }),
    };
    return { accepted: true, stale: false, publication: this.#save({ ...publication, ...observation }) };
  }

  /** The tree digest of a package-backed Skill revision. @throws SimError 409 `invalid_target_state` when the Scope holds no such revision */
  #treeDigest(scopeId: string, artifact: JsonRecord): string {
    try {
      return this.skills.package(scopeId, artifact).reference.tree_digest;
    } catch (error) {
      if (error instanceof SimError) throw invalidTargetState();
      throw error;
    }
  }

  #find(scopeId: string, targetId: string, artifactId: string): JsonRecord | undefined {
    return this.store.find(PUBLICATIONS, [scopeId, targetId], artifactId)?.current;
  }

  #save(publication: JsonRecord): JsonRecord {
    const keys = [publication.scope_id, publication.target_id];
    return this.store.update(PUBLICATIONS, keys, publication.artifact_id, publication, false).current;
  }
}

function generationConflict(): SimError {
  return new SimError(409, "publication_generation_conflict", "The publication's generation has moved on.", null);
}
