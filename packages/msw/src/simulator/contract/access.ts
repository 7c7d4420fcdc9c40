import type { Principal } from "../principals.js";
import type { Permission } from "../types.js";
import type { SimOperation } from "./operation-table.js";

/**
 * `x-powercontext-access` enforced with the simulator's three permissions.
 * The release's actions map onto them as follows; the mapping is the
 * simulator's, listed in docs/compatibility.md:
 *
 * | action | permission needed |
 * | --- | --- |
 * | `scope.read` | `scope.read` on the scope |
 * | `scope.contribute` | `scope.write` on the scope |
 * | `scope.review`, `scope.admin` | `scope.admin` on the scope |
 * | `server.observe` | `scope.read` on every scope (`"*"`) |
 * | `server.admin` | `scope.admin` on every scope (`"*"`) |
 * | `access.self`, a `resolver` | an accepted token, nothing more |
 *
 * A resolver names a rule of the server that the spec does not spell out, so
 * the simulator asks only for credentials there.
 */
const ACTION_PERMISSION: Readonly<Record<string, Permission>> = {
  "scope.read": "scope.read",
  "scope.contribute": "scope.write",
  "scope.review": "scope.admin",
  "scope.admin": "scope.admin",
  "server.observe": "scope.read",
  "server.admin": "scope.admin",
};

/** The permission and scope an operation's access rule asks of `request`, or null when none. */
export function accessNeed(op: SimOperation, flat: unknown): { permission: Permission; scopeId: string } | null {
  const access = op.access;
  if (access === null || "resolver" in access) return null;
  const permission = Object.hasOwn(ACTION_PERMISSION, access.action) ? ACTION_PERMISSION[access.action] : undefined;
  if (permission === undefined) return null;
  if (access.resource === "server") return { permission, scopeId: "*" };
  const value = typeof flat === "object" && flat !== null ? (flat as Record<string, unknown>)[access.scopeIdFrom] : undefined;
  // A request without the scope field names the server's default scope.
  return { permission, scopeId: typeof value === "string" ? value : "default" };
}

/** @throws SimError 403 `permission_denied` when `principal` lacks what the operation's access rule asks. */
export function checkAccess(op: SimOperation, principal: Principal, flat: unknown): void {
  const need = accessNeed(op, flat);
  if (need !== null) principal.require(need.permission, need.scopeId);
}
