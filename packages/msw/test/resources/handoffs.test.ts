import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator, type PowerContextSimulator } from "../../src/simulator/simulator.js";
import { contractProblems } from "../support/contract.js";
import { call, type Reply } from "../support/flat-call.js";

/**
 * Handoffs as the release keeps them: the prepared handoff cites its boundary
 * Source before each claim's evidence and builds on the committed revision
 * (`base`, null before the first commit); a next action the caller leaves null
 * stays null; a commit writes the Scope's one Handoff Artifact (`handoff`); a
 * prepared handoff resolves without a selected revision, the latest with one;
 * an acknowledgement names the Principal; the report lists each Scope's Handoff.
 */
function fresh(): PowerContextSimulator {
  return createPowerContextSimulator({ seed: 6, clock: new ManualClock(), scopes: ["s1"] });
}

function valid(operationId: Parameters<typeof call>[1], reply: Reply): Reply {
  expect(contractProblems(operationId, reply.status, { ...reply.headers }, reply.body), operationId).toEqual([]);
  expect(reply.status, operationId).toBe(200);
  return reply;
}

const evidence = [{ kind: "source", source_ref: { name: "content", source_id: "note-1" } }];
const work = {
  schema: "powercontext.current-work-handoff.v1",
  trust: "untrusted_input",
  objective: "Automate the changelog.",
  state: [{ text: "The template is drafted.", basis: "verified", evidence }],
  disposition: "continuable",
  next_action: null,
  omissions: [],
};

describe("handoffs", () => {
  it("prepares, commits, continues and acknowledges a handoff with the release's nulls", () => {
    const sim = fresh();
    call(sim, "capture_content_source", { scope_id: "s1", source_id: "note-1", content: "The template exists." });
    const prepared = valid(
      "handoff_current_work",
      call(sim, "handoff_current_work", { scope_id: "s1", source_id: "boundary-1", handoff: work }),
    ).body;
    expect(prepared.boundary).toMatchObject({
      kind: "handoff-boundary",
      source: { name: "content", source_id: "boundary-1" },
      position: 2,
    });
    expect(prepared.handoff).toMatchObject({ scope_id: "s1", base: null, generation: null });
    expect(prepared.handoff.content).toMatchObject({ objective: work.objective, next_action: null, omissions: [] });
    expect(prepared.handoff.content.state[0].citations).toEqual([
      { kind: "source", source_ref: { name: "content", source_id: "boundary-1" } },
      ...evidence,
    ]);

    const committed = valid(
      "commit_handoff",
      call(sim, "commit_handoff", { scope_id: "s1", handoff: prepared.handoff }),
    );
    expect(committed.body.reference).toEqual({ family: "handoff", artifact_id: "handoff", revision: 1 });
    expect(committed.body.source_refs).toEqual([
      { name: "content", source_id: "boundary-1" },
      { name: "content", source_id: "note-1" },
    ]);
    // The same content again is no new revision; other content prepared on the old base is stale.
    const again = valid("commit_handoff", call(sim, "commit_handoff", { scope_id: "s1", handoff: prepared.handoff }));
    expect(again.body.reference).toEqual(committed.body.reference);
    const changed = { ...prepared.handoff, content: { ...prepared.handoff.content, objective: "Something else." } };
    const stale = call(sim, "commit_handoff", { scope_id: "s1", handoff: changed });
    expect([stale.status, stale.code, stale.body.error.details]).toEqual([409, "revision_conflict", null]);
    // The revision cites, as its lineage, what its state statements and next action cite.
    const stored = call(sim, "get_artifact", { scope_id: "s1", family: "handoff", artifact_id: "handoff" }).body;
    expect([stored.sources, stored.artifacts]).toEqual([
      [
        { source_type: "content", source_id: "boundary-1" },
        { source_type: "content", source_id: "note-1" },
      ],
      [],
    ]);

    const held = valid(
      "continue_handoff",
      call(sim, "continue_handoff", { scope_id: "s1", selection: "prepared", prepared: prepared.handoff }),
    ).body;
    expect(held).toMatchObject({
      status: "resolved",
      selected_revision: null,
      current_revision: committed.body.reference,
    });
    expect(held.evidence_checks).toEqual([
      { claim: "state", state_index: 0, status: "available", unavailable_evidence: [] },
    ]);
    const latest = valid(
      "continue_handoff",
      call(sim, "continue_handoff", { scope_id: "s1", selection: "latest" }),
    ).body;
    expect(latest.selected_revision).toEqual(committed.body.reference);

    const next = valid(
      "handoff_current_work",
      call(sim, "handoff_current_work", { scope_id: "s1", source_id: "boundary-2", handoff: work }),
    ).body;
    expect(next.handoff.base).toEqual(committed.body.reference);

    const acknowledged = valid(
      "acknowledge_handoff",
      call(sim, "acknowledge_handoff", {
        scope_id: "s1",
        source_id: "ack-1",
        receiver: "someone-else",
        status: "needs_clarification",
        selection: "prepared",
        prepared: prepared.handoff,
        message: "Which format?",
      }),
    ).body;
    expect(acknowledged.receipt).toMatchObject({ kind: "handoff-receipt", source: { source_id: "ack-1" } });
    expect(acknowledged.receipt_identity).toMatchObject({ receiver_identity_matches: false });
    expect(typeof acknowledged.receipt_identity.principal.id).toBe("string");
    expect(acknowledged.resolution.selected_revision).toBeNull();
  });

  it("finalizes a draft as written and reports each Scope's Handoff", () => {
    const sim = fresh();
    call(sim, "capture_content_source", { scope_id: "s1", source_id: "note-1", content: "The template exists." });
    const draft = {
      objective: "Automate the changelog.",
      state: [{ text: "The template is drafted.", citations: evidence }],
      disposition: "blocked",
      next_action: null,
      omissions: [],
    };
    const finalized = valid("finalize_handoff", call(sim, "finalize_handoff", { scope_id: "s1", draft })).body;
    expect(finalized).toMatchObject({ base: null, content: { ...draft, schema: "powercontext.handoff.v1" } });
    valid("commit_handoff", call(sim, "commit_handoff", { scope_id: "s1", handoff: finalized }));

    const reported = valid(
      "get_handoff_report",
      call(sim, "get_handoff_report", { selection: { mode: "exact", scope_ids: ["s1"] } }),
    ).body;
    expect(reported.markdown).toBeNull();
    expect(reported.report).toMatchObject({
      schema: "powercontext.handoff-report.v2",
      scope_ids: ["s1"],
      summary: { continuable_count: 0, blocked_count: 1, complete_count: 0, no_handoff_count: 0 },
    });
    expect(reported.report.scopes[0]).toMatchObject({
      status: "blocked",
      handoff: { scope_id: "s1", artifact: { family: "handoff", artifact_id: "handoff", revision: 1 } },
    });
    expect(reported.report.scopes[0].content.state[0].citations[0].source_ref).toEqual({
      source_type: "content",
      source_id: "note-1",
    });
    expect(reported.report_digest).toBe(reported.report.report_digest);
  });
});

describe("a Handoff selection carries exactly the value it selects", () => {
  const revision = { family: "handoff", artifact_id: "handoff", revision: 1 };
  const invalid = [422, "invalid_request", null];
  it.each(["continue_handoff", "prepare_handoff_hint"] as const)(
    "%s refuses a value the selection does not take, and a missing one, without details",
    (operationId) => {
      const sim = fresh();
      const answer = (request: Record<string, unknown>) => {
        const reply = call(sim, operationId, { scope_id: "s1", ...request });
        return [reply.status, reply.code, reply.body?.error?.details ?? null];
      };
      expect(answer({ selection: "latest", revision })).toEqual(invalid);
      expect(answer({ selection: "prepared" })).toEqual(invalid);
      expect(answer({ selection: "prepared", revision })).toEqual(invalid);
      expect(answer({ selection: "latest" })[0]).toBe(200);
    },
  );
});

describe("prepare_handoff_hint and continue_handoff of a prepared Handoff", () => {
  it("refuses one of another Scope or on another base, and shows one only while the Scope holds its evidence", () => {
    const sim = fresh();
    call(sim, "capture_content_source", { scope_id: "s1", source_id: "note-1", content: "The template exists." });
    const prepared = valid(
      "handoff_current_work",
      call(sim, "handoff_current_work", { scope_id: "s1", source_id: "boundary-1", handoff: work }),
    ).body.handoff;
    const hint = (handoff: Record<string, unknown>) =>
      call(sim, "prepare_handoff_hint", { scope_id: "s1", selection: "prepared", prepared: handoff });
    expect(hint(prepared).body).toMatchObject({ status: "ready" });
    const resolve = (handoff: Record<string, unknown>) =>
      call(sim, "continue_handoff", { scope_id: "s1", selection: "prepared", prepared: handoff });
    expect(resolve(prepared).body).toMatchObject({ status: "resolved", selection: "prepared" });
    for (const foreign of [
      { ...prepared, scope_id: "s2" },
      { ...prepared, base: { family: "skill", artifact_id: "handoff", revision: 1 } },
      { ...prepared, base: { family: "handoff", artifact_id: "other", revision: 1 } },
    ]) {
      // continue_handoff holds a prepared Handoff to the same rule.
      for (const refused of [hint(foreign), resolve(foreign)])
        expect([refused.status, refused.code, refused.body.error.details]).toEqual([422, "invalid_request", null]);
    }
    // A citation the Scope does not hold (an Artifact revision never written): nothing to show.
    const unheld = { kind: "artifact", artifact_ref: { family: "skill", artifact_id: "art_none", revision: 1 } };
    const [first] = prepared.content.state;
    const content = { ...prepared.content, state: [{ ...first, citations: [...first.citations, unheld] }] };
    expect(valid("prepare_handoff_hint", hint({ ...prepared, content })).body).toEqual({
      schema: "powercontext.prepared-context.v1",
      status: "empty",
      content: null,
      content_bytes: 0,
    });
  });
});

describe("an exact revision of the Scope's Handoff", () => {
  it("is read as named by prepare_handoff_hint and continue_handoff, and one never committed is 404", () => {
    const sim = fresh();
    call(sim, "capture_content_source", { scope_id: "s1", source_id: "note-1", content: "The template exists." });
    const commit = (sourceId: string, objective: string) => {
      const prepared = call(sim, "handoff_current_work", {
        scope_id: "s1",
        source_id: sourceId,
        handoff: { ...work, objective },
      }).body.handoff;
      return valid("commit_handoff", call(sim, "commit_handoff", { scope_id: "s1", handoff: prepared })).body;
    };
    expect(commit("boundary-1", "First.").reference.revision).toBe(1);
    expect(commit("boundary-2", "Second.").reference.revision).toBe(2);
    const exact = (revision: number) => ({
      scope_id: "s1",
      selection: "exact",
      revision: { family: "handoff", artifact_id: "handoff", revision },
    });
    expect(valid("prepare_handoff_hint", call(sim, "prepare_handoff_hint", exact(1))).body.content).toContain("First.");
    const continued = valid("continue_handoff", call(sim, "continue_handoff", exact(1))).body;
    expect([continued.status, continued.content.objective, continued.selected_revision.revision]).toEqual([
      "resolved",
      "First.",
      1,
    ]);
    expect(continued.current_revision.revision).toBe(2);
    for (const operationId of ["prepare_handoff_hint", "continue_handoff"] as const) {
      const missing = call(sim, operationId, exact(9));
      expect([missing.status, missing.code], operationId).toEqual([404, "artifact_not_found"]);
    }
  });
});

describe("work records: their evidence is found in the Scope, then they are captured as Sources", () => {
  const contract = (facts: unknown[]) => ({
    schema: "powercontext.work-contract.v1",
    trust: "untrusted_input",
    objective: "Automate the changelog.",
    facts,
    in_scope: ["The changelog script."],
    exclusions: [],
    completion_criteria: ["No manual changelog edit."],
    authorization_notes: [],
    open_questions: [],
  });
  const cited = (evidence: unknown[]) => [{ text: "Cut on Tuesdays.", basis: "verified", evidence }];

  it("captures a contract as a work-contract Source, once per id and content", () => {
    const sim = fresh();
    const first = call(sim, "create_work_contract", { scope_id: "s1", source_id: "wc-1", contract: contract([]) });
    expect([first.status, first.body.kind, first.body.source]).toEqual([
      202,
      "work-contract",
      { name: "content", source_id: "wc-1" },
    ]);
    const again = call(sim, "create_work_contract", { scope_id: "s1", source_id: "wc-1", contract: contract([]) });
    expect(again.body).toEqual(first.body);
    const other = contract([]);
    other.objective = "Something else.";
    const conflict = call(sim, "create_work_contract", { scope_id: "s1", source_id: "wc-1", contract: other });
    expect([conflict.status, conflict.code]).toEqual([409, "source_conflict"]);
  });

  it("refuses evidence the Scope does not hold: a Source of another type, an Artifact revision never written", () => {
    const sim = fresh();
    call(sim, "capture_content_source", { scope_id: "s1", source_id: "note-1", content: "Cut on Tuesdays." });
    const source = (name: string) => ({ kind: "source", source_ref: { name, source_id: "note-1" } });
    const held = call(sim, "create_work_contract", {
      scope_id: "s1",
      source_id: "wc-2",
      contract: contract(cited([source("content")])),
    });
    expect(held.status).toBe(202);
    const artifact = { kind: "artifact", artifact_ref: { family: "experience", artifact_id: "art-x", revision: 1 } };
    for (const evidence of [[source("tickets")], [artifact]]) {
      const refused = call(sim, "create_work_contract", {
        scope_id: "s1",
        source_id: "wc-3",
        contract: contract(cited(evidence)),
      });
      expect([refused.status, refused.code]).toEqual([404, "handoff_evidence_not_found"]);
    }
  });

  it("refuses an outcome citing a receipt that accepted no exact revision", () => {
    const sim = fresh();
    const outcome = {
      schema: "powercontext.task-outcome.v1",
      trust: "untrusted_observation",
      objective: "Automate the changelog.",
      status: "partial",
      summary: "The template exists.",
      observations: [{ text: "The template exists.", basis: "declared", evidence: [] }],
      checks: [],
      produced_artifacts: [],
      remaining_work: ["Write the script."],
      handoff_receipt_ref: { name: "content", source_id: "receipt-1" },
    };
    const refused = call(sim, "record_task_outcome", { scope_id: "s1", source_id: "to-1", outcome });
    expect([refused.status, refused.code, refused.body.error.details]).toEqual([422, "invalid_request", null]);
    const recorded = call(sim, "record_task_outcome", {
      scope_id: "s1",
      source_id: "to-1",
      outcome: { ...outcome, handoff_receipt_ref: null },
    });
    expect([recorded.status, recorded.body.kind]).toEqual([202, "task-outcome"]);
  });
});

describe("continuing with no committed Handoff", () => {
  it("answers an empty resolution that selected nothing, and 404 for a revision never committed", () => {
    const sim = fresh();
    const latest = call(sim, "continue_handoff", { scope_id: "s1", selection: "latest" });
    expect([latest.status, latest.body.status, latest.body.selection]).toEqual([200, "empty", null]);
    const exact = call(sim, "continue_handoff", {
      scope_id: "s1",
      selection: "exact",
      revision: { family: "handoff", artifact_id: "handoff", revision: 1 },
    });
    expect([exact.status, exact.code]).toEqual([404, "artifact_not_found"]);
  });
});
