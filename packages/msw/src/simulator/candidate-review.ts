import { reference } from "./artifacts.js";
import { copyJson, type JsonRecord } from "./members.js";
import type { ResourceWriter } from "./resources/writer.js";

/**
 * What the release does around the writes of a Candidate, as a hook on the
 * resource writer's `candidate` records:
 * - every write sets `permissions`, what a reviewer may still do: revise,
 *   approve and reject while the Candidate is pending, nothing once it is
 *   decided (the release answers them for its one static bearer, which holds
 *   every review role; the mock answers the same for every token);
 * - an approval publishes the proposal as a new Artifact of the Candidate's
 *   family in its Scope (through the same writer, so the Artifact lineage
 *   hooks run), and the Candidate names that revision in `result_artifact`.
 */

/** The statuses of a pending and an approved Candidate, as the release names them. */
const PENDING = "pending";
const APPROVED = "approved";

/** Registers the review hooks on `writer`. */
export function trackCandidateReview(writer: ResourceWriter): void {
  writer.onWrite("candidate", {
    before: (written, context) => {
      const open = written.status === PENDING;
      const record: JsonRecord = { ...written, permissions: { can_revise: open, can_approve: open, can_reject: open } };
      if (record.status !== APPROVED || context.previous === null || context.previous.status === APPROVED)
        return record;
      const scopeId = context.keys[0];
      const family = String(record.family);
      const artifact: JsonRecord = writer.insert("artifact", [scopeId, family], {
        content: copyJson(record.proposal ?? null),
      });
      return { ...record, result_artifact: reference(artifact) };
    },
  });
}
