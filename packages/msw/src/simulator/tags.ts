import { getPath, type JsonRecord } from "./members.js";
import type { ResourceWriter } from "./resources/writer.js";

/**
 * Artifact tags as the release keeps them beside the Artifact: each write of a tag set
 * (`artifact_tags`, keyed by Scope, family and Artifact id) is copied onto the Artifact's
 * head as `tag_labels`, which no answer shows and `list_artifacts`' `tag` filter reads
 * (case-insensitively, `all` or `any` of the labels: facts of the operation's resource
 * use). The labels arrive in the release's order and checked by the contract's rules.
 */
export function trackArtifactTags(writer: ResourceWriter): void {
  writer.onWrite("artifact_tags", {
    after: (record: JsonRecord) => {
      const keys = [getPath(record, "scope_id"), getPath(record, "target.family")];
      const id = getPath(record, "target.artifact_id");
      const head = writer.find("artifact", keys, id);
      if (head !== undefined) writer.revise("artifact", keys, head, { tag_labels: record.tags ?? [] });
    },
  });
}
