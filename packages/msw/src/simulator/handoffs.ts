import { SimError } from "./errors.js";
import { directCitations } from "./handoff-evidence.js";
import { reference } from "./artifacts.js";
import type { Principal } from "./access/principals.js";
import { copyJson, stableJson, unique, type JsonRecord } from "./members.js";
import { sha256Hex } from "./digest/sha256.js";
import { publicRecord, resolveSelection } from "./scope-selection.js";
import type { ResourceWriter } from "./resources/writer.js";
import { CONTENT_SOURCE_NAME, type SourceStore } from "./sources.js";

/**
 * Handoffs of current work, as the release keeps them: a Scope has one
 * Handoff Artifact (`handoff`), written by each commit. A prepared handoff
 * cites the boundary Source its preparation captures before the evidence of
 * each claim, and names the committed revision it builds on (`base`, null
 * before the first commit); resolving it for a receiver checks each claim's
 * evidence and names the revision it read (`selected_revision`, null for a
 * prepared handoff the caller holds); an acknowledgement captures a receipt
 * Source and names the Principal that sent it. Members the request leaves
 * null (a next action) stay null.
 */

/** The Artifact family and the one id of a Scope's Handoff. */
const HANDOFF_FAMILY = "handoff";
const HANDOFF_ID = "handoff";
const HANDOFF_SCHEMA = "powercontext.handoff.v1";
const PREPARED_SCHEMA = "powercontext.prepared-handoff.v1";
const REPORT_SCHEMA = "powercontext.handoff-report.v2";

type Claim = { text: string; citations: JsonRecord[] };

/** Handoffs over the resource writer and the Source log. */
export class Handoffs {
  /** Who acknowledged with each receipt Source (`<scope>\u0000<source>`): the principal and whether it was the receiver. */
  readonly #receipts = new Map<string, string>();
  /** The receipt Sources (`<scope>\u0000<source>`) that accepted an exact revision: what a task outcome may cite. */
  readonly #acceptedExact = new Set<string>();

  constructor(
    private readonly writer: ResourceWriter,
    private readonly sources: SourceStore,
  ) {}

  /** `handoff_current_work`: captures the boundary Source and prepares the handoff on the current revision. */
  prepareCurrent(scopeId: string, sourceId: string, work: JsonRecord): JsonRecord {
    const boundary = this.#capture(scopeId, sourceId, work, "handoff-boundary");
    const cite = (claim: JsonRecord | null): Claim | null =>
      claim === null
        ? null
        : {
            text: String(claim.text),
            citations: [
              { kind: "source", source_ref: copyJson(boundary.source) },
              ...((claim.evidence as JsonRecord[] | undefined) ?? []).map((e) => copyJson(e)),
            ],
          };
    return {
      boundary,
      handoff: this.#prepared(scopeId, {
        objective: work.objective,
        state: ((work.state as JsonRecord[]) ?? []).map((claim) => cite(claim)),
        disposition: work.disposition,
        next_action: cite((work.next_action as JsonRecord | null | undefined) ?? null),
        omissions: copyJson(work.omissions ?? []),
      }),
    };
  }

  /** `finalize_handoff`: the draft prepared on the current revision, as written. */
  finalize(scopeId: string, draft: JsonRecord): JsonRecord {
    return this.#prepared(scopeId, {
      objective: draft.objective,
      state: copyJson(draft.state ?? []),
      disposition: draft.disposition,
      next_action: copyJson(draft.next_action ?? null),
      omissions: copyJson(draft.omissions ?? []),
    });
  }

  /**
   * `commit_handoff`: writes the prepared content as the Scope's Handoff (its next revision); the
   * content the Handoff already holds is no new revision, whatever base it was prepared on. The
   * write needs the evidence its content cites (`handoff-writes.ts`).
   * @throws SimError 422 `invalid_request` for a Handoff prepared in another Scope or on a base other
   *   than the Scope's Handoff; 409 `revision_conflict` when it was prepared on another revision than
   *   the current one; 404 `handoff_evidence_not_found` for evidence the Scope does not hold
   */
  commit(scopeId: string, prepared: JsonRecord): JsonRecord {
    requirePrepared(scopeId, prepared);
    const keys = [scopeId, HANDOFF_FAMILY];
    const current = this.writer.find("artifact", keys, HANDOFF_ID);
    const base = (prepared.base as JsonRecord | null | undefined) ?? null;
    const unchanged = current !== undefined && stableJson(current.content) === stableJson(prepared.content);
    if (!unchanged && stableJson(base) !== stableJson(current === undefined ? null : reference(current)))
      throw new SimError(409, "revision_conflict", "The Memory Revision is stale.", null);
    const content = copyJson(prepared.content) as JsonRecord;
    const written = unchanged
      ? current
      : current === undefined
        ? this.writer.insert("artifact", keys, { artifact_id: HANDOFF_ID, content }, { quiet: true })
        : this.writer.update("artifact", keys, current, { content }, { quiet: true });
    const citations = directCitations(content);
    return {
      reference: reference(written),
      content,
      source_refs: unique(citations.filter((c) => c.kind === "source").map((c) => c.source_ref as JsonRecord)),
      artifact_refs: unique(citations.filter((c) => c.kind === "artifact").map((c) => c.artifact_ref as JsonRecord)),
    };
  }

  /**
   * `continue_handoff`: the handoff a receiver continues from (the prepared one it
   * holds, the committed one it names, or the latest), with each claim's evidence checked.
   * @throws SimError 422 `invalid_request` for a prepared Handoff of another Scope, or whose base
   *   names anything but the Scope's Handoff; 404 `artifact_not_found` for a revision never committed
   */
  resolve(scopeId: string, request: JsonRecord): JsonRecord {
    const current = this.writer.find("artifact", [scopeId, HANDOFF_FAMILY], HANDOFF_ID);
    const currentRef = current === undefined ? null : reference(current);
    const selection = String(request.selection);
    const named = (request.revision as JsonRecord | null | undefined) ?? null;
    let content: JsonRecord | null = null;
    let selected: JsonRecord | null = null;
    if (selection === "prepared") {
      const prepared = request.prepared as JsonRecord | null | undefined;
      if (prepared !== null && prepared !== undefined) requirePrepared(scopeId, prepared);
      content = (prepared?.content as JsonRecord | undefined) ?? null;
    } else if (named !== null) {
      const revision = this.#revision(scopeId, named);
      content = revision.content as JsonRecord;
      selected = reference(revision);
    } else if (current !== undefined) {
      content = current.content as JsonRecord;
      selected = currentRef;
    }
    return {
      trust: "untrusted_history",
      status: content === null ? "empty" : "resolved",
      scope_id: scopeId,
      content: copyJson(content),
      // An empty resolution selected nothing.
      selection: content === null ? null : selection,
      selected_revision: selected,
      current_revision: currentRef,
      evidence_checks: content === null ? [] : checks(content),
    };
  }

  /**
   * `acknowledge_handoff`: the resolution, a receipt Source, and who acknowledged it. A receipt's
   * Source belongs to the principal that first acknowledged with it, as the release records it:
   * the same Source from another principal (or naming another receiver) is `409 receipt-identity`.
   */
  acknowledge(scopeId: string, request: JsonRecord, principal: Principal): JsonRecord {
    const resolution = this.resolve(scopeId, request);
    const who = principal.wire();
    const identity = stableJson([principal.key, request.receiver === who.id]);
    const at = `${scopeId}\u0000${String(request.source_id)}`;
    const recorded = this.#receipts.get(at);
    if (recorded !== undefined && recorded !== identity)
      throw new SimError(409, "receipt-identity", "The receipt was recorded for another identity.", null);
    this.#receipts.set(at, identity);
    const { scope_id: _scope, ...acknowledged } = request;
    const receipt = this.#capture(scopeId, String(request.source_id), acknowledged, "handoff-receipt");
    if (request.status === "accepted" && request.selection === "exact" && resolution.selected_revision != null)
      this.#acceptedExact.add(at);
    return {
      receipt_identity: { principal: who, receiver_identity_matches: request.receiver === who.id },
      resolution,
      receipt,
    };
  }

  /**
   * `get_handoff_report`: each Scope the selection names (every Scope, the ones listed, or one
   * and the Scopes below it) with its committed Handoff (or none), counted by disposition.
   * @throws SimError 404 `scope_not_found` for a listed Scope the server does not have
   */
  report(selection: JsonRecord, generatedAt: string): JsonRecord {
    const scopes = resolveSelection(this.writer.records("scope", []), selection);
    const counts: Record<string, number> = { continuable: 0, blocked: 0, complete: 0, no_handoff: 0 };
    const entries = scopes.map((scope) => {
      const scopeId = String(scope.scope_id);
      const handoff = this.writer.find("artifact", [scopeId, HANDOFF_FAMILY], HANDOFF_ID);
      const content = handoff === undefined ? null : reportContent(handoff.content as JsonRecord);
      const status = content === null ? "no_handoff" : String(content.disposition);
      counts[status] = (counts[status] ?? 0) + 1;
      return {
        scope: publicRecord("scope", scope, 0),
        status,
        handoff: handoff === undefined ? null : { scope_id: scopeId, artifact: reference(handoff) },
        content,
      };
    });
    const selectionDigest = `sha256:${sha256Hex(stableJson(selection))}`;
    const report: JsonRecord = {
      schema: REPORT_SCHEMA,
      selection: copyJson(selection),
      scope_ids: scopes.map((scope) => scope.scope_id),
      generated_at: generatedAt,
      summary: {
        continuable_count: counts.continuable,
        blocked_count: counts.blocked,
        complete_count: counts.complete,
        no_handoff_count: counts.no_handoff,
      },
      scopes: entries,
      selection_digest: selectionDigest,
    };
    const reportDigest = `sha256:${sha256Hex(stableJson(report))}`;
    return { ...report, report_digest: reportDigest };
  }

  /**
   * `prepare_handoff_hint`: the content of the Handoff the request selects (the exact revision it
   * names, the prepared one it carries, else the Scope's committed Handoff), or null when there is none.
   * @throws SimError 422 `invalid_request` for a prepared Handoff of another Scope, or whose base
   *   names anything but the Scope's Handoff; 404 `artifact_not_found` for a revision never committed
   */
  hint(scopeId: string, request: JsonRecord): JsonRecord | null {
    const prepared = request.prepared as JsonRecord | null | undefined;
    const named = (request.revision as JsonRecord | null | undefined) ?? null;
    if (named !== null) return this.#revision(scopeId, named).content as JsonRecord;
    if (prepared === null || prepared === undefined) {
      const committed = this.writer.find("artifact", [scopeId, HANDOFF_FAMILY], HANDOFF_ID);
      return (committed?.content as JsonRecord | undefined) ?? null;
    }
    requirePrepared(scopeId, prepared);
    return (prepared.content as JsonRecord | undefined) ?? null;
  }

  /**
   * The exact committed revision of the Scope's Handoff a reference names (the release reads it as named).
   * @throws SimError 404 `artifact_not_found` for a revision never committed, or another Artifact
   */
  #revision(scopeId: string, named: JsonRecord): JsonRecord {
    const found =
      named.family === HANDOFF_FAMILY && named.artifact_id === HANDOFF_ID
        ? this.writer
            .versions("artifact", [scopeId, HANDOFF_FAMILY], HANDOFF_ID)
            ?.find((version) => version.revision === named.revision)
        : undefined;
    if (found === undefined)
      throw new SimError(404, "artifact_not_found", "The requested Artifact was not found.", null);
    return found;
  }

  #prepared(scopeId: string, content: JsonRecord): JsonRecord {
    const current = this.writer.find("artifact", [scopeId, HANDOFF_FAMILY], HANDOFF_ID);
    return {
      generation: null,
      schema: PREPARED_SCHEMA,
      scope_id: scopeId,
      base: current === undefined ? null : reference(current),
      content: { generation: null, schema: HANDOFF_SCHEMA, ...content },
    };
  }

  /**
   * `create_work_contract` and `record_task_outcome`: the work record captured as a Source of `kind`.
   * @throws SimError 422 `invalid_request` (no details) when `receiptRef` names no receipt that accepted an exact revision
   * @throws SimError 409 `source_conflict` when the Source id already holds other content
   */
  record(
    scopeId: string,
    sourceId: string,
    value: JsonRecord,
    kind: string,
    receiptRef: JsonRecord | null,
  ): JsonRecord {
    if (receiptRef !== null) {
      const held = receiptRef.name === CONTENT_SOURCE_NAME;
      if (!held || !this.#acceptedExact.has(`${scopeId}\u0000${String(receiptRef.source_id)}`))
        throw new SimError(422, "invalid_request", "The request is invalid.", null);
    }
    return this.#capture(scopeId, sourceId, value, kind);
  }

  /** Captures `value` as the Source `sourceId` (idempotent per id) and answers its receipt. */
  #capture(scopeId: string, sourceId: string, value: unknown, kind: string): JsonRecord {
    const text = stableJson(value);
    const { position } = this.sources.capture(scopeId, sourceId, text);
    return {
      kind,
      source: { name: CONTENT_SOURCE_NAME, source_id: sourceId },
      position,
      content_digest: `sha256:${sha256Hex(text)}`,
    };
  }
}

/** Every claim's evidence is available: the mock keeps every Source it captured. */
function checks(content: JsonRecord): JsonRecord[] {
  const state = ((content.state as unknown[] | undefined) ?? []).map((_claim, index) => ({
    claim: "state",
    state_index: index,
    status: "available",
    unavailable_evidence: [],
  }));
  if (content.next_action === null || content.next_action === undefined) return state;
  return [...state, { claim: "next_action", state_index: null, status: "available", unavailable_evidence: [] }];
}

/** A Handoff's content as a report shows it: no generation envelope, Sources named by type. */
function reportContent(content: JsonRecord): JsonRecord {
  const { generation: _generation, ...rest } = copyJson(content);
  const renamed = (claim: unknown): unknown => {
    if (claim === null || typeof claim !== "object") return claim;
    const { citations, ...statement } = claim as JsonRecord;
    return {
      ...statement,
      citations: ((citations as JsonRecord[] | undefined) ?? []).map((citation) => {
        const ref = citation.source_ref as JsonRecord | undefined;
        if (citation.kind !== "source" || ref === undefined) return citation;
        return { kind: "source", source_ref: { source_type: ref.name, source_id: ref.source_id } };
      }),
    };
  };
  return {
    ...rest,
    state: ((rest.state as unknown[] | undefined) ?? []).map(renamed),
    next_action: renamed(rest.next_action ?? null),
  };
}

/** A report as Markdown: a heading per Scope with its status, objective and claims. */
export function reportMarkdown(report: JsonRecord): string {
  const lines = ["# Handoff report", ""];
  for (const entry of (report.scopes as JsonRecord[] | undefined) ?? []) {
    const scope = entry.scope as JsonRecord;
    const content = entry.content as JsonRecord | null;
    lines.push(`## ${String(scope.title)} (${String(scope.scope_id)})`, "", `Status: ${String(entry.status)}`, "");
    if (content === null) continue;
    lines.push(`Objective: ${String(content.objective)}`, "");
    for (const claim of (content.state as JsonRecord[] | undefined) ?? []) lines.push(`- ${String(claim.text)}`);
    const next = content.next_action as JsonRecord | null;
    lines.push("", `Next action: ${next === null ? "none" : String(next.text)}`, "");
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

/**
 * Refuses a prepared Handoff that is not the Scope's to continue or hint from: one prepared
 * in another Scope, or on a base other than the Scope's one Handoff.
 * @throws SimError 422 `invalid_request`
 */
function requirePrepared(scopeId: string, prepared: JsonRecord): void {
  const base = prepared.base as JsonRecord | null | undefined;
  const foreignBase =
    base !== null && base !== undefined && (base.family !== HANDOFF_FAMILY || base.artifact_id !== HANDOFF_ID);
  if (prepared.scope_id !== scopeId || foreignBase)
    throw new SimError(422, "invalid_request", "The request is invalid.", null);
}
