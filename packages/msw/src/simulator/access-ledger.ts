import type { JsonRecord } from "./resources/members.js";
import type { ServerValues } from "./resources/records.js";
import type { ResourceWriter, WriteCause, WriteContext } from "./resources/writer.js";

/**
 * What the release's access layer keeps beside the bindings callers write, as
 * hooks on the resource writer:
 * - **Preset bindings.** A new Scope gets the roles the release grants its
 *   static bearer on every Scope (viewer, contributor, reviewer, delegator),
 *   bound to the mock's administrator, the principal that stands for that
 *   bearer; they are listed with the bindings callers create.
 * - **The audit of binding writes.** Every binding created or revoked, preset
 *   or requested, is an `access_audit` record (`binding-created`,
 *   `binding-revoked`) naming who wrote it, the binding, its subject, role and
 *   versions, listed by `list_access_audit` per resource. The release also
 *   records its access decisions there; the mock does not.
 */

/** The roles of the release's static-bearer preset on a Scope, in the order it grants them. */
const PRESET_ROLES = ["scope.viewer", "scope.contributor", "scope.reviewer", "scope.delegator"] as const;
const PRESET_REASON = "preset of the mock's administrator";
const ACTIVE = "active";

/**
 * Registers the preset and audit hooks on `writer`. `administrator` is the
 * principal the presets name (as the wire names it), null for none (no
 * presets then); `values` assigns the ids and times of the records the ledger
 * adds, from a seeded sequence of their own.
 */
export function trackAccessLedger(
  writer: ResourceWriter,
  administrator: JsonRecord | null,
  values: ServerValues,
): void {
  if (administrator !== null) {
    writer.onWrite("scope", {
      after: (scope, context) => {
        if (context.previous !== null) return;
        const cause: WriteCause = {
          ...context.cause,
          operation: context.cause?.operation ?? "create_scope",
          caller: administrator,
        };
        for (const role of PRESET_ROLES) {
          writer.insert(
            "access_binding",
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
            { cause, values },
          );
        }
      },
    });
  }
  // Every binding write is a new policy revision, named on the binding and in its audit.
  let revision = 0;
  writer.onWrite("access_binding", {
    before: (binding) => {
      revision += 1;
      return { ...binding, policy_revision: String(revision) };
    },
    after: (binding, context) => audit(writer, binding, context, values),
  });
}

/** Records one binding write as the release's audit does. */
function audit(writer: ResourceWriter, binding: JsonRecord, context: WriteContext, values: ServerValues): void {
  const resource = binding.resource as JsonRecord;
  const active = binding.state === ACTIVE;
  const writtenBy = (active ? binding.granted_by : binding.revoked_by) ?? context.cause?.caller ?? null;
  writer.insert(
    "access_audit",
    [],
    {
      request_id: context.cause?.requestId ?? null,
      transport: "http",
      operation: context.cause?.operation ?? "access_binding",
      principal: writtenBy,
      actor: null,
      // The administrative action on the binding's resource, as the release names it.
      action: resource.type === "artifact" ? "artifact.share" : `${String(resource.type)}.admin`,
      resource,
      allowed: true,
      reason_code: active ? "binding-created" : "binding-revoked",
      policy_revision: binding.policy_revision ?? null,
      matched_subject: null,
      binding_id: binding.binding_id,
      target: binding.subject,
      role: binding.role,
      expected_version: context.previous === null ? null : (context.previous.version ?? null),
      result_version: binding.version,
    },
    { values },
  );
}
