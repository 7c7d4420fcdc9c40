import type { Principal } from "../principals.js";
import type { Permission } from "../types.js";
import type { SimOperation } from "./operation-table.js";

/**
 * `x-powercontext-access` enforced with the principals' grants, which use the
 * release's action names (`scope.read`, `scope.contribute`, `scope.admin` per
 * scope; `server.observe`, `server.admin` on the server). `scope.review` has
 * no grant of its own in the principals file and needs `scope.admin`.
 * `access.self` and a named `resolver` (a rule of the server that the spec
 * does not spell out) need only an accepted token; the stateful handlers
 * apply their own rules on top (docs/compatibility.md).
 */
const ACTION_PERMISSION: Readonly<Record<string, Permission>> = {
  "scope.read": "scope.read",
  "scope.contribute": "scope.contribute",
  "scope.review": "scope.admin",
  "scope.admin": "scope.admin",
  "server.observe": "server.observe",
  "server.admin": "server.admin",
};

/** The permission and scope an operation's access rule asks of `request`, or null when none. */
export function accessNeed(op: SimOperation, flat: unknown): { permission: Permission; scopeId: string } | null {
  const access = op.access;
  if (access === null || "resolver" in access) return null;
  const permission = Object.hasOwn(ACTION_PERMISSION, access.action) ? ACTION_PERMISSION[access.action] : undefined;
  if (permission === undefined) return null;
  if (access.resource === "server") return { permission, scopeId: "" };
  const value =
    typeof flat === "object" && flat !== null ? (flat as Record<string, unknown>)[access.scopeIdFrom] : undefined;
  // A request without the scope field names the server's default scope.
  return { permission, scopeId: typeof value === "string" ? value : "default" };
}

/** @throws SimError 403 `forbidden` (the release's code, no details) when `principal` lacks what the operation's access rule asks. */
export function checkAccess(op: SimOperation, principal: Principal, flat: unknown): void {
  const need = accessNeed(op, flat);
  if (need !== null) principal.require(need.permission, need.scopeId);
}
