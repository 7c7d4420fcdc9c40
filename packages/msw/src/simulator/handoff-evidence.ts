import { SimError } from "./errors.js";
import { isRecord, unique, type JsonRecord } from "./members.js";
import type { ResourceStore } from "./resources/store.js";
import { CONTENT_SOURCE_NAME } from "./sources.js";

/**
 * Handoff evidence as the release resolves it before a work record is captured: a
 * Source citation names a Source of that type and id in the Scope, an Artifact
 * citation an Artifact revision the Scope keeps. The work records' claims carry
 * their citations under `evidence`.
 */

const SOURCE = "source";
const ARTIFACT = "artifact";

/** The citations of claims (null ones left out), each once, in order. */
export function claimEvidence(claims: readonly unknown[]): JsonRecord[] {
  return unique(
    claims.flatMap((claim) =>
      claim !== null && typeof claim === "object" ? (((claim as JsonRecord).evidence as JsonRecord[]) ?? []) : [],
    ),
  );
}

function available(
  store: ResourceStore,
  scopeId: string,
  citation: JsonRecord,
  exceptFamilies: readonly string[],
): boolean {
  const source = citation.source_ref as JsonRecord | undefined;
  if (citation.kind === "source" && source !== undefined) {
    const found = store.find(SOURCE, [scopeId], source.source_id);
    return found !== undefined && (found.current.source_type ?? CONTENT_SOURCE_NAME) === source.name;
  }
  const artifact = citation.artifact_ref as JsonRecord | undefined;
  if (artifact === undefined || exceptFamilies.includes(String(artifact.family))) return false;
  const versions = store.versionsOf(ARTIFACT, [scopeId, artifact.family], artifact.artifact_id) ?? [];
  return versions.some((version) => version.revision === artifact.revision);
}

/**
 * True when the Scope holds every citation.
 * @param exceptFamilies - Artifact families never accepted as evidence (default: none)
 */
export function evidenceHeld(
  store: ResourceStore,
  scopeId: string,
  citations: readonly JsonRecord[],
  exceptFamilies: readonly string[] = [],
): boolean {
  return citations.every((citation) => available(store, scopeId, citation, exceptFamilies));
}

/** The citations of a Handoff's content: its state statements', its next action's and its omissions', each once. */
export function contentCitations(content: JsonRecord): JsonRecord[] {
  return unique([
    ...directCitations(content),
    ...list(content.omissions).flatMap((omission) => (isRecord(omission.citation) ? [omission.citation] : [])),
  ]);
}

/** The citations of a Handoff's state statements and next action, each once: the evidence a commit checks and cites. */
export function directCitations(content: JsonRecord): JsonRecord[] {
  const claims = [...list(content.state), ...(isRecord(content.next_action) ? [content.next_action] : [])];
  return unique(claims.flatMap((claim) => list(claim.citations)));
}

/** The objects of a list member; none when it is no list. */
export function list(value: unknown): JsonRecord[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

/**
 * @param options.exceptFamilies - Artifact families never accepted as evidence (default: none)
 * @throws SimError 404 `handoff_evidence_not_found` for the first citation the Scope does not hold
 */
export function requireEvidence(
  store: ResourceStore,
  scopeId: string,
  citations: readonly JsonRecord[],
  options: { readonly exceptFamilies?: readonly string[] } = {},
): void {
  if (!evidenceHeld(store, scopeId, citations, options.exceptFamilies))
    throw new SimError(
      404,
      "handoff_evidence_not_found",
      "A cited Source or Artifact revision is not in the Scope.",
      null,
    );
}
