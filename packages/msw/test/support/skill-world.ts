import type { PowerContextSimulator } from "../../src/simulator/simulator.js";
import { isReset, type SimRequest } from "../../src/simulator/types.js";
import { evidence } from "./evidence.js";

/**
 * Well-formed requests for the Skill operations that need records first: a
 * managed Skill approved in `s1`, an enrolled remote target with its credential,
 * and a publication of the Skill to it, set up in `sim` on demand.
 */

const s1 = { scope_id: "s1" };

function call(sim: PowerContextSimulator, operationId: string, body: unknown, token: string | null = "pc-admin"): any {
  const outcome = sim.handle(operationId, { token, body });
  if (isReset(outcome) || outcome.status >= 300) throw new Error(`${operationId} failed in the Skill world`);
  return outcome.body;
}

function skill(sim: PowerContextSimulator): { family: string; artifact_id: string; revision: number } {
  const proposal = { name: "world-skill", description: "A Skill.", instructions: "Do it.", validation: ["Done."] };
  const proposed = call(sim, "propose_skill", { ...s1, proposal, source_refs: evidence(sim), artifact_refs: [] });
  const approved = call(sim, "approve_candidate", { ...s1, candidate_id: proposed.candidate_id, expected_version: 1 });
  return approved.result_artifact;
}

function target(sim: PowerContextSimulator, installation: string): { targetId: string; credential: string } {
  const created = call(sim, "create_remote_skill_target", { ...s1, agent_kind: "codex", display_name: "World" });
  const enrollment = {
    enrollment_code: created.enrollment_code,
    installation_id: installation,
    receiver_version: "1.4.1",
  };
  return {
    targetId: created.target.target_id,
    credential: call(sim, "enroll_remote_skill_target", enrollment, null).credential,
  };
}

/** A request of `operationId` that succeeds against `sim`, or undefined for an operation this world does not serve. */
export function skillRequest(operationId: string, sim: PowerContextSimulator): SimRequest | undefined {
  switch (operationId) {
    case "enroll_remote_skill_target": {
      const created = call(sim, "create_remote_skill_target", { ...s1, agent_kind: "codex", display_name: "New" });
      const body = { enrollment_code: created.enrollment_code, installation_id: "fresh", receiver_version: "1.4.1" };
      return { token: null, body };
    }
    case "rename_remote_skill_target":
    case "revoke_remote_skill_target": {
      const { targetId } = target(sim, operationId);
      const change = { ...s1, target_id: targetId, expected_generation: 1 };
      return { body: operationId === "revoke_remote_skill_target" ? change : { ...change, display_name: "Renamed" } };
    }
    case "record_skill_usage": {
      const artifact = skill(sim);
      const digest = call(sim, "get_skill", { ...s1, artifact }).content.package.tree_digest;
      const usage = { selected: true, invoked: "true", validation: "passed", outcome: "success", target_id: "host" };
      return {
        body: { ...s1, observation_id: "use-1", skill_ref: artifact, package_digest: `sha256:${digest}`, ...usage },
      };
    }
    case "update_skill_lifecycle": {
      const { artifact_id } = skill(sim);
      return { body: { ...s1, artifact_id, expected_generation: 0, lifecycle_state: "deprecated" } };
    }
    case "reconcile_remote_skills":
    case "download_remote_skill_package":
    case "record_remote_skill_receipt":
    case "unpublish_remote_skill": {
      const artifact = skill(sim);
      const { targetId, credential } = target(sim, operationId);
      call(sim, "publish_remote_skill", { ...s1, target_id: targetId, artifact, expected_generation: null });
      // Reconciling first is set-up here, so it must not spend a fault meant for the request itself.
      if (operationId === "reconcile_remote_skills")
        return { token: credential, body: { observations: [], receiver_version: "1.4.1" } };
      const plan = call(sim, "reconcile_remote_skills", { observations: [], receiver_version: "1.4.1" }, credential);
      const action = plan.actions[0];
      if (operationId === "download_remote_skill_package")
        return { token: credential, body: { generation: 0, artifact, package: action.package } };
      if (operationId === "unpublish_remote_skill")
        return { body: { ...s1, target_id: targetId, artifact_id: artifact.artifact_id, expected_generation: 0 } };
      return { token: credential, body: installReceipt(artifact, action.tree_digest) };
    }
    default:
      return undefined;
  }
}

/** A receiver's receipt of a successful install of `artifact` at publication generation 0. */
export function installReceipt(artifact: unknown, treeDigest: unknown): Record<string, unknown> {
  return {
    operation: "install",
    generation: 0,
    artifact,
    expected_tree_digest: treeDigest,
    observed_tree_digest: treeDigest,
    outcome: "succeeded",
    failure_state: null,
    error_code: null,
    receiver_version: "1.4.1",
    environment_fingerprint: null,
  };
}
