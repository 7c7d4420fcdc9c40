import { reference } from "../artifacts.js";
import { SimError, invalidRequest } from "../errors.js";
import { copyJson, stableJson, type JsonRecord } from "../members.js";
import type { ResourceStore } from "../resources/store.js";
import type { ResourceWriter } from "../resources/writer.js";
import { skillPackage, type SkillPackage } from "./package.js";

/**
 * Managed Skills as the release keeps them: every Artifact of the skill
 * family is a package-backed Skill (its content carries the package it was
 * built into, and the optional members the release fills), and each Skill has
 * a governance head beside it (lifecycle state, replacement, and the
 * generation a lifecycle change must name). Listing, reading, the package
 * manifest and lifecycle changes read and write these records.
 */

/** The Artifact family of managed Skills. */
export const SKILL_FAMILY = "skill";
const ARTIFACT = "artifact";
/** The domain's own records: one governance head per Skill, keyed by Scope, by Artifact id. */
const GOVERNANCE = "skill_governance";
/** The optional content members the release fills when a Skill is stored. */
const CONTENT_DEFAULTS = { license: null, compatibility: null, metadata: {}, allowed_tools: null };
const ACTIVE = "active";
const DEPRECATED = "deprecated";
const RETIRED = "retired";

/** The managed Skills of every Scope. */
export class ManagedSkills {
  /**
   * Tree digest -> the package built, and the contents (without their package, as a Skill
   * revision stores them, as stable JSON) it was built from: the mock's package holds the
   * name, description and instructions only, so contents that differ elsewhere share one.
   */
  readonly #packages = new Map<string, { readonly built: SkillPackage; readonly from: Set<string> }>();

  constructor(
    private readonly store: ResourceStore,
    writer: ResourceWriter,
  ) {
    writer.onWrite(ARTIFACT, {
      check: (record) => {
        if (record.family === SKILL_FAMILY) this.#checkPackage(record.content);
      },
      before: (record) => (record.family === SKILL_FAMILY ? this.#packaged(record) : record),
      after: (record, context) => {
        if (record.family === SKILL_FAMILY) this.#keepGovernance(String(context.keys[0]), record);
      },
    });
  }

  /** The current Skills of a Scope, ordered by Artifact id: active ones, and deprecated ones when asked; a query keeps those whose text holds it. */
  list(scopeId: string, includeDeprecated: boolean, query: string, limit: number): JsonRecord[] {
    const states = includeDeprecated ? [ACTIVE, DEPRECATED] : [ACTIVE];
    const needle = query.trim().toLowerCase();
    return this.store
      .records(ARTIFACT, [scopeId, SKILL_FAMILY])
      .map((r) => r.current)
      .sort((a, b) => String(a.artifact_id).localeCompare(String(b.artifact_id)))
      .map((artifact) => ({ artifact, governance: this.governance(scopeId, String(artifact.artifact_id)) }))
      .filter(({ governance }) => governance !== undefined && states.includes(String(governance.lifecycle_state)))
      .filter(({ artifact }) => needle === "" || searchText(artifact).includes(needle))
      .slice(0, limit)
      .map(({ artifact, governance }) => ({ ...skillArtifact(artifact), governance }));
  }

  /**
   * The exact revision `ref` names, as a Skill Artifact.
   * @throws SimError 404 `artifact_not_found` when the Scope holds no such revision
   */
  get(scopeId: string, ref: JsonRecord): JsonRecord {
    return skillArtifact(this.#revision(scopeId, ref));
  }

  /** The package of the exact revision `ref` names. @throws SimError 404 `not_found` when the Scope holds no such revision (the release finds no package) */
  package(scopeId: string, ref: JsonRecord): SkillPackage {
    let content: JsonRecord;
    try {
      content = this.#revision(scopeId, ref).content as JsonRecord;
    } catch {
      throw new SimError(404, "not_found", "No Skill package for this revision.", null);
    }
    return this.#packages.get(String((content.package as JsonRecord).tree_digest))?.built as SkillPackage;
  }

  /** The manifest of the package of `ref`: its reference, the Skill's descriptive members and its files. @throws SimError 404 `not_found` */
  manifest(scopeId: string, ref: JsonRecord): JsonRecord {
    const built = this.package(scopeId, ref);
    const content = this.#revision(scopeId, ref).content as JsonRecord;
    return {
      package: copyJson(content.package),
      name: content.name,
      description: content.description,
      license: content.license,
      compatibility: content.compatibility,
      metadata: copyJson(content.metadata),
      allowed_tools: content.allowed_tools,
      files: built.files.map((file) => ({ ...file })),
    };
  }

  /** The governance head of a Skill, or undefined when the Scope has no such Skill. */
  governance(scopeId: string, artifactId: string): JsonRecord | undefined {
    return this.store.find(GOVERNANCE, [scopeId], artifactId)?.current;
  }

  /**
   * Moves a Skill to `state` while `expected` is its governance generation.
   * @throws SimError 404 `not_found` for a Skill the Scope does not hold (the contract's refusal answers it before: `403 forbidden`, as the release's access layer)
   * @throws SimError 422 `invalid_lifecycle` for a transition the release refuses (out of retired, to active from retired, a replacement that is itself or retired)
   * @throws SimError 409 `generation_conflict` when `expected` is not the current generation
   */
  changeLifecycle(
    scopeId: string,
    artifactId: string,
    expected: number,
    state: string,
    replacement: string | null,
  ): JsonRecord {
    const current = this.governance(scopeId, artifactId);
    if (current === undefined) throw new SimError(404, "not_found", "No Skill has this id in this Scope.", null);
    if (current.lifecycle_state === RETIRED && state !== RETIRED)
      throw invalidLifecycle("A retired Skill stays retired.");
    if (replacement !== null) {
      if (replacement === artifactId) throw invalidLifecycle("A Skill cannot replace itself.");
      const other = this.governance(scopeId, replacement);
      if (other === undefined) throw new SimError(404, "not_found", "No Skill has the replacement id.", null);
      if (other.lifecycle_state === RETIRED) throw invalidLifecycle("A retired Skill cannot be a replacement.");
      if (state !== DEPRECATED) throw invalidLifecycle("Only a deprecated Skill names a replacement.");
    }
    if (current.governance_generation !== expected)
      throw new SimError(409, "generation_conflict", "The Skill's governance generation has moved on.", null);
    const next = {
      ...current,
      lifecycle_state: state,
      replacement_artifact_id: replacement,
      governance_generation: expected + 1,
    };
    this.store.update(GOVERNANCE, [scopeId], artifactId, next, false);
    return next;
  }

  /** The stored revision `ref` names. @throws SimError 404 `artifact_not_found` */
  #revision(scopeId: string, ref: JsonRecord): JsonRecord {
    const found = this.store.find(ARTIFACT, [scopeId, SKILL_FAMILY], ref.artifact_id);
    const revision = found?.versions.find((v) => v.revision === ref.revision);
    if (ref.family !== SKILL_FAMILY || revision === undefined)
      throw new SimError(404, "artifact_not_found", "No such Skill revision in this Scope.", null);
    return revision;
  }

  /**
   * Refuses content that names a package unless it names one the server built, exactly,
   * and carries the content it was built from (its optional members at their defaults when
   * left out), as the release's Skill writer reads an exact package; nothing is written then.
   * @throws SimError 422 `invalid_request` (`content.package`) for a package the server does not hold, or content it was not built from
   */
  #checkPackage(given: unknown): void {
    if (typeof given !== "object" || given === null || Array.isArray(given)) return;
    const { package: named, ...content } = given as JsonRecord;
    if (named === undefined || named === null) return;
    const tree = (named as JsonRecord | null)?.tree_digest;
    const held = typeof tree === "string" ? this.#packages.get(tree) : undefined;
    if (held === undefined || stableJson(held.built.reference) !== stableJson(named))
      throw invalidRequest("content.package", "is unavailable or invalid");
    if (!held.from.has(stableJson({ ...CONTENT_DEFAULTS, ...content })))
      throw invalidRequest("content.package", "cached Skill fields do not match the exact package");
  }

  /**
   * A Skill record with the release's optional content members and its package: the one
   * it names ({@link #checkPackage} passed), else the package built from its content.
   */
  #packaged(record: JsonRecord): JsonRecord {
    const given = record.content;
    if (typeof given !== "object" || given === null || Array.isArray(given)) return record;
    const { package: named, ...content } = given as JsonRecord;
    const complete: JsonRecord = { ...CONTENT_DEFAULTS, ...content };
    if (named !== undefined && named !== null)
      return { ...record, content: { ...complete, package: { ...(named as JsonRecord) } } };
    const built = skillPackage(complete);
    const held = this.#packages.get(built.reference.tree_digest) ?? { built, from: new Set<string>() };
    this.#packages.set(built.reference.tree_digest, { built, from: held.from.add(stableJson(complete)) });
    return { ...record, content: { ...complete, package: { ...built.reference } } };
  }

  /** A new Skill starts active at generation 0; a new revision moves its head and keeps its state. */
  #keepGovernance(scopeId: string, artifact: JsonRecord): void {
    const id = String(artifact.artifact_id);
    const current = this.governance(scopeId, id);
    if (current === undefined) {
      this.store.insert(
        GOVERNANCE,
        [scopeId],
        id,
        {
          artifact: reference(artifact),
          lifecycle_state: ACTIVE,
          replacement_artifact_id: null,
          governance_generation: 0,
        },
        "",
      );
    } else {
      this.store.update(GOVERNANCE, [scopeId], id, { ...current, artifact: reference(artifact) }, false);
    }
  }
}

function invalidLifecycle(message: string): SimError {
  return new SimError(422, "invalid_lifecycle", message, null);
}

/** A stored Skill revision as the contract's Skill Artifact. */
function skillArtifact(artifact: JsonRecord): JsonRecord {
  return {
    artifact: reference(artifact),
    content: copyJson(artifact.content),
    source_refs: copyJson(artifact.source_refs ?? []),
    artifact_refs: copyJson(artifact.artifact_refs ?? []),
  };
}

/** What a Skill query is matched against, lower case: its name, description, instructions and metadata values. */
function searchText(artifact: JsonRecord): string {
  const content = (artifact.content ?? {}) as JsonRecord;
  const metadata = Object.values((content.metadata ?? {}) as JsonRecord).map(String);
  return [content.name, content.description, content.instructions, ...metadata].map(String).join("\n").toLowerCase();
}
