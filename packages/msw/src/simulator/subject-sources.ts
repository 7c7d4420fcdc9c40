import { SimError } from "./errors.js";
import type { ScopeStore } from "./scopes.js";
import { CONTENT_SOURCE_NAME } from "./sources.js";
import type { ServerValues } from "./resources/records.js";
import type { JsonRecord } from "./members.js";
import { startProfilePolicy } from "./profile-policy.js";
import type { ResourceWriter, WriteCause } from "./resources/writer.js";

/**
 * Subject evidence, as the release keeps it: one Source written twice, into
 * the Scope the request names and into the subject's own Scope. A subject
 * (a user, by key) gets its Scope on first use, titled "Subject" with the
 * summary "Subject evidence", and keeps it; a request may name an existing
 * Scope instead, once. Both copies share the Source id (`source_<32 hex>`) and
 * are numbered in their own Scope, in the order of the two Scope ids.
 */

/** The title and summary of a subject's own Scope, as the release creates it. */
const SUBJECT_SCOPE = { title: "Subject", summary: "Subject evidence" } as const;

/** One subject-source request, as `create_subject_source` carries it. */
export interface SubjectSourceRequest {
  readonly scopeId: string;
  readonly subjectType: string;
  readonly subjectKey: string;
  readonly subjectScopeId: string | null;
  readonly content: unknown;
  /** The request that writes the Source (a new subject's Scope is created by it). */
  readonly cause?: WriteCause;
}

/** Subjects, their Scopes and their Sources over the resource writer. */
export class SubjectSources {
  /** `<type>\u0000<key>` -> the subject's Scope id. */
  readonly #bound = new Map<string, string>();

  constructor(
    private readonly scopes: ScopeStore,
    private readonly writer: ResourceWriter,
    private readonly values: ServerValues,
  ) {}

  /**
   * Writes the Source into both Scopes, deciding in the release's order: the Scope the
   * request names, the subject's binding against the Scope it names, the two Scopes
   * distinct, then the caller's access, then the subject's Scope itself.
   * @param authorize decides the caller's access once the subject's Scope is known, given
   *   `{ binding, target }`: `binding` the subject's bound Scope (`{ scope_id }`, null for a
   *   new subject), `target` the Scope the Source goes to when it exists already
   *   (`{ scope_id }`: the bound or the named one; null when the subject gets a new Scope)
   * @returns the `CreateSubjectSourceResponse` body
   * @throws SimError 404 `scope_not_found` for an unknown Scope, 409 `subject_scope_conflict` when the subject is bound to another Scope than the one named, 422 `distinct_scopes_required` when both Scopes are one
   */
  create(request: SubjectSourceRequest, authorize: (subject: JsonRecord) => void = () => {}): JsonRecord {
    this.scopes.require(request.scopeId);
    const key = `${request.subjectType}\u0000${request.subjectKey}`;
    const bound = this.#bound.get(key);
    if (bound !== undefined && request.subjectScopeId !== null && bound !== request.subjectScopeId)
      throw new SimError(409, "subject_scope_conflict", "The subject is bound to another Scope.", {
        kind: "subject_scope",
      });
    const named = bound ?? request.subjectScopeId;
    if (named === request.scopeId)
      throw new SimError(422, "distinct_scopes_required", "The subject Scope must differ from the Scope.", {
        field: "scope_id",
        reason: "distinct_scopes_required",
      });
    authorize({
      binding: bound === undefined ? null : { scope_id: bound },
      target: named === null ? null : { scope_id: named },
    });
    // A new subject's Scope id is drawn once the request is allowed.
    const newScope = named === null;
    const target = named ?? this.values.id("scp");
    if (newScope) {
      this.scopes.add(target, SUBJECT_SCOPE, request.cause);
      // A new subject's Scope starts with Profile generation on, as the release creates it.
      startProfilePolicy(this.writer, target, true);
    } else this.scopes.require(target);
    this.#bound.set(key, target);
    const sourceId = this.values.id("source");
    const written = new Map<string, JsonRecord>();
    for (const scopeId of [request.scopeId, target].sort())
      written.set(
        scopeId,
        this.writer.insert("source", [scopeId], {
          source_type: CONTENT_SOURCE_NAME,
          source_id: sourceId,
          content: request.content,
          receipt_identity: null,
        }),
      );
    return {
      subject_key: request.subjectKey,
      subject_type: request.subjectType,
      subject_scope_id: target,
      sources: [written.get(request.scopeId), written.get(target)],
    };
  }
}
