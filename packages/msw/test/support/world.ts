import { TEST_SCOPES } from "./scopes.js";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator, type PowerContextSimulator } from "../../src/simulator/simulator.js";
import { isReset, type SimOutcome, type SimRequest, type SimResponse } from "../../src/simulator/types.js";
import { simOperations, type SimOperationId } from "../../src/simulator/contract/operation-table.js";
import { sampledRequest } from "./requests.js";
import { skillRequest } from "./skill-world.js";

/** A simulator brought into a state where every operation has something real to act on. */
export interface World {
  readonly sim: PowerContextSimulator;
  readonly clock: ManualClock;
  readonly operationId: string;
  readonly blockId: string;
  /** The id of the default Scope. */
  readonly defaultScopeId: string;
  /** Members that name stored records of `s1` (an Artifact at revision 1, its handle, a Source), by wire name. */
  readonly ids: Readonly<Record<string, string | number>>;
}

/** The answer, failing the test when the connection was dropped instead. */
export function response(outcome: SimOutcome): SimResponse {
  if (isReset(outcome)) throw new Error("expected a response, got a reset");
  return outcome;
}

/** Calls `operationId` as `pc-admin`, its body typed loosely for assertions on the JSON it holds. */
export function adminJson(
  sim: PowerContextSimulator,
  operationId: SimOperationId,
  request: SimRequest = {},
): { status: number; body: any } {
  return asAdmin(sim, operationId, request);
}

/** Calls `operationId` as `pc-admin`. */
export function asAdmin(
  sim: PowerContextSimulator,
  operationId: SimOperationId,
  request: SimRequest = {},
): SimResponse {
  return response(sim.handle(operationId, { token: "pc-admin", ...request }));
}

/** Captures `count` Sources `prefix-1..count` into `scopeId`. */
export function captureMany(sim: PowerContextSimulator, scopeId: string, prefix: string, count: number): void {
  for (let i = 1; i <= count; i += 1) {
    asAdmin(sim, "capture_content_source", {
      body: { scope_id: scopeId, source_id: `${prefix}-${i}`, content: `${prefix} note ${i} about lease renewal` },
    });
  }
}

/**
 * Scope `s1` with: a succeeded flush Operation, Atomic Memory records, one
 * remembered record, and a Topic Memory block of an exhausted budget.
 */
export function buildWorld(seed = 7): World {
  const clock = new ManualClock();
  const sim = createPowerContextSimulator({
    scopes: TEST_SCOPES,
    clock,
    seed,
    waitBudgetMs: 0,
    flushTiming: { queuedMs: 100, runningMs: 1000 },
  });
  captureMany(sim, "s1", "src", 3);
  const accepted = asAdmin(sim, "flush_memory", { body: { scope_id: "s1" } });
  const operationId = (accepted.body as { operation_id: string }).operation_id;
  clock.advance(5_000);
  const remembered = asAdmin(sim, "remember_memory", {
    body: { scope_id: "s1", kind: "decision", text: "Lease renewal uses fencing tokens" },
  });
  if ((remembered.body as { records: unknown[] }).records.length !== 1)
    throw new Error("remember_memory wrote no record");
  captureMany(sim, "s1", "late", 2);
  sim.controls.exhaustTopicBudget("s1");
  const status = asAdmin(sim, "get_topic_memory_processing_status", { body: { scope_id: "s1" } });
  const blockId = (status.body as { block: { block_id: string } }).block.block_id;
  return { sim, clock, operationId, blockId, defaultScopeId: sim.controls.defaultScopeId(), ids: storeRecords(sim) };
}

/**
 * Stores an Artifact (revision 1) with a handle, a Candidate and a Dream run in
 * scope `s1`, which must exist and hold Source `src-1`, and an Access Binding
 * on it. @returns the members naming them, by wire name
 */
export function storeRecords(sim: PowerContextSimulator): Record<string, string | number> {
  const artifact = asAdmin(sim, "create_artifact", {
    params: { scope_id: "s1" },
    body: { family: "atomic-memory", content: { kind: "fact", text: "Leases renew daily" } },
  });
  const artifactId = (artifact.body as { artifact_id: string }).artifact_id;
  asAdmin(sim, "bind_artifact_handle", {
    params: { scope_id: "s1", family: "atomic-memory", key: "lease" },
    body: { artifact_id: artifactId, revision: 1 },
  });
  const candidate = asAdmin(sim, "propose_experience", {
    body: {
      scope_id: "s1",
      proposal: {
        situation: "A lease lapsed.",
        action: "Renewed daily.",
        outcome: "No lapse since.",
        lesson: "Renew daily.",
      },
      source_refs: [{ name: "content", source_id: "src-1" }],
      artifact_refs: [],
    },
  });
  const binding = asAdmin(sim, "create_access_binding", {
    body: {
      subject: { type: "user", id: "someone" },
      resource: { type: "scope", scope_id: "s1" },
      role: "scope.viewer",
      idempotency_key: "world-binding",
    },
  });
  const run = asAdmin(sim, "create_dream_run", {
    params: { scope_id: "s1" },
    body: {
      operation: "refine_experience",
      artifacts: [{ family: "atomic-memory", artifact_id: artifactId, revision: 1 }],
      idempotency_key: "world-run",
    },
  });
  return {
    scope_id: "s1",
    family: "atomic-memory",
    artifact_id: artifactId,
    revision: 1,
    key: "lease",
    source_type: "content",
    source_id: "src-1",
    "If-Match": artifact.headers.ETag as string,
    candidate_id: (candidate.body as { candidate_id: string }).candidate_id,
    binding_id: (binding.body as { binding_id: string }).binding_id,
    run_id: (run.body as { run_id: string }).run_id,
  };
}

/**
 * `request` with every parameter and body member (nested ones too) that names
 * a stored record replaced by one of `ids`, where the types agree. A Source id
 * is aimed only at the Source operations, so a capture stays a new Source.
 */
export function aimAt(
  request: SimRequest,
  ids: Readonly<Record<string, string | number>>,
  operationId?: SimOperationId,
): SimRequest {
  const sourceOperation = operationId !== undefined && simOperations[operationId].resource?.name === "source";
  const aim = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(aim);
    if (typeof value !== "object" || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value)) {
      const wanted = Object.hasOwn(ids, name) && (name !== "source_id" || sourceOperation) ? ids[name] : undefined;
      out[name] =
        wanted !== undefined && typeof item === typeof wanted
          ? wanted
          : wanted !== undefined && typeof item === "string"
            ? String(wanted)
            : aim(item);
    }
    return out;
  };
  return {
    ...request,
    params: aim(request.params) as SimRequest["params"],
    headers: aim(request.headers) as SimRequest["headers"],
    body: aim(request.body),
  };
}

/** A well-formed request for each operation against a {@link World}. */
export function validRequest(operationId: SimOperationId, world: World): SimRequest {
  const s1 = { scope_id: "s1" };
  switch (operationId) {
    case "capture_content_source":
      return { body: { ...s1, source_id: "fresh-1", content: "a fresh note" } };
    case "flush_memory":
    case "list_memory_entries":
    case "get_topic_memory_processing_status":
      return { body: s1 };
    case "remember_memory":
      return { body: { ...s1, kind: "note", text: "remember this" } };
    case "search_memory":
      return { body: { ...s1, query: "lease renewal" } };
    case "create_scope":
      return { body: { title: "Fresh", summary: "A fresh scope", idempotency_key: "fresh-scope" } };
    case "get_scope":
      return { params: { scope_id: world.defaultScopeId } };
    case "list_operations":
      return { query: { scope_id: "s1", limit: "2" } };
    case "get_operation":
      return { params: { operation_id: world.operationId } };
    case "cancel_operation":
    case "retry_operation":
      return { params: { operation_id: world.operationId }, body: { expected_version: 1 } };
    case "replace_artifact":
      return {
        params: { scope_id: "s1", family: "atomic-memory", artifact_id: String(world.ids.artifact_id) },
        headers: { "If-Match": String(world.ids["If-Match"]) },
        body: { content: { kind: "fact", text: "Leases renew hourly" } },
      };
    case "get_topic_memory_processing_block":
    case "retry_topic_memory_processing":
      return { body: { ...s1, block_id: world.blockId } };
    case "approve_candidate":
    case "reject_candidate":
    case "revise_candidate": {
      // A decided Candidate is final: each decision gets a pending Candidate of its own.
      const proposal = {
        situation: "A lease lapsed.",
        action: "Renewed daily.",
        outcome: "No lapse since.",
        lesson: `Renew daily (${operationId}).`,
      };
      const fresh = asAdmin(world.sim, "propose_experience", {
        body: { ...s1, proposal, source_refs: [{ name: "content", source_id: "src-1" }], artifact_refs: [] },
      });
      const target = {
        ...s1,
        candidate_id: (fresh.body as { candidate_id: string }).candidate_id,
        expected_version: 1,
      };
      if (operationId === "revise_candidate") return { body: { ...target, proposal } };
      return { body: operationId === "reject_candidate" ? { ...target, reason: "Duplicate." } : target };
    }
    case "replace_artifact_tags": {
      // The tags are guarded by their own ETag, which a read of the untagged Artifact gives.
      const at = { scope_id: "s1", family: "atomic-memory", artifact_id: String(world.ids.artifact_id) };
      const read = asAdmin(world.sim, "get_artifact_tags", { params: at });
      return { params: at, headers: { "If-Match": String(read.headers.ETag) }, body: { tags: ["lease"] } };
    }
    case "merge_atomic_memories": {
      // A merge takes two different active records at their current state.
      const inputs = ["Leases renew at noon.", "Leases renew daily at noon."].map((text) => {
        const made = asAdmin(world.sim, "remember_memory", { body: { ...s1, kind: "fact", text } });
        const record = (made.body as { records?: { artifact: unknown; state_version: number }[] }).records?.[0];
        return { artifact: record?.artifact, state_version: record?.state_version };
      });
      return { body: { ...s1, inputs, content: { kind: "fact", text: "Leases renew daily at noon." } } };
    }
    case "handoff_current_work":
    case "commit_handoff": {
      // A handoff's boundary is a Source of its own; a commit takes the handoff prepared on the current revision.
      const sampled = sampledRequest("handoff_current_work") as { body: Record<string, unknown> };
      const work = { ...sampled.body, ...s1, source_id: `boundary-${operationId}` };
      if (operationId === "handoff_current_work") return { body: work };
      const prepared = asAdmin(world.sim, "handoff_current_work", { body: work });
      return { body: { ...s1, handoff: (prepared.body as { handoff?: unknown }).handoff } };
    }
    case "register_source_definition":
      // The fingerprint is the release's digest of this manifest's declaration.
      return {
        body: {
          manifest: {
            name: "parity.ticket",
            version: "1",
            fingerprint: "sha256:34b228b34df6e14929b64a26f4ee9dd1ece5d5c2f8bbeaba92ffe35d93a3fac6",
            source_schema: { type: "object" },
            projections: [{ key: { name: "summary", version: "1" }, schema: { type: "string" } }],
          },
        },
      };
    case "commit_connector_checkpoint": {
      // A binding's first commit expects no checkpoint.
      const sampled = sampledRequest(operationId) as { body: Record<string, unknown> };
      const binding = { ...(sampled.body.binding as Record<string, unknown>), ...s1 };
      return { body: { ...sampled.body, binding, expected: null } };
    }
    case "create_work_contract":
    case "record_task_outcome": {
      // Work records cite evidence the Scope holds: here, none (declared claims).
      const sampled = sampledRequest(operationId) as { body: Record<string, unknown> };
      const declared = (claims: unknown) =>
        (Array.isArray(claims) ? claims : []).map((claim) => ({ ...claim, basis: "declared", evidence: [] }));
      const record = { ...(sampled.body.contract ?? sampled.body.outcome) } as Record<string, unknown>;
      if (operationId === "create_work_contract")
        return {
          body: { ...s1, source_id: "work-contract-1", contract: { ...record, facts: declared(record.facts) } },
        };
      const outcome = {
        ...record,
        observations: declared(record.observations),
        checks: declared(record.checks),
        produced_artifacts: [],
        handoff_receipt_ref: null,
      };
      return { body: { ...s1, source_id: "task-outcome-1", outcome } };
    }
    case "revoke_access_binding":
    case "replace_access_binding": {
      const subject = { type: "user", id: `someone-${operationId}` };
      const fresh = asAdmin(world.sim, "create_access_binding", {
        body: {
          subject,
          resource: { type: "scope", scope_id: "s1" },
          role: "scope.viewer",
          idempotency_key: operationId,
        },
      });
      const target = {
        binding_id: (fresh.body as { binding_id: string }).binding_id,
        expected_version: 1,
        idempotency_key: `${operationId}-change`,
      };
      if (operationId === "revoke_access_binding") return { body: target };
      return { body: { ...target, replacement: { subject: { type: "user", id: "someone-else" } } } };
    }
    default:
      try {
        const skill = skillRequest(operationId, world.sim);
        if (skill !== undefined) return skill;
        return aimAt(sampledRequest(operationId), world.ids, operationId);
      } catch {
        return {};
      }
  }
}
