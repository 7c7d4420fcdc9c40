import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator, type PowerContextSimulator } from "../../src/simulator/simulator.js";
import { contractProblems } from "../support/contract.js";
import { call, type Reply } from "../support/flat-call.js";
import { evidence } from "../support/evidence.js";

/**
 * Candidates, Access Bindings and Dream runs kept by the resource engine from
 * their contract facts, as the released server answers them (measured by the
 * conformance suite): unknown ids are 404 with the family's code, a stale
 * expected_version is 409, a decided Candidate is final, lists page over what
 * is stored and end, and an approval publishes the proposal.
 */
function fresh(): PowerContextSimulator {
  return createPowerContextSimulator({ seed: 5, clock: new ManualClock(), scopes: ["s1"] });
}

function valid(operationId: Parameters<typeof call>[1], reply: Reply): Reply {
  expect(contractProblems(operationId, reply.status, { ...reply.headers }, reply.body), operationId).toEqual([]);
  return reply;
}

const proposal = (lesson: string) => ({
  situation: "A backup failed silently.",
  action: "Added an alert.",
  outcome: "Failures page on-call.",
  lesson,
});
const propose = (sim: PowerContextSimulator, lesson: string) =>
  valid(
    "propose_experience",
    call(sim, "propose_experience", {
      scope_id: "s1",
      proposal: proposal(lesson),
      source_refs: evidence(sim),
      artifact_refs: [],
    }),
  );

describe("resource engine: Candidates", () => {
  it("reads, lists to the end and refuses unknown ids and stale versions with the release's codes", () => {
    const sim = fresh();
    const first = propose(sim, "One.");
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      status: "pending",
      family: "experience",
      version: 1,
      result_artifact: null,
      decision_reason: null,
    });
    propose(sim, "Two.");
    // The release leaves audit out of the proposal's answer, not out of the Candidate's own route.
    const { audit, ...read } = valid(
      "get_candidate",
      call(sim, "get_candidate", { scope_id: "s1", candidate_id: first.body.candidate_id }),
    ).body;
    expect([audit, read]).toEqual([null, first.body]);
    const unknown = call(sim, "get_candidate", { scope_id: "s1", candidate_id: "cand_00000000000000000000000000" });
    expect([unknown.status, unknown.code]).toEqual([404, "candidate_not_found"]);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Reply = valid(
        "list_candidates",
        call(sim, "list_candidates", { scope_id: "s1", limit: 1, ...(cursor === null ? {} : { cursor }) }),
      );
      seen.push(...page.body.candidates.map((c: { candidate_id: string }) => c.candidate_id));
      cursor = page.body.next_cursor;
      // The release's list_candidates takes cursors of at most 128 characters.
      if (cursor !== null) expect(cursor.length).toBeLessThanOrEqual(128);
    } while (cursor !== null && seen.length < 10);
    expect(seen).toHaveLength(2);

    const stale = call(sim, "revise_candidate", {
      scope_id: "s1",
      candidate_id: first.body.candidate_id,
      expected_version: 9,
      proposal: proposal("Stale."),
    });
    expect([stale.status, stale.code]).toEqual([409, "candidate_conflict"]);
  });

  it("makes a decided Candidate final: another decision is 409 candidate_terminal, whatever its version", () => {
    const sim = fresh();
    const candidate = propose(sim, "One.").body;
    const target = { scope_id: "s1", candidate_id: candidate.candidate_id, expected_version: 1 };
    const rejected = valid(
      "reject_candidate",
      call(sim, "reject_candidate", { ...target, reason: "Duplicate lesson." }),
    );
    // A decision is no new version of the Candidate, as on the release.
    expect(rejected.body).toMatchObject({ status: "rejected", decision_reason: "Duplicate lesson.", version: 1 });
    for (const again of [
      call(sim, "reject_candidate", { ...target, reason: "Again." }),
      call(sim, "approve_candidate", { ...target, expected_version: 1 }),
    ]) {
      expect([again.status, again.code]).toEqual([409, "candidate_terminal"]);
    }
    // Rejected Candidates leave the default (pending) list.
    expect(call(sim, "list_candidates", { scope_id: "s1" }).body.candidates).toEqual([]);
  });

  it("publishes the proposal of an approved Candidate as an Artifact of its family and names it in result_artifact", () => {
    const sim = fresh();
    const candidate = propose(sim, "Alert on every failed backup.").body;
    const approved = valid(
      "approve_candidate",
      call(sim, "approve_candidate", { scope_id: "s1", candidate_id: candidate.candidate_id, expected_version: 1 }),
    );
    expect(approved.body).toMatchObject({
      status: "approved",
      version: 1,
      result_artifact: { family: "experience", revision: 1 },
    });
    const published = call(sim, "get_artifact", { scope_id: "s1", ...approved.body.result_artifact });
    expect(published.status).toBe(200);
    expect(published.body.content).toEqual(proposal("Alert on every failed backup."));
  });
});

describe("resource engine: Access Bindings and Dream runs", () => {
  const binding = {
    subject: { type: "user", id: "u-1" },
    resource: { type: "scope", scope_id: "s1" },
    role: "scope.viewer",
    idempotency_key: "b-1",
  };

  it("keeps the members of a discriminated union (subject, resource) and refuses a reused key and a stale or unknown binding", () => {
    const sim = fresh();
    const created = valid("create_access_binding", call(sim, "create_access_binding", binding));
    expect(created.body).toMatchObject({
      subject: { type: "user", id: "u-1", description: null },
      resource: { type: "scope", scope_id: "s1" },
      state: "active",
      version: 1,
    });
    expect(call(sim, "create_access_binding", binding).body).toEqual(created.body);
    const reused = call(sim, "create_access_binding", { ...binding, role: "scope.admin" });
    expect([reused.status, reused.code]).toEqual([409, "idempotency-key"]);
    const listed = valid(
      "list_access_bindings",
      call(sim, "list_access_bindings", { management_resource: { type: "scope", scope_id: "s1" } }),
    );
    // Beside the administrator's preset bindings on the Scope (access-ledger.test.ts).
    const requested = listed.body.items.filter((b: { reason: string | null }) => b.reason === null);
    expect([requested, listed.body.next_cursor]).toEqual([[created.body], null]);

    const revoke = { binding_id: created.body.binding_id, idempotency_key: "r-1" };
    const stale = call(sim, "revoke_access_binding", { ...revoke, expected_version: 2 });
    expect([stale.status, stale.code]).toEqual([409, "binding-version"]);
    expect(
      valid("revoke_access_binding", call(sim, "revoke_access_binding", { ...revoke, expected_version: 1 })).body,
    ).toMatchObject({ state: "revoked", version: 2 });
    const unknown = call(sim, "revoke_access_binding", {
      ...revoke,
      binding_id: "bind_00000000000000000000000000",
      expected_version: 1,
    });
    expect([unknown.status, unknown.code]).toEqual([404, "access_binding_not_found"]);
  });

  it("answers a repeated revoke by its idempotency key with the first answer (replace keeps keys the same way), and refuses the key with another request", () => {
    const sim = fresh();
    const created = valid("create_access_binding", call(sim, "create_access_binding", binding));
    const revoke = { binding_id: created.body.binding_id, idempotency_key: "r-1", expected_version: 1 };
    const first = valid("revoke_access_binding", call(sim, "revoke_access_binding", revoke));
    expect(first.body).toMatchObject({ state: "revoked", version: 2 });
    // The answer was lost and the client sends the same request again: the version is 2 by now.
    const again = valid("revoke_access_binding", call(sim, "revoke_access_binding", revoke));
    expect([again.status, again.body]).toEqual([first.status, first.body]);
    const other = call(sim, "revoke_access_binding", { ...revoke, expected_version: 2 });
    expect([other.status, other.code]).toEqual([409, "idempotency-key"]);
  });

  it("lists the Scopes the caller may read as Access resources, paged to the end: the static bearer's are those it used", () => {
    const sim = createPowerContextSimulator({ seed: 5, clock: new ManualClock(), scopes: ["s1", "s2"] });
    // As on the release, the static bearer's preset is written on a Scope it uses, not on every Scope the server has.
    call(sim, "get_scope", { scope_id: "s1" });
    call(sim, "get_scope", { scope_id: "scp_elsewhere" });
    const seen: unknown[] = [];
    let cursor: string | null = null;
    do {
      const page: Reply = valid(
        "list_access_resources",
        call(sim, "list_access_resources", {
          action: "scope.read",
          resource_type: "scope",
          limit: 1,
          ...(cursor === null ? {} : { cursor }),
        }),
      );
      expect(page.body.total).toBe(2);
      seen.push(...page.body.items);
      cursor = page.body.next_cursor;
    } while (cursor !== null && seen.length < 10);
    expect(seen).toEqual([
      { type: "scope", scope_id: "s1" },
      { type: "scope", scope_id: "scp_elsewhere" },
    ]);
    expect(
      call(sim, "list_access_resources", { action: "server.observe", resource_type: "server" }).body.items,
    ).toEqual([{ type: "server", deployment_id: "powercontext" }]);
    expect(call(sim, "list_access_resources", { action: "scope.read", resource_type: "server" }).status).toBe(422);
  });

  it("stores a Dream run for its key, reads and lists it, and answers 404 dream_not_found for an unknown run", () => {
    const sim = fresh();
    const run = call(sim, "create_dream_run", {
      scope_id: "s1",
      operation: "refine_experience",
      artifacts: [{ family: "experience", artifact_id: "art_x", revision: 1 }],
      idempotency_key: "d-1",
    });
    expect(run.body).toMatchObject({ scope_id: "s1", operation: "refine_experience", status: "queued" });
    expect(
      valid("get_dream_run", call(sim, "get_dream_run", { scope_id: "s1", run_id: run.body.run_id })).body,
    ).toEqual(run.body);
    expect(valid("list_dream_runs", call(sim, "list_dream_runs", { scope_id: "s1" })).body).toEqual({
      runs: [run.body],
      next_cursor: null,
    });
    const unknown = call(sim, "get_dream_run", { scope_id: "s1", run_id: "dream_unknown" });
    expect([unknown.status, unknown.code]).toEqual([404, "dream_not_found"]);
  });
});

describe("resource engine: the Profile policy", () => {
  it("has none until the first put with expected_version 0, then versions it; a stale put is 409 idempotency_conflict", () => {
    const sim = fresh();
    const missing = call(sim, "get_profile_policy", { scope_id: "s1" });
    expect([missing.status, missing.code]).toEqual([404, "profile_policy_not_found"]);
    const first = valid(
      "put_profile_policy",
      call(sim, "put_profile_policy", { scope_id: "s1", generation_enabled: true, expected_version: 0 }),
    );
    expect(first.body).toMatchObject({
      scope_id: "s1",
      generation_enabled: true,
      activation_mode: "automatic",
      pending_candidate_id: null,
      version: 1,
    });
    const stale = call(sim, "put_profile_policy", { scope_id: "s1", generation_enabled: false, expected_version: 0 });
    expect([stale.status, stale.code, stale.body.error.details]).toEqual([
      409,
      "idempotency_conflict",
      { kind: "profile_policy" },
    ]);
    expect(
      valid(
        "put_profile_policy",
        call(sim, "put_profile_policy", { scope_id: "s1", generation_enabled: false, expected_version: 1 }),
      ).body.version,
    ).toBe(2);
    expect(valid("get_profile_policy", call(sim, "get_profile_policy", { scope_id: "s1" })).body).toMatchObject({
      generation_enabled: false,
      version: 2,
    });
    // Read without a Scope lookup, as the release reads it; a put looks the Scope up first.
    expect(call(sim, "get_profile_policy", { scope_id: "nowhere" }).code).toBe("profile_policy_not_found");
    expect(
      call(sim, "put_profile_policy", { scope_id: "nowhere", generation_enabled: true, expected_version: 0 }).code,
    ).toBe("scope_not_found");
  });
});
