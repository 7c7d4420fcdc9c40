import { beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator, type PowerContextSimulator } from "../../src/simulator/simulator.js";
import { isReset, type SimRequest } from "../../src/simulator/types.js";
import { TEST_SCOPES } from "../support/scopes.js";
import { evidence } from "../support/evidence.js";
import { installReceipt } from "../support/skill-world.js";

/**
 * The Skill domain of the mock as the 1.4.1 release behaves (measured with the
 * conformance suite): a remote target is null where it was never seen, enrolls
 * once with its code, changes under its generation, and its receiver works
 * with its own credential only; a managed Skill is package-backed, governed
 * under a generation, and delivered to a target through a publication.
 */

let sim: PowerContextSimulator;

function send(operationId: string, body: unknown, token: string | null = "pc-admin"): { status: number; body: any } {
  const outcome = sim.handle(operationId, { token, body } as SimRequest);
  if (isReset(outcome)) throw new Error("unexpected reset");
  return { status: outcome.status, body: outcome.body };
}

const code = (answer: { body: any }) => answer.body?.error?.code;
const SCOPE = "s1";

function newTarget(): { targetId: string; enrollmentCode: string } {
  const created = send("create_remote_skill_target", {
    scope_id: SCOPE,
    agent_kind: "codex",
    display_name: " Laptop ",
  });
  expect(created.status).toBe(201);
  return { targetId: created.body.target.target_id, enrollmentCode: created.body.enrollment_code };
}

function enroll(enrollmentCode: string, installation = "install-1") {
  return send(
    "enroll_remote_skill_target",
    { enrollment_code: enrollmentCode, installation_id: installation, receiver_version: "1.4.1" },
    null,
  );
}

/** A Skill approved from a proposal, as its Artifact reference. */
function approvedSkill(): { family: string; artifact_id: string; revision: number } {
  const proposal = {
    name: "release-checklist",
    description: "Check the release.",
    instructions: "1. Tag it.",
    validation: ["The tag exists."],
  };
  const proposed = send("propose_skill", {
    scope_id: SCOPE,
    proposal,
    source_refs: evidence(sim, SCOPE),
    artifact_refs: [],
  });
  expect(proposed.status).toBe(201);
  const approved = send("approve_candidate", {
    scope_id: SCOPE,
    candidate_id: proposed.body.candidate_id,
    expected_version: proposed.body.version,
  });
  expect(approved.status).toBe(200);
  return approved.body.result_artifact;
}

beforeEach(() => {
  sim = createPowerContextSimulator({ scopes: TEST_SCOPES, clock: new ManualClock(), seed: 5 });
});

describe("remote Skill targets", () => {
  it("are created pending, with null members until the receiver is seen, and a one-time enrollment code", () => {
    const created = send("create_remote_skill_target", {
      scope_id: SCOPE,
      agent_kind: "claude_code",
      display_name: " Laptop ",
    });
    expect(created.body.target).toMatchObject({
      display_name: "Laptop",
      state: "pending",
      generation: 0,
      installation_id: null,
      receiver_version: null,
      environment_fingerprint: null,
      machine_hostname: null,
      workspace_name: null,
      last_seen_at: null,
    });
    expect(created.body.target.target_id).toMatch(/^claude-code-[0-9a-f]{12}$/);
    expect(created.body.enrollment_code).toMatch(/^pce_[A-Za-z0-9_-]{43}$/);
    const listed = send("list_remote_skill_targets", { scope_id: SCOPE });
    expect(listed.body.targets).toEqual([{ target: created.body.target, publications: [] }]);
  });

  it("enroll once: the code gives a credential and activates the target; a used or unknown code is 409 invalid_enrollment", () => {
    const { targetId, enrollmentCode } = newTarget();
    const enrolled = enroll(enrollmentCode);
    expect(enrolled.status).toBe(200);
    expect(enrolled.body).toMatchObject({ scope_id: SCOPE, target_id: targetId, agent_kind: "codex" });
    expect(enrolled.body.credential).toMatch(/^pct_installation-[0-9a-f]{32}\./);
    const target = send("list_remote_skill_targets", { scope_id: SCOPE }).body.targets[0].target;
    expect(target).toMatchObject({
      state: "active",
      installation_id: "install-1",
      receiver_version: "1.4.1",
      generation: 1,
    });
    expect(target.last_seen_at).toEqual(expect.any(String));
    expect(code(enroll(enrollmentCode, "install-2"))).toBe("invalid_enrollment");
    expect(enroll(`pce_${"x".repeat(43)}`).status).toBe(409);
    // An installation another target holds cannot enroll again.
    expect(code(enroll(newTarget().enrollmentCode, "install-1"))).toBe("invalid_enrollment");
  });

  it("change only under their current generation: a stale or unknown one is 409 invalid_target_state", () => {
    const { targetId } = newTarget();
    const rename = (expected: number) =>
      send("rename_remote_skill_target", {
        scope_id: SCOPE,
        target_id: targetId,
        display_name: "Desk",
        expected_generation: expected,
      });
    expect(code(rename(7))).toBe("invalid_target_state");
    expect(rename(0).body).toMatchObject({ display_name: "Desk", generation: 1 });
    expect(rename(1).body.generation).toBe(1);
    const revoke = (target_id: string, expected: number) =>
      send("revoke_remote_skill_target", { scope_id: SCOPE, target_id, expected_generation: expected });
    expect(revoke("codex-000000000000", 0).status).toBe(409);
    expect(revoke(targetId, 1).body).toMatchObject({ state: "revoked", generation: 2, last_seen_at: null });
  });

  it("reconcile only with the target credential: the administrator's token, a bad one or none is 401 invalid_target_credential", () => {
    const { targetId, enrollmentCode } = newTarget();
    const credential = enroll(enrollmentCode).body.credential;
    const reconcile = (token: string | null) =>
      send("reconcile_remote_skills", { observations: [], receiver_version: "1.4.2" }, token);
    for (const token of ["pc-admin", "garbage", null]) {
      expect(reconcile(token).status).toBe(401);
      expect(code(reconcile(token))).toBe("invalid_target_credential");
    }
    expect(reconcile(credential)).toEqual({ status: 200, body: { scope_id: SCOPE, target_id: targetId, actions: [] } });
    send("revoke_remote_skill_target", { scope_id: SCOPE, target_id: targetId, expected_generation: 1 });
    expect(code(reconcile(credential))).toBe("invalid_target_credential");
  });
});

describe("a managed Skill delivered to a remote target", () => {
  it("is published, reconciled into an install, downloaded exactly, and confirmed by a receipt", () => {
    const skill = approvedSkill();
    const { targetId, enrollmentCode } = newTarget();
    const credential = enroll(enrollmentCode).body.credential;
    const published = send("publish_remote_skill", {
      scope_id: SCOPE,
      target_id: targetId,
      artifact: skill,
      expected_generation: null,
    });
    expect(published.body).toMatchObject({
      artifact_id: skill.artifact_id,
      desired_state: "published",
      state: "pending",
      generation: 0,
      observed_revision: null,
      observed_tree_digest: null,
      observed_generation: null,
      observed_at: null,
      last_error_code: null,
    });
    const again = { scope_id: SCOPE, target_id: targetId, artifact: skill, expected_generation: 3 };
    expect(code(send("publish_remote_skill", again))).toBe("publication_generation_conflict");

    const plan = send("reconcile_remote_skills", { observations: [], receiver_version: "1.4.1" }, credential).body;
    expect(plan.actions).toHaveLength(1);
    const action = plan.actions[0];
    expect(action).toMatchObject({
      operation: "install",
      generation: 0,
      artifact: skill,
      skill_name: "release-checklist",
    });
    expect(action.tree_digest).toBe(published.body.desired_tree_digest);

    const download = (generation: number) =>
      send("download_remote_skill_package", { generation, artifact: skill, package: action.package }, credential);
    expect(download(0).body.package).toEqual(action.package);
    expect(code(download(1))).toBe("invalid_target_credential");

    const receipt = installReceipt(skill, action.tree_digest);
    const recorded = send("record_remote_skill_receipt", receipt, credential).body;
    expect(recorded).toMatchObject({ accepted: true, stale: false });
    expect(recorded.publication).toMatchObject({ state: "current", observed_generation: 0, observed_revision: 1 });
    const observation = {
      artifact: skill,
      tree_digest: action.tree_digest,
      actual_tree_digest: action.tree_digest,
      skill_name: "release-checklist",
      applied_generation: 0,
    };
    const settled = send(
      "reconcile_remote_skills",
      { observations: [observation], receiver_version: "1.4.1" },
      credential,
    );
    expect(settled.body.actions).toEqual([]);

    const unpublished = send("unpublish_remote_skill", {
      scope_id: SCOPE,
      target_id: targetId,
      artifact_id: skill.artifact_id,
      expected_generation: 0,
    });
    expect(unpublished.body).toMatchObject({ desired_state: "unpublished", generation: 1, last_error_code: null });
    expect(send("record_remote_skill_receipt", receipt, credential).body).toMatchObject({
      accepted: false,
      stale: true,
    });
  });

  it("is read, listed and packaged as the release stores it, and changes lifecycle under its governance generation", () => {
    const skill = approvedSkill();
    const read = send("get_skill", { scope_id: SCOPE, artifact: skill }).body;
    expect(read.artifact).toEqual(skill);
    expect(read.content).toMatchObject({ name: "release-checklist", metadata: {}, license: null, allowed_tools: null });
    expect(read.content.package).toMatchObject({ file_count: 1, tree_digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const listed = send("list_managed_skills", { scope_id: SCOPE }).body.skills;
    expect(listed).toHaveLength(1);
    expect(listed[0].governance).toEqual({
      artifact: skill,
      lifecycle_state: "active",
      replacement_artifact_id: null,
      governance_generation: 0,
    });
    const manifest = send("get_skill_package_manifest", { scope_id: SCOPE, artifact: skill }).body;
    expect(manifest.files).toEqual([
      expect.objectContaining({ path: "SKILL.md", media_type: "text/markdown", executable: false }),
    ]);
    const archive = Buffer.from(
      send("download_skill_package", { scope_id: SCOPE, artifact: skill }).body.archive_base64,
      "base64",
    );
    expect(archive.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    expect(archive.length).toBe(read.content.package.archive_size);
    expect(archive.toString("latin1")).toContain("name: release-checklist");

    const lifecycle = (artifact_id: string, expected: number) =>
      send("update_skill_lifecycle", {
        scope_id: SCOPE,
        artifact_id,
        expected_generation: expected,
        lifecycle_state: "deprecated",
      });
    expect(code(lifecycle(skill.artifact_id, 99))).toBe("generation_conflict");
    expect(lifecycle(skill.artifact_id, 0).body).toMatchObject({
      lifecycle_state: "deprecated",
      governance_generation: 1,
    });
    expect(send("list_managed_skills", { scope_id: SCOPE }).body.skills).toEqual([]);
    expect(send("list_managed_skills", { scope_id: SCOPE, include_deprecated: true }).body.skills).toHaveLength(1);
    // The release's access layer finds no Skill to authorize: 403, before any generation check.
    expect(lifecycle("art_unknown", 0)).toMatchObject({ status: 403, body: { error: { code: "forbidden" } } });
  });

  it("lists a target's publications by Artifact id, whatever order they were made in", () => {
    const first = approvedSkill();
    const second = approvedSkill();
    const { targetId, enrollmentCode } = newTarget();
    enroll(enrollmentCode);
    const [later, earlier] = [first, second].sort((a, b) => b.artifact_id.localeCompare(a.artifact_id));
    for (const artifact of [later, earlier])
      send("publish_remote_skill", { scope_id: SCOPE, target_id: targetId, artifact, expected_generation: null });
    const listed = send("list_remote_skill_targets", { scope_id: SCOPE, target_id: targetId }).body.targets[0];
    expect(listed.publications.map((p: { artifact_id: string }) => p.artifact_id)).toEqual([
      earlier!.artifact_id,
      later!.artifact_id,
    ]);
  });

  it("records a usage as a Source of type skill-usage for the exact package; an unknown revision or another package is refused", () => {
    const skill = approvedSkill();
    const tree = send("get_skill", { scope_id: SCOPE, artifact: skill }).body.content.package.tree_digest;
    const usage = (skill_ref: unknown, package_digest: string, observation_id = "use-1") =>
      send("record_skill_usage", {
        scope_id: SCOPE,
        observation_id,
        skill_ref,
        package_digest,
        target_id: "laptop",
        selected: true,
        invoked: "true",
        validation: "passed",
        outcome: "success",
      });
    const first = usage(skill, `sha256:${tree}`);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ status: "accepted", source: { name: "skill-usage", source_id: "use-1" } });
    expect(usage(skill, `sha256:${tree}`).body.position).toBe(first.body.position);
    expect(usage(skill, `sha256:${"0".repeat(64)}`, "use-2")).toMatchObject({
      status: 422,
      body: { error: { code: "invalid_request" } },
    });
    const unknown = { ...skill, artifact_id: "art_unknown" };
    expect(code(usage(unknown, `sha256:${tree}`, "use-3"))).toBe("not_found");
    expect(code(send("get_skill_package_manifest", { scope_id: SCOPE, artifact: unknown }))).toBe("not_found");
    expect(code(send("get_skill", { scope_id: SCOPE, artifact: unknown }))).toBe("artifact_not_found");
  });
});

describe("a receiver's request is checked before its credential", () => {
  beforeEach(() => {
    sim = createPowerContextSimulator({ scopes: TEST_SCOPES, clock: new ManualClock(), seed: 5 });
  });
  const artifact = { family: "skill", artifact_id: "art_x", revision: 1 };
  const digest = "a".repeat(64);

  it("refuses two observations of one Skill with 409 invalid_target_state, whatever the credential", () => {
    const observation = {
      artifact,
      tree_digest: digest,
      actual_tree_digest: null,
      skill_name: "one",
      applied_generation: 1,
    };
    const answer = send(
      "reconcile_remote_skills",
      {
        observations: [observation, { ...observation, skill_name: "two" }],
        receiver_version: "1.4.1",
        environment_fingerprint: null,
      },
      "not-a-credential",
    );
    expect([answer.status, code(answer)]).toEqual([409, "invalid_target_state"]);
  });

  it("refuses a successful receipt with failure details, and a failed one without them, with 422 invalid_request", () => {
    const receipt = {
      operation: "unpublish",
      generation: 1,
      artifact,
      expected_tree_digest: digest,
      observed_tree_digest: null,
      outcome: "succeeded",
      failure_state: null,
      error_code: null,
      receiver_version: "1.4.1",
      environment_fingerprint: null,
    };
    const refused = (body: object) => {
      const answer = send("record_remote_skill_receipt", body, "not-a-credential");
      return [answer.status, code(answer), answer.body?.error?.details ?? null];
    };
    expect(refused({ ...receipt, failure_state: "conflict" })).toEqual([422, "invalid_request", null]);
    expect(refused({ ...receipt, error_code: "e" })).toEqual([422, "invalid_request", null]);
    expect(refused({ ...receipt, outcome: "failed", error_code: "e" })).toEqual([422, "invalid_request", null]);
    expect(refused(receipt)[1]).toBe("invalid_target_credential");
  });
});
