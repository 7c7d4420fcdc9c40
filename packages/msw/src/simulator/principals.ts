import { SimError } from "./errors.js";
import type { Permission, ScopePermission, ServerPermission } from "./types.js";

/**
 * Bearer tokens and what they may do: Scope permissions (`scope.read`,
 * `scope.contribute`, `scope.admin`) per scope, and server permissions
 * (`server.observe`, `server.admin`) for the operations whose
 * `x-powercontext-access` names the server (the default scope, creating
 * scopes). Tokens are only compared, never logged or copied into a response.
 */

/** One caller. `scopes` maps a scope id, or `"*"` for every scope, to its permissions; `server` lists its server permissions. */
export interface PrincipalSpec {
  readonly name: string;
  /** How the caller is described where the wire names it (`granted_by`, `revoked_by`); default {@link DEFAULT_DESCRIPTION}. */
  readonly description?: string;
  readonly scopes: Readonly<Record<string, readonly ScopePermission[]>>;
  /** Server permissions; absent means none. */
  readonly server?: readonly ServerPermission[];
}

/** The principals file: bearer token -> principal. */
export interface PrincipalConfig {
  readonly tokens: Readonly<Record<string, PrincipalSpec>>;
}

/**
 * The documented defaults (also in `principals.default.json`):
 * - `pc-admin`: every Scope permission on every scope, `server.observe` and `server.admin`;
 * - `pc-writer`: scope.read and scope.contribute on every scope, `server.observe`;
 * - `pc-reader`: scope.read on every scope, `server.observe`;
 * - no token: anonymous, answered with 401 by every authenticated operation.
 */
export const defaultPrincipals: PrincipalConfig = {
  tokens: {
    "pc-admin": {
      name: "admin",
      scopes: { "*": ["scope.read", "scope.contribute", "scope.admin"] },
      server: ["server.observe", "server.admin"],
    },
    "pc-writer": { name: "writer", scopes: { "*": ["scope.read", "scope.contribute"] }, server: ["server.observe"] },
    "pc-reader": { name: "reader", scopes: { "*": ["scope.read"] }, server: ["server.observe"] },
  },
};

/** The description of a principal whose spec gives none: a static bearer token, as the release's only principal is. */
export const DEFAULT_DESCRIPTION = "PowerContext mock bearer token";

const SCOPE_PERMISSIONS: readonly ScopePermission[] = ["scope.read", "scope.contribute", "scope.admin"];
const SERVER_PERMISSIONS: readonly ServerPermission[] = ["server.observe", "server.admin"];

const isServerPermission = (permission: Permission): permission is ServerPermission => permission.startsWith("server.");

/**
 * Checks a parsed principals file.
 * @throws TypeError naming the first bad entry (the token itself is not repeated).
 */
export function parsePrincipalConfig(raw: unknown): PrincipalConfig {
  const tokens = (raw as { tokens?: unknown } | null)?.tokens;
  if (typeof tokens !== "object" || tokens === null)
    throw new TypeError("principals: expected an object with a `tokens` map");
  Object.values(tokens).forEach((spec: unknown, index) => {
    const s = spec as Partial<PrincipalSpec> | null;
    if (typeof s?.name !== "string" || typeof s.scopes !== "object" || s.scopes === null) {
      throw new TypeError(`principals: entry #${index + 1} needs a name and a scopes map`);
    }
    for (const perms of Object.values(s.scopes)) {
      const unknown = Array.isArray(perms)
        ? perms.find((p) => !SCOPE_PERMISSIONS.includes(p as ScopePermission))
        : perms;
      if (!Array.isArray(perms) || unknown !== undefined) {
        throw new TypeError(
          `principals: entry ${s.name} lists an unknown scope permission ${JSON.stringify(unknown)}; known: ${SCOPE_PERMISSIONS.join(", ")}`,
        );
      }
    }
    if (s.description !== undefined && (typeof s.description !== "string" || s.description.trim() === "")) {
      throw new TypeError(`principals: entry ${s.name} has a description that is not a non-blank string`);
    }
    if (
      s.server !== undefined &&
      (!Array.isArray(s.server) || s.server.some((p) => !SERVER_PERMISSIONS.includes(p as ServerPermission)))
    ) {
      throw new TypeError(`principals: entry ${s.name} lists an unknown server permission`);
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
  readonly #server: ReadonlySet<Permission>;

  constructor(readonly spec: PrincipalSpec) {
    this.#grants = new Map(
      Object.entries(spec.scopes).map(([scopeId, perms]) => [scopeId, new Set<Permission>(perms)]),
    );
    this.#server = new Set<Permission>(spec.server ?? []);
  }

  /**
   * The principal as the wire names it (an access subject): a service named
   * by the spec's `name`, with its description. Never carries the token.
   */
  wire(): { type: "service"; id: string; description: string } {
    return { type: "service", id: this.spec.name, description: this.spec.description ?? DEFAULT_DESCRIPTION };
  }

  /**
   * True when the principal holds `permission`: a server permission outright,
   * a Scope permission on `scopeId` (directly or through `"*"`).
   */
  can(permission: Permission, scopeId = ""): boolean {
    if (isServerPermission(permission)) return this.#server.has(permission);
    return this.#grants.get(scopeId)?.has(permission) === true || this.#grants.get("*")?.has(permission) === true;
  }

  /**
   * @throws SimError 403 `forbidden` (the release's code) when the permission is
   * missing. Unlike the release, whose single admin token never meets a 403 and
   * whose 403 has details null, `details` names what the token lacks in the
   * release's access vocabulary (a `check_access` requirement):
   * `{action, resource: {scope_id, type: "scope"} | {type: "server"}}`.
   */
  require(permission: Permission, scopeId = ""): void {
    if (!this.can(permission, scopeId)) {
      const resource = isServerPermission(permission) ? { type: "server" } : { scope_id: scopeId, type: "scope" };
      throw new SimError(403, "forbidden", "The Principal is not authorized for this operation.", {
        action: permission,
        resource,
      });
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
    const principal = this.find(token);
    if (!principal) throw unauthorized();
    return principal;
  }

  /**
   * The mock's administrator: the first principal holding every Scope
   * permission on every Scope and `server.admin` (`pc-admin` by default), the
   * counterpart of the release's one static bearer; undefined when none does.
   */
  administrator(): Principal | undefined {
    return [...this.#byToken.values()].find(
      (p) => SCOPE_PERMISSIONS.every((permission) => p.can(permission, "*")) && p.can("server.admin"),
    );
  }

  /** The principal behind `token`, or undefined when the token is absent or unknown. */
  find(token: string | null | undefined): Principal | undefined {
    return token ? this.#byToken.get(token) : undefined;
  }
}

/** The release's refusal of an absent or unknown credential: `401 unauthorized` with `WWW-Authenticate: Bearer`. */
export function unauthorized(): SimError {
  return new SimError(401, "unauthorized", "A valid credential is required.", null, { "WWW-Authenticate": "Bearer" });
}
