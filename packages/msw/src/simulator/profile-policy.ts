import type { JsonRecord } from "./members.js";
import type { ResourceWriter } from "./resources/writer.js";

/**
 * A Scope's Profile policy as the release keeps it beside the Profile: a new subject's
 * Scope starts with generation on, and every write of the Profile Artifact coordinates
 * with the policy (creating it, generation off, when the Scope has none, then raising its
 * version), so `get_profile_policy` answers it afterwards.
 */

/** The resource of x-powercontext-resources holding the policies (keyed by Scope id). */
const POLICY = "profile_policy";
/** The Artifact family the policy governs. */
const PROFILE_FAMILY = "profile";

/** Creates the policy of `scopeId` (version 1) with generation on or off. @returns the stored policy */
export function startProfilePolicy(writer: ResourceWriter, scopeId: string, generationEnabled: boolean): JsonRecord {
  return writer.insert(POLICY, [], {
    scope_id: scopeId,
    generation_enabled: generationEnabled,
    activation_mode: "automatic",
    pending_candidate_id: null,
  });
}

/** Registers the Profile write hook on `writer`. */
export function trackProfilePolicy(writer: ResourceWriter): void {
  writer.onWrite("artifact", {
    after: (record, context) => {
      if (record.family !== PROFILE_FAMILY || context.quiet) return;
      const scopeId = String(context.keys[0]);
      const policy = writer.find(POLICY, [], scopeId) ?? startProfilePolicy(writer, scopeId, false);
      writer.update(POLICY, [], policy, {});
    },
  });
}
