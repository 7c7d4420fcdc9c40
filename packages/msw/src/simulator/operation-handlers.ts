import { SimError, invalidRequest } from "./errors.js";
import { toWireOperation, type OperationRecord, type OperationStatus } from "./operations.js";
import { objectBody, onlyFields, scopeField, stringField, intField, requiredInt } from "./validate.js";
import { simOperations, type SimOperationId } from "./contract/operation-table.js";
import type { HandlerResult, SimRequest } from "./types.js";
import { getPath, type JsonRecord } from "./members.js";
import { withDefaults } from "./resources/defaults.js";
import type { Principal } from "./access/principals.js";
import type { Check } from "./access/resolve.js";
import { accessPrincipal, accessResources, accessRoles, checkAccess } from "./access/api.js";
import type { SimulatorState } from "./state.js";
import type { SearchMode } from "./memory.js";
import type { AtomicInput, RestorationTarget } from "./atomic-lifecycle.js";
import { skillHandlers } from "./skill-handlers.js";
import { resolveScopeBinding } from "./scope-bindings.js";
import { resolveSelection } from "./scope-selection.js";
import { statistics } from "./stats.js";
import { preparedContext } from "./prepared-context.js";
import { handoffHandlers } from "./handoff-handlers.js";
import { ingestionHandlers } from "./ingestion-handlers.js";
import { isoTime } from "./clock.js";
import { codeStatus } from "./code.js";
import { experienceRevision, recalledExperiences } from "./experience.js";

/**
 * One function per operation of `openapi.yaml`: parse and check the request,
 * enforce the Scope permission on the scope it names, call the domain
 * modules. Credentials were resolved before (`principal` is null only for
 * operations that need none).
 */
export type OperationHandler = (
  state: SimulatorState,
  principal: Principal | null,
  request: SimRequest,
  nowMs: number,
) => HandlerResult;

const ok = (body: unknown): HandlerResult => ({ status: 200, body });

/** The most Atomic Memory items a prepared context holds (the release's entry limit). */
const PREPARED_MEMORY_ITEMS = 8;
const STATUSES: readonly OperationStatus[] = ["queued", "running", "succeeded", "failed", "cancelled"];
const MODES: readonly SearchMode[] = ["auto", "fts", "vector", "hybrid"];

/**
 * Reads an Operation visible to the caller (ours, seed 002: its access rule resolves
 * the Operation's Scope here): unknown ids and Scopes it may not read are both 404.
 */
function visibleOperation(state: SimulatorState, principal: Principal, request: SimRequest): OperationRecord {
  const id = request.params?.operation_id ?? "";
  if (!/^[\x21-\x7E]{1,128}$/.test(id))
    throw invalidRequest("operation_id", "must be 1-128 printable ASCII characters");
  const op = state.operations.find(id);
  const readable = op !== undefined && state.control.allows(principal, scopeCheck("scope.read", op.scope_id));
  if (!op || !readable || !state.scopes.has(op.scope_id)) {
    throw new SimError(404, "operation_not_found", "No operation with this id is visible.", null);
  }
  return op;
}

/** A check of `action` on the Scope `scopeId`. */
function scopeCheck(action: string, scopeId: string): Check {
  return { action, target: { kind: "scope", scopeId } };
}

/** The body's `scope_id` (the access layer decided on it); an unknown Scope is `404 scope_not_found`, declared by the operation or not (docs/compatibility.md). */
function scoped(state: SimulatorState, body: Record<string, unknown>): string {
  const scopeId = scopeField(body);
  state.scopes.require(scopeId);
  return scopeId;
}

/**
 * How many items `prepare_context` recalls per family: without an assembly, Memory and
 * Experiences (the release also recalls Topic Memory, which the mock never processes);
 * with one, the families its sections name (the contract's default sections when it names
 * none), each up to its section's limit.
 */
function recallLimits(body: Record<string, unknown>): Record<string, number> {
  if (body.assembly === undefined || body.assembly === null)
    return { memory: PREPARED_MEMORY_ITEMS, experience: PREPARED_MEMORY_ITEMS };
  const sections = getPath(withDefaults(simOperations.prepare_context, body), "assembly.sections");
  const limits: Record<string, number> = {};
  for (const section of Array.isArray(sections) ? (sections as { family?: unknown; limit?: unknown }[]) : [])
    if (typeof section.family === "string" && typeof section.limit === "number") limits[section.family] = section.limit;
  return limits;
}

/** The restoration a preview or restoration body names (`operation` defaults to `restore`, as in the contract). */
function restorationTarget(body: Record<string, unknown>): RestorationTarget {
  const target = body.target as { artifact_id: string; revision?: number | null };
  return {
    artifactId: String(target.artifact_id),
    operation: typeof body.operation === "string" ? body.operation : "restore",
    revision: typeof target.revision === "number" ? target.revision : null,
  };
}

/** The stateful implementations, keyed by operationId; every other operation is answered by the responder. */
export const operationHandlers: Partial<Record<SimOperationId, OperationHandler>> = {
  ...skillHandlers,

  // The release revokes the binding and writes its successor (access-ledger.ts).
  replace_access_binding: (state, principal, request) => {
    const cause = { operation: "replace_access_binding", caller: (principal as Principal).wire() };
    const answer = state.engine.handle(simOperations.replace_access_binding, request, cause);
    return answer.status === 200 ? state.access.replaced(answer, objectBody(request.body), cause) : answer;
  },

  resolve_scope_binding: (state, _principal, request) => resolveScopeBinding(state, objectBody(request.body)),
  get_stats: (state, _principal, request, now) => {
    const body = objectBody(request.body);
    return ok(statistics(state.store, body.selection as JsonRecord, body.period, now));
  },
  resolve_scope_selection: (state, _principal, request) =>
    ok({
      items: resolveSelection(
        state.store.records("scope", []).map((record) => record.current),
        objectBody(request.body).selection as JsonRecord,
      ),
      next_cursor: null,
    }),
  get_liveness: () => ok({ status: "ok" }),
  query_code: (_state, _principal, request) => codeStatus(request),
  get_experience: (state, _principal, request) => experienceRevision(state.store, request),

  // The checks a release with static tokens and enforced access reports; the mock runs no background Artifact processing.
  get_readiness: (state) => {
    const ready = state.ready ? "ready" : "not_ready";
    const report = {
      status: ready,
      checks: {
        runtime: ready,
        database: ready,
        artifact_processing_supervisor: "disabled",
        access_mode: "enforced",
        authentication_provider: "ready",
        access_provider: "ready",
        access_resource_kinds: "server,scope,artifact",
        access_artifact_families:
          "atomic-memory:enabled,experience:enabled,handoff:enabled,memory:enabled,profile:enabled,prompt:enabled,skill:enabled",
      },
    };
    return { status: state.ready ? 200 : 503, body: report };
  },

  // What the server can do: with a model (the mock's default) extraction and generation run; without one
  // (inference off) they are off, as on a default 1.4.1 install, which searches by full text only.
  get_capabilities: (state) => {
    const model = state.prompts.withModel;
    const { lastFailure } = state.extraction;
    const processedMs = state.flush.lastProcessedMs;
    const lastSuccessAt = processedMs === null ? null : isoTime(processedMs);
    return ok({
      prompts: state.prompts.capabilities(),
      artifact_dreaming: false,
      source_types: ["content"],
      artifact_families: [
        "memory",
        "atomic-memory",
        "topic-memory",
        "experience",
        "skill",
        "handoff",
        "profile",
        "prompt",
      ],
      memory_extraction: model,
      extraction: {
        configuration: model ? "configured" : "unconfigured",
        background: { location: "none", role: null, state: "stopped", automatic_processing_enabled: false },
        observation: {
          status: lastFailure === null && lastSuccessAt === null ? "unverified" : "observed",
          since: state.extraction.since,
          last_failure: lastFailure,
          last_success_at: lastSuccessAt,
        },
      },
      experience_generation: false,
      managed_skill_generation: false,
      external_skill_registry: true,
      handoff_generation: false,
      search_modes: model ? ["auto", "fts", "vector", "hybrid"] : ["auto", "fts"],
      context_versions: ["powercontext.prepared-context.v1"],
    });
  },

  // The policy and decisions on it (access/api.ts).
  get_access_principal: (_state, principal) => ok(accessPrincipal(principal as Principal)),
  list_access_roles: (_state, _principal, request) => ok(accessRoles(objectBody(request.body))),
  check_access: (state, principal, request) =>
    ok(checkAccess(principal as Principal, objectBody(request.body), state.control)),
  list_access_resources: (state, principal, request) =>
    ok(
      accessResources(
        principal as Principal,
        objectBody(request.body),
        state.control,
        { scopes: () => state.store.records("scope", []).map((r) => String(r.current.scope_id)), store: state.store },
        state.cursorKey,
      ),
    ),

  get_default_scope: (state) => ok(state.scopes.get(state.scopes.defaultScopeId)),

  set_default_scope: (state, _principal, request) => ok(state.scopes.setDefault(scopeField(objectBody(request.body)))),

  capture_content_source: (state, _principal, request) => {
    const body = objectBody(request.body);
    onlyFields(body, ["scope_id", "source_id", "content", "metadata"]);
    const scopeId = scoped(state, body);
    const sourceId = stringField(body, "source_id", { max: 256 });
    const content = stringField(body, "content", { max: 200_000 });
    return { status: 202, body: state.sources.capture(scopeId, sourceId, content) };
  },

  capture_working_note: (state, _principal, request) => {
    const body = objectBody(request.body);
    const scopeId = scoped(state, body);
    return {
      status: 202,
      body: state.sources.capture(
        scopeId,
        stringField(body, "source_id", { max: 256 }),
        stringField(body, "content", { max: 200_000 }),
        { derived: true },
      ),
    };
  },

  create_subject_source: (state, principal, request) => {
    const body = objectBody(request.body);
    const scopeId = request.params?.scope_id ?? "";
    const subjectScopeId = body.subject_scope_id;
    return {
      status: 201,
      body: state.subjects.create(
        {
          scopeId,
          subjectType: String(body.subject_type ?? "user"),
          subjectKey: String(body.subject_key),
          subjectScopeId: typeof subjectScopeId === "string" ? subjectScopeId : null,
          content: body.content,
          cause: { operation: "create_subject_source", caller: (principal as Principal).wire() },
        },
        (subjectScope) => state.after.domain(subjectScope),
      ),
    };
  },

  ...handoffHandlers,
  ...ingestionHandlers,

  get_prompt_configuration: (state, _principal, request) =>
    ok(state.prompts.configuration(request.params?.scope_id ?? "", request.params?.prompt_key ?? "")),

  flush_memory: (state, _principal, request, now) => {
    const body = objectBody(request.body);
    onlyFields(body, ["scope_id"]);
    return state.flush.flush(scoped(state, body), now);
  },

  remember_memory: (state, _principal, request) => {
    const body = objectBody(request.body);
    onlyFields(body, ["scope_id", "kind", "text", "reason", "expected_revision"]);
    const scopeId = scoped(state, body);
    const kind = stringField(body, "kind", { max: 128 });
    const text = stringField(body, "text");
    if (
      body.reason !== undefined &&
      body.reason !== null &&
      (typeof body.reason !== "string" || body.reason.length > 512)
    ) {
      throw invalidRequest("reason", "must be a string of at most 512 characters or null");
    }
    intField(body, "expected_revision", { min: 1 }, null, true);
    return ok(state.memory.remember(scopeId, kind, text));
  },

  change_atomic_memory_lifecycle: (state, _principal, request) => {
    const body = objectBody(request.body);
    return ok(state.lifecycle.change(scoped(state, body), body.target as AtomicInput, String(body.state)));
  },

  merge_atomic_memories: (state, _principal, request) => {
    const body = objectBody(request.body);
    return ok(
      state.lifecycle.merge(
        scoped(state, body),
        body.inputs as AtomicInput[],
        body.content as Record<string, unknown>,
        Array.isArray(body.artifact_refs) ? (body.artifact_refs as Record<string, unknown>[]) : [],
      ),
    );
  },

  preview_atomic_memory_restoration: (state, principal, request) => {
    const body = objectBody(request.body);
    return ok(state.lifecycle.preview(scoped(state, body), restorationTarget(body), (principal as Principal).key));
  },

  restore_atomic_memory: (state, principal, request) => {
    const body = objectBody(request.body);
    return ok(
      state.lifecycle.restore(
        scoped(state, body),
        restorationTarget(body),
        typeof body.preview_token === "string" ? body.preview_token : null,
        (principal as Principal).key,
        () => state.after.domain(),
      ),
    );
  },

  prepare_context: (state, _principal, request) => {
    const body = objectBody(request.body);
    const scopeId = scopeField(body);
    const query = String(body.query ?? "");
    const limits = recallLimits(body);
    const memory = limits.memory ?? 0;
    const experience = limits.experience ?? 0;
    const { hits } = memory > 0 ? state.memory.search(scopeId, query, memory, "auto") : { hits: [] };
    const experiences = experience > 0 ? recalledExperiences(state.store, scopeId, query, experience) : [];
    return ok(preparedContext([...hits.map((hit) => hit.memory.text), ...experiences]));
  },

  search_memory: (state, _principal, request) => {
    const body = objectBody(request.body);
    onlyFields(body, ["scope_id", "query", "limit", "mode", "tag_filter"]);
    const scopeId = scoped(state, body);
    const query = stringField(body, "query", { max: 8192 });
    const limit = intField(body, "limit", { min: 1, max: 50 }, 10) as number;
    const mode = (body.mode ?? "auto") as SearchMode;
    if (!MODES.includes(mode)) throw invalidRequest("mode", "must be auto, fts, vector or hybrid");
    return ok(state.memory.search(scopeId, query, limit, mode));
  },

  list_memory_entries: (state, _principal, request) => {
    const body = objectBody(request.body);
    onlyFields(body, ["scope_id", "include_inactive", "limit", "cursor", "tag_filter"]);
    const scopeId = scoped(state, body);
    const include = body.include_inactive ?? false;
    if (typeof include !== "boolean") throw invalidRequest("include_inactive", "must be a boolean");
    const limit = intField(body, "limit", { min: 1, max: 100 }, 50) as number;
    const cursor = body.cursor ?? null;
    if (cursor !== null && (typeof cursor !== "string" || cursor.length === 0))
      throw invalidRequest("cursor", "must be a non-empty string or null");
    const tagFilter = (body.tag_filter ?? null) as JsonRecord | null;
    return ok(state.memory.list(scopeId, include, limit, cursor, tagFilter));
  },

  list_operations: (state, _principal, request) => {
    const q = request.query ?? {};
    const scopeId = scopeField({ scope_id: q.scope_id });
    state.scopes.require(scopeId);
    const status = q.status as OperationStatus | undefined;
    if (status !== undefined && !STATUSES.includes(status))
      throw invalidRequest("status", "is not an Operation status");
    if (q.kind !== undefined && q.kind !== "memory_flush") throw invalidRequest("kind", "is not an Operation kind");
    if (q.cursor !== undefined && (q.cursor.length < 1 || q.cursor.length > 512))
      throw invalidRequest("cursor", "must be 1-512 characters");
    const limit = q.limit === undefined ? 50 : /^\d+$/.test(q.limit) ? Number(q.limit) : Number.NaN;
    if (!(limit >= 1 && limit <= 100)) throw invalidRequest("limit", "must be an integer between 1 and 100");
    return ok(state.operations.list({ scope_id: scopeId, status, kind: q.kind }, limit, q.cursor));
  },

  get_operation: (state, principal, request) =>
    ok(toWireOperation(visibleOperation(state, principal as Principal, request))),

  cancel_operation: (state, principal, request, now) => {
    const op = visibleOperation(state, principal as Principal, request);
    state.control.require(principal as Principal, [scopeCheck("scope.admin", op.scope_id)]);
    const body = objectBody(request.body);
    onlyFields(body, ["expected_version"]);
    state.operations.cancel(op, requiredInt(body, "expected_version", 1), now);
    return ok(toWireOperation(op));
  },

  retry_operation: (state, principal, request, now) => {
    const op = visibleOperation(state, principal as Principal, request);
    state.control.require(principal as Principal, [scopeCheck("scope.admin", op.scope_id)]);
    const body = objectBody(request.body);
    onlyFields(body, ["expected_version"]);
    state.operations.retry(op, requiredInt(body, "expected_version", 1), now);
    return ok(toWireOperation(op));
  },

  get_topic_memory_processing_status: (state, _principal, request) => {
    const body = objectBody(request.body);
    onlyFields(body, ["scope_id"]);
    return ok(state.topic.status(scoped(state, body)));
  },

  get_topic_memory_processing_block: (state, _principal, request) => {
    const body = objectBody(request.body);
    onlyFields(body, ["scope_id", "block_id"]);
    const scopeId = scoped(state, body);
    return ok(state.topic.blocks.get(scopeId, stringField(body, "block_id", { max: 36 })));
  },

  retry_topic_memory_processing: (state, _principal, request, now) => {
    const body = objectBody(request.body);
    onlyFields(body, ["scope_id", "block_id"]);
    const scopeId = scoped(state, body);
    const blockId = stringField(body, "block_id", { max: 36 });
    return ok({ status: "accepted", block: state.topic.retry(scopeId, blockId, now) });
  },
};
