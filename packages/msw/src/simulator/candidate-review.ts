import { reference } from "./artifacts.js";
import { copyJson, type JsonRecord } from "./resources/members.js";
import type { ResourceWriter } from "./resources/writer.js";

/**
 * What the release does when a Candidate is approved, as a hook on the
 * resource writer's `candidate` records: the proposal is published as a new
 * Artifact of the Candidate's family in its Scope (through the same writer,
 * so the Artifact lineage hooks run), and the Candidate names that revision
 * in `result_artifact`. Every other write of a Candidate (its creation, a
 * revision, a rejection) stores what the generic engine wrote.
 */

/** The status of an approved Candidate, as the release names it. */
const APPROVED = "approved";

/** Registers the approval hook on `writer`. */
export function trackCandidateReview(writer: ResourceWriter): void {
  writer.onWrite("candidate", {
    before: (record, context) => {
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
