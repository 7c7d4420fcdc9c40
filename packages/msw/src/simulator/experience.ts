import { SimError } from "./errors.js";
import { copyJson, type JsonRecord } from "./members.js";
import type { ResourceStore, StoredRecord } from "./resources/store.js";
import type { HandlerResult, SimRequest } from "./types.js";
import { objectBody, scopeField } from "./validate.js";
import { admitted } from "./lexical-admission.js";

const ARTIFACT = "artifact";
const EXPERIENCE = "experience";

/**
 * `get_experience`: the exact Experience revision the request names, with its evidence, as
 * the release's review service reads it (an approved Candidate or a written Artifact of
 * the family). A revision the Scope does not hold is `404 artifact_not_found`; a reference
 * of another family never gets here (the access layer refuses it first).
 */
export function experienceRevision(store: ResourceStore, request: SimRequest): HandlerResult {
  const body = objectBody(request.body);
  const ref = (body.artifact ?? {}) as JsonRecord;
  const found = store.find(ARTIFACT, [scopeField(body), EXPERIENCE], ref.artifact_id);
  const revision = found?.versions.find((v) => v.revision === ref.revision);
  if (revision === undefined)
    throw new SimError(404, "artifact_not_found", "No such Experience revision in this Scope.", null);
  return {
    status: 200,
    body: {
      artifact: { family: EXPERIENCE, artifact_id: revision.artifact_id, revision: revision.revision },
      content: copyJson(revision.content),
      source_refs: ((revision.sources ?? []) as JsonRecord[]).map((s) => ({
        name: s.source_type,
        source_id: s.source_id,
      })),
      artifact_refs: copyJson(revision.artifacts ?? []),
    },
  };
}

/** The members of an Experience whose words a recall reads. */
const RECALLED_MEMBERS = ["situation", "action", "outcome", "lesson"] as const;

/**
 * The Experiences of a Scope `prepare_context` recalls for `query`: the current heads
 * whose situation, action, outcome and lesson hold enough of the query's words (the
 * lexical admission of Memory search), best first, at most `limit`, each as one line
 * of its members.
 */
export function recalledExperiences(store: ResourceStore, scopeId: string, query: string, limit: number): string[] {
  const recalled = (found: StoredRecord): unknown[] => {
    const content = (found.current.content ?? {}) as JsonRecord;
    return RECALLED_MEMBERS.map((member) => content[member]);
  };
  return admitted(query, store.records(ARTIFACT, [scopeId, EXPERIENCE]), recalled, limit).map((hit) =>
    recalled(hit.candidate)
      .filter((text) => typeof text === "string")
      .join(" "),
  );
}
