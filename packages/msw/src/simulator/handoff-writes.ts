import { directCitations, list, requireEvidence } from "./handoff-evidence.js";
import { isRecord, type JsonRecord } from "./members.js";
import type { ResourceStore } from "./resources/store.js";
import type { ResourceWriter } from "./resources/writer.js";

/**
 * What the release does on every write of a Scope's Handoff, as a hook on the
 * resource writer's `artifact` records of the `handoff` family (registered after
 * the Artifact lineage of `artifacts.ts`, which it completes): a revision cites, as
 * its lineage, the Sources and the Artifact revisions its state statements and next
 * action cite (`sources` after the write's own, `artifacts` those alone), and the
 * Scope must hold that evidence, whether the write is a commit (`Handoffs.commit`,
 * once its base is current) or a request's own (`create_artifact`, `replace_artifact`).
 */

/** The Artifact family of a Scope's Handoff. */
const HANDOFF_FAMILY = "handoff";

/** Registers the Handoff write hook on `writer`. */
export function trackHandoffWrites(writer: ResourceWriter, store: ResourceStore): void {
  writer.onWrite("artifact", {
    before: (record, context) => {
      if (record.family !== HANDOFF_FAMILY || !isRecord(record.content)) return record;
      const citations = directCitations(record.content);
      requireEvidence(store, String(context.keys[0]), citations);
      const cited = (kind: string, member: string): JsonRecord[] =>
        citations.filter((c) => c.kind === kind && isRecord(c[member])).map((c) => c[member] as JsonRecord);
      return {
        ...record,
        sources: [...list(record.sources), ...cited("source", "source_ref").map(sourceLineage)],
        artifacts: cited("artifact", "artifact_ref"),
      };
    },
  });
}

/** A cited Source as a revision's lineage names it: `{source_type, source_id}`. */
function sourceLineage(ref: JsonRecord): JsonRecord {
  return { source_type: ref.name, source_id: ref.source_id };
}
