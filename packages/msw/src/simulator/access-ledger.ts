import type { JsonRecord } from "./members.js";
import type { ServerValues } from "./resources/records.js";
import type { ResourceWriter, WriteCause, WriteContext } from "./resources/writer.js";
import type { HandlerResult } from "./types.js";

/**
 * What the release's access layer keeps beside the bindings callers write,
 * over the resource writer:
 * - **Preset bindings.** A new Scope gets the roles the release grants its
 *   static bearer on every Scope (viewer, contributor, reviewer, delegator),
 *   bound to the mock's administrator, the principal that stands for that
 *   bearer; they are listed with the bindings callers create.
 * - **Policy revisions.** Every binding write is the next revision, named on
 *   the binding and in the audit.
 * - **The audit.** Every binding created or revoked, preset or requested, is
 *   an `access_audit` record (`binding-created`, `binding-revoked`) naming who
 *   wrote it, the binding, its subject, role and versions, listed by
 *   `list_access_audit` per resource. The release also records its access
 *   decisions there; the mock does not.
 * - **Replacement.** `replace_access_binding` revokes the binding (the
 *   engine's change, at `previous`) and writes its successor (at `current`).
 */

/** The roles of the release's static-bearer preset on a Scope, in the order it grants them. */
const PRESET_ROLES = ["scope.viewer", "scope.contributor", "scope.reviewer", "scope.delegator"] as const;
const PRESET_REASON = "preset of the mock's administrator";
const ACTIVE = "active";
const BINDING = "access_binding";
const AUDIT = "access_audit";

/** The access state beside the bindings: presets, revisions, the audit, replacements. */
export class AccessLedger {
  #revision = 0;
  /** The id of the successor a replacement wrote, by the replacement's idempotency key. */
  readonly #successors = new Map<unknown, unknown>();

  /**
   * Registers the ledger's hooks on `writer`. `administrator` is the principal
   * the presets name (as the wire names it), null for none (no presets then);
   * `values` assigns the ids and times of the records the ledger adds, from a
   * seeded sequence of their own, so they do not move the ids requests get.
   */
  constructor(
    private readonly writer: ResourceWriter,
    private readonly administrator: JsonRecord | null,
    private readonly values: ServerValues,
  ) {
    writer.onWrite("scope", { after: (scope, context) => this.#preset(scope, context) });
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
        {
          subject: replacement.subject,
          resource: previous.resource,
          role: previous.role,
          granted_by: cause.caller,
          reason: replacement.reason ?? null,
          expires_at: replacement.expires_at ?? null,
          state: ACTIVE,
          idempotency_key: key,
          revoked_at: null,
          revoked_by: null,
        },
        { cause },
      );
    this.#successors.set(key, current.binding_id);
    return { ...answer, body: { ...body, current } };
  }

  #preset(scope: JsonRecord, context: WriteContext): void {
    const administrator = this.administrator;
    if (administrator === null || context.previous !== null) return;
    const cause: WriteCause = {
      ...context.cause,
      operation: context.cause?.operation ?? "create_scope",
      caller: administrator,
    };
    for (const role of PRESET_ROLES) {
      this.writer.insert(
        BINDING,
        [],
        {
          subject: administrator,
          resource: { type: "scope", scope_id: scope.scope_id },
          role,
          granted_by: administrator,
          reason: PRESET_REASON,
          expires_at: null,
          state: ACTIVE,
          idempotency_key: `preset:${String(administrator.id)}:${String(scope.scope_id)}:${role}`,
          revoked_at: null,
          revoked_by: null,
        },
        { cause, values: this.values },
      );
    }
  }

  /** Records one binding write as the release's audit does. */
  #audit(binding: JsonRecord, context: WriteContext): void {
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
  }
}
