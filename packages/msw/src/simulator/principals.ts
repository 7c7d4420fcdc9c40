import { SimError } from "./errors.js";
import type { Permission } from "./types.js";

/**
 * Bearer tokens and what they may do (docs/architecture.md: `scope.read`,
 * `scope.write`, `scope.admin` by token). Tokens are only compared, never
 * logged or copied into a response.
 */

/** One caller. `scopes` maps a scope id, or `"*"` for every scope, to its permissions. */
export interface PrincipalSpec {
  readonly name: string;
  readonly scopes: Readonly<Record<string, readonly Permission[]>>;
}

/** The principals file: bearer token -> principal. */
export interface PrincipalConfig {
  readonly tokens: Readonly<Record<string, PrincipalSpec>>;
}

/**
 * The documented defaults (also in `principals.default.json`):
 * - `pc-admin`: scope.read, scope.write and scope.admin on every scope;
 * - `pc-writer`: scope.read and scope.write on every scope;
 * - `pc-reader`: scope.read on every scope;
 * - no token: anonymous, answered with 401 by every authenticated operation.
 */
export const defaultPrincipals: PrincipalConfig = {
  tokens: {
    "pc-admin": { name: "admin", scopes: { "*": ["scope.read", "scope.write", "scope.admin"] } },
    "pc-writer": { name: "writer", scopes: { "*": ["scope.read", "scope.write"] } },
    "pc-reader": { name: "reader", scopes: { "*": ["scope.read"] } },
  },
};

const PERMISSIONS: readonly Permission[] = ["scope.read", "scope.write", "scope.admin"];

/**
 * Checks a parsed principals file.
 * @throws TypeError naming the first bad entry (the token itself is not repeated).
 */
export function parsePrincipalConfig(raw: unknown): PrincipalConfig {
  const tokens = (raw as { tokens?: unknown } | null)?.tokens;
  if (typeof tokens !== "object" || tokens === null) throw new TypeError("principals: expected an object with a `tokens` map");
  Object.values(tokens).forEach((spec: unknown, index) => {
    const s = spec as Partial<PrincipalSpec> | null;
    if (typeof s?.name !== "string" || typeof s.scopes !== "object" || s.scopes === null) {
      throw new TypeError(`principals: entry #${index + 1} needs a name and a scopes map`);
    }
    for (const perms of Object.values(s.scopes)) {
      if (!Array.isArray(perms) || perms.some((p) => !PERMISSIONS.includes(p as Permission))) {
        throw new TypeError(`principals: entry ${s.name} lists an unknown permission`);
      }
    }
  });
  return raw as PrincipalConfig;
}

/**
 * The resolved caller of one request. Its scope grants are copied into a Map
 * at construction, so a scope id that names an `Object.prototype` member
 * (`__proto__`, `constructor`, `toString`, ...) is looked up like any other.
 */
export class Principal {
  readonly #grants: ReadonlyMap<string, ReadonlySet<Permission>>;

  constructor(readonly spec: PrincipalSpec) {
    this.#grants = new Map(Object.entries(spec.scopes).map(([scopeId, perms]) => [scopeId, new Set(perms)]));
  }

  /** True when the principal holds `permission` on `scopeId` (directly or through `"*"`). */
  can(permission: Permission, scopeId: string): boolean {
    return this.#grants.get(scopeId)?.has(permission) === true || this.#grants.get("*")?.has(permission) === true;
  }

  /** @throws SimError 403 `permission_denied` with `details.permission` when the permission is missing. */
  require(permission: Permission, scopeId: string): void {
    if (!this.can(permission, scopeId)) {
      throw new SimError(403, "permission_denied", `The ${permission} permission is required.`, { permission });
    }
  }
}

/** Resolves bearer tokens against a {@link PrincipalConfig}. */
export class PrincipalRegistry {
  readonly #byToken: Map<string, Principal>;

  constructor(config: PrincipalConfig = defaultPrincipals) {
    this.#byToken = new Map(Object.entries(config.tokens).map(([token, spec]) => [token, new Principal(spec)]));
  }

  /**
   * The principal behind `token`.
   * @throws SimError 401 `unauthorized` (with `WWW-Authenticate: Bearer`) when the token is absent or unknown.
   */
  authenticate(token: string | null | undefined): Principal {
    const principal = token ? this.#byToken.get(token) : undefined;
    if (!principal) {
      throw new SimError(401, "unauthorized", "Credentials are missing or not accepted.", null, {
        "WWW-Authenticate": "Bearer",
      });
    }
    return principal;
  }
}
