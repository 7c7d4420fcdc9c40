import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator, type PowerContextSimulator } from "../../src/simulator/simulator.js";
import { contractProblems } from "../support/contract.js";
import { call, type Reply } from "../support/flat-call.js";

/**
 * Rows the release answers from facts of its families: the Profile Artifact is a
 * singleton named `profile` (a second creation is 409 idempotency_conflict), so is
 * the Handoff, named `handoff` (409 artifact_already_exists, pointing to replace), a
 * legacy Memory entry target is unknown on a server that never migrated one (404
 * not_found), and a bootstrap package of a Scope without curated context is the
 * empty one, whose skipped receipt is no delivery to report (422 invalid_request).
 */
function fresh(): PowerContextSimulator {
  return createPowerContextSimulator({ seed: 7, clock: new ManualClock(), scopes: ["s1"] });
}

function valid(operationId: Parameters<typeof call>[1], reply: Reply): Reply {
  expect(contractProblems(operationId, reply.status, { ...reply.headers }, reply.body), operationId).toEqual([]);
  return reply;
}

const profile = { content: "Prefers short answers." };

describe("singleton families and receipts", () => {
  it("names the Profile Artifact profile and refuses a second one with 409 idempotency_conflict", () => {
    const sim = fresh();
    const first = valid(
      "create_artifact",
      call(sim, "create_artifact", { scope_id: "s1", family: "profile", content: profile }),
    );
    expect([first.status, first.body.artifact_id]).toEqual([201, "profile"]);
    const again = call(sim, "create_artifact", {
      scope_id: "s1",
      family: "profile",
      content: { content: "Prefers long answers." },
    });
    expect([again.status, again.code, again.body.error.details]).toEqual([
      409,
      "idempotency_conflict",
      { kind: "artifact" },
    ]);
    const read = call(sim, "get_artifact", { scope_id: "s1", family: "profile", artifact_id: "profile" });
    expect([read.status, read.body.revision]).toEqual([200, 1]);
    const other = call(sim, "create_artifact", {
      scope_id: "s1",
      family: "atomic-memory",
      content: { kind: "fact", text: "Backups run nightly." },
    });
    expect(other.body.artifact_id).toMatch(/^art_[0-9a-f]{32}$/);
  });

  it("names a created Handoff handoff, the one the Handoff operations read, and refuses a second with 409 artifact_already_exists", () => {
    const sim = fresh();
    const cited = call(sim, "create_artifact", {
      scope_id: "s1",
      family: "atomic-memory",
      content: { kind: "fact", text: "Backups run nightly." },
    });
    const handoff = (objective: string) => ({
      schema: "powercontext.handoff.v1",
      objective,
      state: [
        {
          text: "Backups are configured.",
          citations: [
            {
              kind: "artifact",
              artifact_ref: { family: "atomic-memory", artifact_id: cited.body.artifact_id, revision: 1 },
            },
          ],
        },
      ],
      disposition: "continuable",
      next_action: null,
      omissions: [],
    });
    const first = valid(
      "create_artifact",
      call(sim, "create_artifact", { scope_id: "s1", family: "handoff", content: handoff("Check the backups.") }),
    );
    expect([first.status, first.body.artifact_id, first.body.revision]).toEqual([201, "handoff", 1]);
    // Its lineage cites what its content cites.
    expect(first.body.artifacts).toEqual([
      { family: "atomic-memory", artifact_id: cited.body.artifact_id, revision: 1 },
    ]);
    const again = call(sim, "create_artifact", {
      scope_id: "s1",
      family: "handoff",
      content: handoff("Check the restores."),
    });
    expect([again.status, again.code, again.body.error.details]).toEqual([
      409,
      "artifact_already_exists",
      { family: "handoff", artifact_id: "handoff", use_replace: true },
    ]);
    const read = call(sim, "get_artifact", { scope_id: "s1", family: "handoff", artifact_id: "handoff" });
    expect([read.status, read.body.content.objective]).toEqual([200, "Check the backups."]);
  });

  it("creates no Handoff whose evidence the Scope does not hold: 404 handoff_evidence_not_found", () => {
    const sim = createPowerContextSimulator({ seed: 7, clock: new ManualClock(), scopes: ["s1", "s2"] });
    call(sim, "capture_content_source", { scope_id: "s1", source_id: "note-1", content: "Backups run nightly." });
    const content = {
      schema: "powercontext.handoff.v1",
      objective: "Check the backups.",
      state: [
        {
          text: "Backups run nightly.",
          citations: [{ kind: "source", source_ref: { name: "content", source_id: "note-1" } }],
        },
      ],
      disposition: "continuable",
      next_action: null,
      omissions: [],
    };
    const elsewhere = call(sim, "create_artifact", { scope_id: "s2", family: "handoff", content });
    expect([elsewhere.status, elsewhere.code]).toEqual([404, "handoff_evidence_not_found"]);
    expect(call(sim, "get_artifact", { scope_id: "s2", family: "handoff", artifact_id: "handoff" }).status).toBe(404);
    const held = valid("create_artifact", call(sim, "create_artifact", { scope_id: "s1", family: "handoff", content }));
    expect(held.body.sources.slice(1)).toEqual([{ source_type: "content", source_id: "note-1" }]);
  });

  it("answers 404 not_found for a legacy Memory entry target", () => {
    const sim = fresh();
    const target = { type: "memory_entry", family: "memory", artifact_id: "art_1", entry_id: "art_1" };
    const missing = call(sim, "get_memory_entry", { scope_id: "s1", target });
    expect([missing.status, missing.code, missing.body.error.details]).toEqual([404, "not_found", null]);
    const unknownScope = call(sim, "get_memory_entry", { scope_id: "nope", target });
    expect([unknownScope.status, unknownScope.code]).toEqual([404, "scope_not_found"]);
  });

  it("prepares the empty bootstrap package, refuses to record an injection of its skipped receipt or any delivery of an unknown one, and keeps the receipt for a late failure", () => {
    const sim = fresh();
    const prepared = valid(
      "prepare_bootstrap_context",
      call(sim, "prepare_bootstrap_context", {
        scope_id: "s1",
        lifecycle: "startup",
        integration: "ci",
        enabled: true,
      }),
    );
    expect(prepared.body).toMatchObject({
      status: "empty",
      reason: "no_eligible_context",
      content: null,
      content_bytes: 0,
      package_digest: null,
      items: [],
      truncated: false,
      receipt: { state: "skipped" },
    });
    expect(prepared.body.receipt.receipt_id).toMatch(/^bcr_[0-9a-f]{32}$/);
    for (const receipt_id of [prepared.body.receipt.receipt_id, "bcr_never_issued"]) {
      const refused = call(sim, "record_bootstrap_delivery", { scope_id: "s1", receipt_id, outcome: "injected" });
      expect([refused.status, refused.code]).toEqual([422, "invalid_request"]);
    }
    // The empty package's skipped receipt is no stored delivery: a late failure is refused too
    // (a failure reported for an injected one would leave it as it is).
    const receipt_id = prepared.body.receipt.receipt_id;
    for (const id of [receipt_id, "bcr_never_issued"]) {
      const refused = call(sim, "record_bootstrap_delivery", { scope_id: "s1", receipt_id: id, outcome: "failed" });
      expect([refused.status, refused.code]).toEqual([422, "invalid_request"]);
    }
  });

  it("skips a bootstrap package the request leaves disabled (enabled false or left out) as disabled", () => {
    const sim = fresh();
    const base = { scope_id: "s1", lifecycle: "startup", integration: "ci" };
    for (const body of [base, { ...base, enabled: false }]) {
      const skipped = valid("prepare_bootstrap_context", call(sim, "prepare_bootstrap_context", body));
      expect(skipped.body).toMatchObject({
        status: "skipped",
        reason: "disabled",
        content: null,
        receipt: { state: "skipped" },
      });
    }
    const enabled = call(sim, "prepare_bootstrap_context", { ...base, enabled: true });
    expect(enabled.body).toMatchObject({ status: "empty", reason: "no_eligible_context" });
  });
});
