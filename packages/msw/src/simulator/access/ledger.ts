import { contractResources } from "../../generated/contract.js";
import type { ContractResource } from "../../contract/types.js";
import { accessFacts } from "./facts.js";
import { copyJson, type JsonRecord } from "../members.js";
import { type ServerValues, withoutCleared } from "../resources/records.js";
import type { ResourceWriter, WriteCause, WriteContext } from "../resources/writer.js";
import type { HandlerResult } from "../types.js";
import type { Check } from "./resolve.js";
import { resourceWire } from "./resource-keys.js";

/**
 * What the release's access layer keeps beside the bindings callers write,
 * over the resource writer:
 * - **The static bearer's bindings.** Its server roles from the start, and the
 *   Scope preset (`x-powercontext-access-policy.static_principal`) on a Scope a
 *   request creates, or on any Scope id (the default one included) the first time
 *   the access layer denies it one of the preset's actions there ({@link AccessLedger.bootstrap}); a Scope whose
 *   preset was written once never gets it again, as on the release. They are
 *   listed with the bindings callers create.
 * - **Policy revisions.** Every binding write is the next revision, named on
 *   the binding and in the audit.
 * - **The audit.** Every binding created or revoked, preset or requested (the
 *   server roles written at start excepted), is an `access_audit` record
 *   (`binding-created`, `binding-revoked`) naming who wrote it, the binding, its
 *   subject, role and versions; so is every access decision a request makes
 *   (allowed or not, its reason, and the subject and binding that matched). Listed
 *   by `list_access_audit`: a Scope's or an Artifact's own, every one for the server.
 * - **Replacement.** `replace_access_binding` revokes the binding (the
 *   engine's change, at `previous`) and writes its successor (at `current`).
 */

const ACTIVE = "active";
/** The resource of the Access Bindings (`x-powercontext-resources`). */
export const BINDING = "access_binding";
const AUDIT = "access_audit";

/**
 * How many audit events the simulator keeps: the newest 10,000 (older ones are dropped, so
 * requests that change nothing cannot grow it without bound; the release keeps every one).
 */
export const AUDIT_LOG_SIZE = 10_000;

/** The access state beside the bindings: presets, revisions, the audit, replacements. */
export class AccessLedger {
  #revision = 0;
  /** The id of the successor a replacement wrote, by the replacement's idempotency key. */
  readonly #successors = new Map<unknown, unknown>();
  /** The Scope ids whose preset was written. */
  readonly #initialized = new Set<string>();
  /** True while the server's start writes the static bearer's server roles, which the audit does not record. */
  #starting = false;

  /**
   * Registers the ledger's hooks on `writer`. `administrator` is the static
   * bearer's principal (as the wire names it), null for none (no presets then);
   * `values` assigns the ids and times of the records the ledger adds, from a
   * seeded sequence of their own, so they do not move the ids requests get.
   */
  constructor(
    private readonly writer: ResourceWriter,
    private readonly administrator: JsonRecord | null,
    private readonly values: ServerValues,
  ) {
    writer.onWrite("scope", {
      after: (scope, context) => {
        // A Scope the static bearer's request creates gets the preset at once; others get it on its first use.
        const creator = context.cause?.caller;
        if (
          context.previous === null &&
          creator?.id === this.administrator?.id &&
          creator?.type === this.administrator?.type
        )
          this.#preset(String(scope.scope_id), context.cause);
      },
    });
    writer.onWrite(BINDING, {
      before: (binding) => {
        this.#revision += 1;
        return { ...binding, policy_revision: String(this.#revision) };
      },
      after: (binding, context) => this.#audit(binding, context),
    });
  }

  /**
   * The answer of a replacement: `answer` is the engine's revocation of the
   * binding (at `previous`); `current` becomes its successor, with the
   * replacement's subject, reason and expiry, the same resource and role,
   * keyed by the request's idempotency key (a repeat answers the same one).
   */
  replaced(answer: HandlerResult, request: JsonRecord, cause: WriteCause): HandlerResult {
    const body = answer.body as JsonRecord;
    const previous = body.previous as JsonRecord;
    const key = request.idempotency_key;
    const replacement = (request.replacement ?? {}) as JsonRecord;
    const earlier = this.#successors.get(key);
    const current =
      (earlier === undefined ? undefined : this.writer.find(BINDING, [], earlier)) ??
      this.writer.insert(
        BINDING,
        [],
        withoutCleared(contractResources[BINDING] as ContractResource, {
          subject: copyJson(replacement.subject),
          resource: previous.resource,
          role: previous.role,
          granted_by: cause.caller,
          reason: replacement.reason ?? null,
          expires_at: replacement.expires_at ?? null,
          state: ACTIVE,
          idempotency_key: key,
          revoked_at: null,
          revoked_by: null,
        }),
        { cause },
      );
    this.#successors.set(key, current.binding_id);
    return { ...answer, body: { ...body, current } };
  }

  /**
   * Binds the static bearer's server roles on the server, as the release does when
   * it starts (before any request, and outside the audit).
   */
  bindServerRoles(): void {
    const administrator = this.administrator;
    const preset = accessFacts.policy.static_principal;
    if (administrator === null || preset === undefined) return;
    const resource = { type: "server", deployment_id: accessFacts.policy.deployment };
    this.#starting = true;
    for (const role of preset.server_roles)
      this.#bind(
        administrator,
        resource,
        role,
        preset.preset_reason,
        `static:${String(administrator.id)}:${role}`,
        undefined,
      );
    this.#starting = false;
  }

  /**
   * Writes the static bearer's Scope preset on `scopeId` (whether or not such a Scope
   * exists) unless it was written there before.
   * @returns true when it wrote it now
   */
  bootstrap(scopeId: string, cause?: WriteCause): boolean {
    if (this.administrator === null || this.#initialized.has(scopeId)) return false;
    this.#preset(scopeId, cause);
    return true;
  }

  #preset(scopeId: string, requestCause: WriteCause | undefined): void {
    const administrator = this.administrator;
    const preset = accessFacts.policy.static_principal;
    if (administrator === null || preset === undefined || this.#initialized.has(scopeId)) return;
    this.#initialized.add(scopeId);
    const cause: WriteCause = {
      ...requestCause,
      operation: requestCause?.operation ?? "create_scope",
      caller: administrator,
    };
    for (const role of preset.scope_preset) {
      this.#bind(
        administrator,
        { type: "scope", scope_id: scopeId },
        role,
        preset.preset_reason,
        `preset:${String(administrator.id)}:${scopeId}:${role}`,
        cause,
      );
    }
  }

  #bind(
    subject: JsonRecord,
    resource: JsonRecord,
    role: string,
    reason: string | null,
    key: string,
    cause: WriteCause | undefined,
  ): void {
    this.writer.insert(
      BINDING,
      [],
      {
        subject,
        resource,
        role,
        granted_by: subject,
        reason,
        expires_at: null,
        state: ACTIVE,
        idempotency_key: key,
        revoked_at: null,
        revoked_by: null,
      },
      { ...(cause === undefined ? {} : { cause }), values: this.values },
    );
  }

  /** Records one binding write as the release's audit does. */
  #audit(binding: JsonRecord, context: WriteContext): void {
    if (this.#starting) return;
    const resource = binding.resource as JsonRecord;
    const active = binding.state === ACTIVE;
    this.#record(context.cause, {
      principal: (active ? binding.granted_by : binding.revoked_by) ?? context.cause?.caller ?? null,
      // The administrative action on the binding's resource, as the release names it.
      action: resource.type === "artifact" ? "artifact.share" : `${String(resource.type)}.admin`,
      resource,
      reason_code: active ? "binding-created" : "binding-revoked",
      matched_subject: null,
      binding_id: binding.binding_id,
      target: binding.subject,
      role: binding.role,
      expected_version: context.previous === null ? null : (context.previous.version ?? null),
      result_version: binding.version,
    });
  }

  /**
   * Records one access decision of a request: its action on the check's resource, allowed or
   * not, the reason, and the subject and binding that matched.
   */
  decided(
    cause: WriteCause,
    principal: JsonRecord,
    check: Check,
    decision: { readonly allowed: boolean; readonly reason: string; readonly bindingId: string | null },
  ): void {
    this.#record(cause, {
      principal,
      action: check.action,
      resource: resourceWire(check.target),
      allowed: decision.allowed,
      reason_code: decision.reason,
      matched_subject: decision.allowed && decision.bindingId !== null ? principal : null,
      binding_id: decision.bindingId,
      target: null,
      role: null,
      expected_version: null,
      result_version: null,
    });
  }

  #record(cause: WriteCause | undefined, event: JsonRecord): void {
    this.writer.insert(
      AUDIT,
      [],
      {
        request_id: cause?.requestId ?? null,
        transport: "http",
        operation: cause?.operation ?? BINDING,
        actor: null,
        allowed: true,
        policy_revision: String(this.#revision),
        ...event,
      },
      { values: this.values },
    );
    this.writer.dropOldest(AUDIT, [], AUDIT_LOG_SIZE);
  }
}
