import { isoTime } from "./clock.js";
import { claimEvidence, contentCitations, evidenceHeld, list, requireEvidence } from "./handoff-evidence.js";
import { reportMarkdown } from "./handoffs.js";
import type { Principal } from "./access/principals.js";
import { stableJson, unique, type JsonRecord } from "./members.js";
import { preparedContext } from "./prepared-context.js";
import { contentTypeOf } from "./responder/media.js";
import type { SimulatorState } from "./state.js";
import type { HandlerResult, SimRequest } from "./types.js";
import { objectBody, scopeField } from "./validate.js";

/**
 * The Handoff operations and the Handoff report, answered by the Handoff domain
 * (`state.handoffs`, handoffs.ts). Credentials, access, the body's schema and the
 * Scope were checked before.
 */
type HandoffHandler = (
  state: SimulatorState,
  caller: Principal | null,
  request: SimRequest,
  now: number,
) => HandlerResult;

const ok = (body: unknown): HandlerResult => ({ status: 200, body });
const accepted = (body: unknown): HandlerResult => ({ status: 202, body });

/** The Handoff operations the domain answers, by operationId. */
export const handoffHandlers: Record<string, HandoffHandler> = {
  handoff_current_work: (state, _principal, request) => {
    const body = objectBody(request.body);
    const work = body.handoff as JsonRecord;
    requireEvidence(state.store, scopeField(body), claimEvidence([...list(work.state), work.next_action ?? null]));
    return ok(state.handoffs.prepareCurrent(scopeField(body), String(body.source_id), body.handoff as JsonRecord));
  },

  create_work_contract: (state, _principal, request) => {
    const body = objectBody(request.body);
    const contract = body.contract as JsonRecord;
    requireEvidence(state.store, scopeField(body), claimEvidence(list(contract.facts)));
    return accepted(state.handoffs.record(scopeField(body), String(body.source_id), contract, "work-contract", null));
  },

  record_task_outcome: (state, _principal, request) => {
    const body = objectBody(request.body);
    const outcome = body.outcome as JsonRecord;
    const citations = unique([
      ...claimEvidence(list(outcome.observations)),
      ...claimEvidence(list(outcome.checks)),
      ...list(outcome.produced_artifacts).map((artifact_ref) => ({ kind: "artifact", artifact_ref })),
    ]);
    requireEvidence(state.store, scopeField(body), citations);
    const receiptRef = (outcome.handoff_receipt_ref as JsonRecord | null | undefined) ?? null;
    return accepted(
      state.handoffs.record(scopeField(body), String(body.source_id), outcome, "task-outcome", receiptRef),
    );
  },

  // The draft's direct evidence (its state and next action; not its omissions) must be in the
  // Scope, and never a Prompt: the release resolves each citation before it prepares the Handoff.
  finalize_handoff: (state, _principal, request) => {
    const body = objectBody(request.body);
    const draft = body.draft as JsonRecord;
    const next = (draft.next_action ?? null) as JsonRecord | null;
    const citations = unique(
      [...list(draft.state), ...(next === null ? [] : [next])].flatMap((claim) => list(claim.citations)),
    );
    requireEvidence(state.store, scopeField(body), citations, { exceptFamilies: ["prompt"] });
    return ok(state.handoffs.finalize(scopeField(body), draft));
  },

  commit_handoff: (state, _principal, request) => {
    const body = objectBody(request.body);
    return ok(state.handoffs.commit(scopeField(body), body.handoff as JsonRecord));
  },

  continue_handoff: (state, _principal, request) => {
    const body = objectBody(request.body);
    return ok(state.handoffs.resolve(scopeField(body), body));
  },

  acknowledge_handoff: (state, principal, request) => {
    const body = objectBody(request.body);
    return ok(state.handoffs.acknowledge(scopeField(body), body, principal as Principal));
  },

  // The release shows a Handoff only while all its evidence (its omissions' citations too) is in the Scope.
  prepare_handoff_hint: (state, _principal, request) => {
    const body = objectBody(request.body);
    const content = state.handoffs.hint(scopeField(body), body);
    const shown = content !== null && evidenceHeld(state.store, scopeField(body), contentCitations(content));
    return ok(preparedContext(shown ? [stableJson(content)] : []));
  },

  get_handoff_report: (state, _principal, request, now) => {
    const body = objectBody(request.body);
    const report = state.handoffs.report(body.selection as JsonRecord, isoTime(now));
    const digests = { selection_digest: report.selection_digest, report_digest: report.report_digest };
    const headers = {
      "X-PowerContext-Selection-Digest": String(digests.selection_digest),
      "X-PowerContext-Report-Digest": String(digests.report_digest),
    };
    // A download is the report itself (Markdown, or the bare JSON report), named as an attachment.
    const attachment = (name: string) =>
      body.download === true ? { ...headers, "Content-Disposition": `attachment; filename="${name}"` } : headers;
    if (body.format === "markdown")
      return {
        status: 200,
        body: reportMarkdown(report),
        contentType: contentTypeOf("text/markdown"),
        headers: attachment("handoff-report.md"),
      };
    if (body.download === true)
      return {
        status: 200,
        body: JSON.stringify(report),
        contentType: "application/json",
        headers: attachment("handoff-report.json"),
      };
    return { status: 200, body: { format: "json", report, markdown: null, ...digests }, headers };
  },
};
