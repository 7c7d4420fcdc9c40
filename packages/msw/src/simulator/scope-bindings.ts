import { SimError } from "./errors.js";
import type { JsonRecord } from "./members.js";
import type { SimulatorState } from "./state.js";
import type { HandlerResult } from "./types.js";

/**
 * `resolve_scope_binding` as the release answers it, over the `scope_binding`
 * records that `set_scope_binding` and `clear_scope_binding` keep through the
 * resource engine (a host identity's key -> a Scope): an explicit Scope first
 * (`404 scope_not_found` when it is unknown), else the Scope of the first key
 * that has a binding (`409 scope_binding_target_missing` naming it when that
 * Scope is gone), else the default Scope while `allow_default` holds (its
 * default), else `404 scope_not_found`.
 */

const BINDING = "scope_binding";

/** The Scope the request resolves to, as `resolve_scope_binding` answers it. */
export function resolveScopeBinding(state: SimulatorState, request: JsonRecord): HandlerResult {
  const { scopes, store } = state;
  if (typeof request.explicit_scope_id === "string")
    return { status: 200, body: scopes.get(request.explicit_scope_id) };
  const keys = Array.isArray(request.binding_keys) ? request.binding_keys : [];
  for (const key of keys) {
    const binding = store.find(BINDING, [], key)?.current;
    if (binding === undefined) continue;
    const scopeId = String(binding.scope_id);
    if (!scopes.has(scopeId))
      throw new SimError(409, "scope_binding_target_missing", "The bound Scope no longer exists.", {
        scope_id: scopeId,
      });
    return { status: 200, body: scopes.get(scopeId) };
  }
  if (request.allow_default === false)
    throw new SimError(404, "scope_not_found", "No binding names a Scope, and the default is not allowed.");
  return { status: 200, body: scopes.get(scopes.defaultScopeId) };
}
