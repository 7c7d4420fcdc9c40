import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator, type PowerContextSimulator } from "../../src/simulator/simulator.js";
import { contractProblems } from "../support/contract.js";
import { call, type Reply } from "../support/flat-call.js";
import { evidence } from "../support/evidence.js";

/**
 * Candidates answered with the members the released server sends (measured
 * by the conformance suite): what a reviewer may still do, the nulls of the
 * proposal's optional members, no `audit` from the proposing routes to a
 * client that does not speak Dream contract 2, the details of a stale or a
 * final Candidate, and cursors that are the last Candidate id of a page.
 */
function fresh(): PowerContextSimulator {
  return createPowerContextSimulator({ seed: 9, clock: new ManualClock(), scopes: ["s1"] });
}

function valid(operationId: Parameters<typeof call>[1], reply: Reply): Reply {
  expect(contractProblems(operationId, reply.status, { ...reply.headers }, reply.body), operationId).toEqual([]);
  return reply;
}

const experience = (lesson: string) => ({
  situation: "A backup failed silently.",
  action: "Added an alert.",
  outcome: "Failures page on-call.",
  lesson,
});
const propose = (sim: PowerContextSimulator, lesson: string, extra: Record<string, unknown> = {}) =>
  valid(
    "propose_experience",
    call(sim, "propose_experience", {
      scope_id: "s1",
      proposal: experience(lesson),
      source_refs: evidence(sim),
      artifact_refs: [],
      ...extra,
    }),
  );

describe("Candidates as the release answers them", () => {
  it("says what a reviewer may still do: everything while pending, nothing once decided", () => {
    const sim = fresh();
    const created = propose(sim, "One.").body;
    const open = { can_revise: true, can_approve: true, can_reject: true };
    expect(created.permissions).toEqual(open);
    const target = { scope_id: "s1", candidate_id: created.candidate_id };
    expect(call(sim, "get_candidate", target).body.permissions).toEqual(open);
    const rejected = valid(
      "reject_candidate",
      call(sim, "reject_candidate", { ...target, expected_version: 1, reason: "Duplicate." }),
    );
    const closed = { can_revise: false, can_approve: false, can_reject: false };
    expect(rejected.body.permissions).toEqual(closed);
    // A decision is no new version of the Candidate.
    expect(rejected.body.version).toBe(1);
    expect(call(sim, "get_candidate", target).body.permissions).toEqual(closed);
  });

  it("sends the optional members of the proposal's own schema as null, as the release's models do", () => {
    const sim = fresh();
    expect(propose(sim, "One.").body.proposal).toEqual({ ...experience("One."), failure: null });
    const skill = valid(
      "propose_skill",
      call(sim, "propose_skill", {
        scope_id: "s1",
        proposal: {
          name: "release-checklist",
          description: "Walk through it.",
          instructions: "1. Tag.",
          validation: ["The tag is pushed."],
        },
        source_refs: evidence(sim),
        artifact_refs: [],
      }),
    ).body.proposal;
    expect(skill).toMatchObject({ license: null, compatibility: null, allowed_tools: null, package: null });
    expect(skill).not.toHaveProperty("failure");
  });

  it("refuses evidence naming a held Source under another type, as the review service finds none", () => {
    const sim = fresh();
    const [held] = evidence(sim);
    const propose = (name: string) =>
      call(sim, "propose_experience", {
        scope_id: "s1",
        proposal: experience("Typed."),
        source_refs: [{ name, source_id: held!.source_id }],
        artifact_refs: [],
      });
    expect(propose(held!.name).status).toBe(201);
    const wrong = propose("working_note");
    expect([wrong.status, wrong.body.error?.code, wrong.body.error?.details]).toEqual([422, "invalid_request", null]);
  });

  it("leaves audit out of a proposal's answer unless the client sends X-PowerContext-Dream-Contract: 2; the Candidate routes keep it", () => {
    const sim = fresh();
    const legacy = propose(sim, "One.").body;
    expect(legacy).not.toHaveProperty("audit");
    // The header is no parameter of the operation: sent as the wiring passes every request header.
    const current = sim.handle("propose_experience", {
      token: "pc-admin",
      headers: { "x-powercontext-dream-contract": "2" },
      body: { scope_id: "s1", proposal: experience("Two."), source_refs: evidence(sim), artifact_refs: [] },
    });
    expect("status" in current && current.status).toBe(201);
    expect("body" in current && current.body).toHaveProperty("audit", null);
    const read = call(sim, "get_candidate", { scope_id: "s1", candidate_id: legacy.candidate_id }).body;
    expect(read).toHaveProperty("audit", null);
  });

  it("names the expected and current version of a stale Candidate, and the status of a final one", () => {
    const sim = fresh();
    const created = propose(sim, "One.").body;
    const target = { scope_id: "s1", candidate_id: created.candidate_id };
    const stale = call(sim, "approve_candidate", { ...target, expected_version: 7 });
    expect([stale.status, stale.code, stale.body.error.details]).toEqual([
      409,
      "candidate_conflict",
      { expected_version: 7, current_version: 1 },
    ]);
    valid("reject_candidate", call(sim, "reject_candidate", { ...target, expected_version: 1, reason: "No." }));
    const again = call(sim, "reject_candidate", { ...target, expected_version: 1, reason: "No." });
    expect([again.status, again.code, again.body.error.details]).toEqual([
      409,
      "candidate_terminal",
      { status: "rejected" },
    ]);
  });

  it("pages by the last Candidate id: each cursor is the page's last id, and any text lists the ids after it", () => {
    const sim = fresh();
    const ids = ["A.", "B.", "C."].map((lesson) => propose(sim, lesson).body.candidate_id as string).sort();
    const first = valid("list_candidates", call(sim, "list_candidates", { scope_id: "s1", limit: 2 })).body;
    expect(first.candidates.map((c: { candidate_id: string }) => c.candidate_id)).toEqual(ids.slice(0, 2));
    expect(first.next_cursor).toBe(ids[1]);
    const second = call(sim, "list_candidates", { scope_id: "s1", limit: 2, cursor: first.next_cursor }).body;
    expect([second.candidates.map((c: { candidate_id: string }) => c.candidate_id), second.next_cursor]).toEqual([
      ids.slice(2),
      null,
    ]);
    // Text that is no id the list handed out: the ids after it, here none.
    const after = valid("list_candidates", call(sim, "list_candidates", { scope_id: "s1", cursor: "not-a-cursor" }));
    expect([after.status, after.body.candidates, after.body.next_cursor]).toEqual([200, [], null]);
  });
});
