import { copyJson, getPath, type JsonRecord } from "./members.js";
import type { ResourceWriter, WriteContext } from "./resources/writer.js";
import type { ServerValues } from "./resources/records.js";

/**
 * What the release does around every Artifact write, as hooks on the
 * resource writer's `artifact` records: the written content is journaled as a
 * Source of the scope (a derived one: the flush passes over it without extracting)
 * and the revision cites it in `sources`; a replacement cites the revision it
 * replaces in `artifacts`; Atomic Memory content carries its schema name and
 * `creation`, and every Atomic Memory Artifact has its Atomic Memory record
 * (`atomic_memory`: the state, `state_version` and merge link beside the
 * Artifact reference), kept at the Artifact's newest revision.
 */

/** The Artifact family of Atomic Memory, as the release names it. */
export const ATOMIC_MEMORY_FAMILY = "atomic-memory";
/** The content schema the release writes into Atomic Memory content. */
const ATOMIC_MEMORY_SCHEMA = "powercontext.atomic-memory.v1";
/** The type of the Sources an Artifact write journals. */
const CONTENT_SOURCE = "content";

/** Registers the Artifact hooks on `writer`. */
export function trackArtifactLineage(writer: ResourceWriter, values: ServerValues): void {
  writer.onWrite("artifact", {
    before: (record, context) => {
      const content = normalizedContent(record);
      const lineage = {
        content,
        artifacts: context.previous === null ? (record.artifacts ?? []) : [reference(context.previous)],
      };
      if (context.quiet) return { ...record, ...lineage, sources: record.sources ?? [] };
      const source = writer.insert("source", [context.keys[0]], {
        source_type: CONTENT_SOURCE,
        source_id: values.id("src"),
        content: journalContent(content),
        receipt_identity: null,
        derived: true,
      });
      return { ...record, ...lineage, sources: [{ source_type: CONTENT_SOURCE, source_id: source.source_id }] };
    },
    after: (record, context) => {
      if (record.family === ATOMIC_MEMORY_FAMILY) keepAtomicRecord(writer, record, context);
    },
  });
}

/** `{ family, artifact_id, revision }` of an Artifact record. */
export function reference(record: JsonRecord): JsonRecord {
  return { family: record.family, artifact_id: record.artifact_id, revision: record.revision };
}

function normalizedContent(record: JsonRecord): unknown {
  const content = copyJson(record.content);
  if (
    record.family !== ATOMIC_MEMORY_FAMILY ||
    typeof content !== "object" ||
    content === null ||
    Array.isArray(content)
  )
    return content;
  const fields = content as JsonRecord;
  return { schema: ATOMIC_MEMORY_SCHEMA, kind: fields.kind, text: fields.text, creation: fields.creation ?? null };
}

/** The content a Source journals: members in sorted order, without `creation`. */
function journalContent(content: unknown): unknown {
  if (typeof content !== "object" || content === null || Array.isArray(content)) return content;
  const fields = content as JsonRecord;
  return Object.fromEntries(
    Object.keys(fields)
      .filter((k) => k !== "creation")
      .sort()
      .map((k) => [k, fields[k]]),
  );
}

/** Creates the Atomic Memory record of a new Artifact, or moves an existing one to the new revision. */
function keepAtomicRecord(writer: ResourceWriter, artifact: JsonRecord, context: WriteContext): void {
  const scopeId = context.keys[0];
  const fields = {
    artifact: reference(artifact),
    kind: getPath(artifact, "content.kind"),
    text: getPath(artifact, "content.text"),
  };
  const current = context.previous === null ? undefined : writer.find("atomic_memory", [scopeId], artifact.artifact_id);
  if (current === undefined)
    writer.insert("atomic_memory", [scopeId], { ...fields, state: "active", merged_into_id: null });
  else writer.revise("atomic_memory", [scopeId], current, fields);
}
