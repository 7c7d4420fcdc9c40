import { accessFacts } from "./facts.js";
import { principalKey, type PrincipalKey } from "./owners.js";
import { SimError } from "../errors.js";
import { isRecord } from "../members.js";

/**
 * Bearer tokens and who they stand for, in the release's terms
 * (packages/msw/README.md, "Tokens and what they may do"): each token names a
 * principal (`{ type: user | service, id, description? }`) and its role bindings.
 * A binding is a role of `x-powercontext-access-policy` on what the role is bound
 * on: a Scope role on one Scope id or on `"*"` (every Scope, existing or future: a
 * convenience the release has no counterpart for), a server role on the server, an
 * Artifact role on one Artifact. At most one token is `static`: the release's static
 * bearer (its principal is the policy's `static_principal` unless given), bound to
 * the server roles from the start and to the Scope preset on each Scope it touches.
 * Bindings created through the Access API count too (the access layer reads them).
 * Tokens are only compared, never logged or copied into a response.
 *
 * The earlier form (`{ name, scopes: { id | "*": [scope.read | scope.contribute |
 * scope.admin] }, server: [server.observe | server.admin] }`) is still read: each
 * permission becomes the role that grants it (`scope.viewer`, `scope.contributor`,
 * `scope.admin`, `server.observer`, `server.admin`) and `name` the service id.
 */

/** A principal as the wire names it. */
export interface PrincipalRef {
  readonly type: "user" | "service";
  readonly id: string;
  readonly description?: string;
}

/** A role binding of the principals file. */
export interface FileBinding {
  readonly role: string;
  /** For a Scope role: the Scope id, or `"*"` for every Scope. */
  readonly scope?: string;
  /** For an Artifact role: the Artifact. */
  readonly artifact?: { readonly scope_id: string; readonly family: string; readonly artifact_id: string };
}

/** One token's entry. */
export interface PrincipalSpec {
  /** The principal; for the static token, default the policy's static principal. */
  readonly principal?: PrincipalRef;
  /** The release's static bearer (at most one token). Default false. */
  readonly static?: boolean;
  /** Its role bindings. Default none. */
  readonly bindings?: readonly FileBinding[];
}

/** The earlier form of an entry (read and mapped to {@link PrincipalSpec}). */
export interface LegacyPrincipalSpec {
  readonly name: string;
  readonly description?: string;
  readonly scopes: Readonly<Record<string, readonly string[]>>;
  readonly server?: readonly string[];
}

/** The principals file: bearer token -> principal. */
export interface PrincipalConfig {
  readonly tokens: Readonly<Record<string, PrincipalSpec | LegacyPrincipalSpec>>;
}

/**
 * The documented defaults (also in `principals.default.json`):
 * - `pc-admin`: the static bearer (`service:server-token`), as the release's one token;
 * - `pc-writer`: `scope.contributor` on every Scope and `server.observer` (`service:writer`);
 * - `pc-reader`: `scope.viewer` on every Scope and `server.observer` (`service:reader`);
 * - no token: anonymous, answered with 401 by every authenticated operation.
 */
export const defaultPrincipals: PrincipalConfig = {
  tokens: {
    "pc-admin": { static: true },
    "pc-writer": {
      principal: { type: "service", id: "writer" },
      bindings: [{ role: "scope.contributor", scope: "*" }, { role: "server.observer" }],
    },
    "pc-reader": {
      principal: { type: "service", id: "reader" },
      bindings: [{ role: "scope.viewer", scope: "*" }, { role: "server.observer" }],
    },
  },
};

/** The description of a principal whose entry gives none. */
export const DEFAULT_DESCRIPTION = "PowerContext mock bearer token";

/** The role each permission of the earlier form becomes. */
const LEGACY_ROLES: Readonly<Record<string, string>> = {
  "scope.read": "scope.viewer",
  "scope.contribute": "scope.contributor",
  "scope.admin": "scope.admin",
  "server.observe": "server.observer",
  "server.admin": "server.admin",
};

/** An entry in the current form (the earlier one mapped). @throws TypeError naming the entry */
function normalise(raw: unknown, index: number): PrincipalSpec {
  const at = `principals: entry #${index + 1}`;
  if (!isRecord(raw)) throw new TypeError(`${at} is not an object`);
  if ("scopes" in raw || "name" in raw) {
    const legacy = raw as Partial<LegacyPrincipalSpec>;
    if (typeof legacy.name !== "string" || !isRecord(legacy.scopes))
      throw new TypeError(`${at} needs a name and a scopes map`);
    const bindings: FileBinding[] = [];
    for (const [scope, permissions] of Object.entries(legacy.scopes)) {
      if (!Array.isArray(permissions)) throw new TypeError(`${at} (${legacy.name}) lists no scope permissions`);
      for (const permission of permissions) {
        const role = LEGACY_ROLES[String(permission)];
        if (role === undefined || !String(permission).startsWith("scope."))
          throw new TypeError(
            `principals: entry ${legacy.name} lists an unknown scope permission ${JSON.stringify(permission)}; known: scope.read, scope.contribute, scope.admin`,
          );
        bindings.push({ role, scope });
      }
    }
    if (legacy.server !== undefined && !Array.isArray(legacy.server))
      throw new TypeError(`principals: entry ${legacy.name} lists an unknown server permission`);
    for (const permission of legacy.server ?? []) {
      const role = LEGACY_ROLES[String(permission)];
      if (role === undefined || !String(permission).startsWith("server."))
        throw new TypeError(`principals: entry ${legacy.name} lists an unknown server permission`);
      bindings.push({ role });
    }
    if (
      legacy.description !== undefined &&
      (typeof legacy.description !== "string" || legacy.description.trim() === "")
    )
      throw new TypeError(`principals: entry ${legacy.name} has a description that is not a non-blank string`);
    return {
      principal: {
        type: "service",
        id: legacy.name,
        ...(legacy.description === undefined ? {} : { description: legacy.description }),
      },
      bindings,
    };
  }
  const spec = raw as PrincipalSpec;
  if (spec.static !== undefined && typeof spec.static !== "boolean")
    throw new TypeError(`${at}: static must be a boolean`);
  if (spec.principal === undefined && spec.static !== true) throw new TypeError(`${at} needs a principal`);
  if (spec.principal !== undefined) checkPrincipal(spec.principal, at);
  if (spec.bindings !== undefined && !Array.isArray(spec.bindings))
    throw new TypeError(`${at}: bindings must be a list`);
  for (const [i, binding] of (spec.bindings ?? []).entries()) checkBinding(binding, `${at} binding #${i + 1}`);
  return spec;
}

function checkPrincipal(principal: unknown, at: string): void {
  const p = principal as Partial<PrincipalRef> | null;
  if (!isRecord(p) || (p.type !== "user" && p.type !== "service") || typeof p.id !== "string" || p.id.trim() === "")
    throw new TypeError(`${at}: principal must be { type: user | service, id, description? }`);
  if (p.description !== undefined && (typeof p.description !== "string" || p.description.trim() === ""))
    throw new TypeError(`${at}: the principal's description is not a non-blank string`);
}

function checkBinding(binding: FileBinding, at: string): void {
  const role =
    isRecord(binding) && Object.hasOwn(accessFacts.policy.roles, binding.role)
      ? accessFacts.policy.roles[binding.role]
      : undefined;
  if (role === undefined || role.system === true)
    throw new TypeError(`${at}: ${JSON.stringify(binding?.role)} is not a role a binding may grant`);
  const wants = role.on;
  if ((wants === "scope") !== (typeof binding.scope === "string" && binding.scope !== ""))
    throw new TypeError(`${at}: ${binding.role} ${wants === "scope" ? "needs" : "takes no"} scope`);
  if ((wants === "artifact") !== isRecord(binding.artifact))
    throw new TypeError(`${at}: ${binding.role} ${wants === "artifact" ? "needs" : "takes no"} artifact`);
}

/**
 * Checks a parsed principals file (either form; at most one static token).
 * @throws TypeError naming the first bad entry (the token itself is not repeated).
 */
export function parsePrincipalConfig(raw: unknown): PrincipalConfig {
  const tokens = (raw as { tokens?: unknown } | null)?.tokens;
  if (!isRecord(tokens)) throw new TypeError("principals: expected an object with a `tokens` map");
  const specs = Object.values(tokens).map(normalise);
  if (specs.filter((s) => s.static === true).length > 1)
    throw new TypeError("principals: at most one token may be static (the release has one static bearer)");
  if (specs.some((s) => s.static === true) && accessFacts.policy.static_principal === undefined)
    throw new TypeError("principals: the contract names no static principal");
  return raw as PrincipalConfig;
}

/**
 * A token whose principal may contribute to every Scope: the static bearer, else
 * the first one bound (in the file) to a role that takes `scope.contribute` on `"*"`.
 * Undefined when none is.
 */
export function everywhereContributor(config: PrincipalConfig): string | undefined {
  const entries = Object.entries(config.tokens).map(([token, raw], index) => [token, normalise(raw, index)] as const);
  const contributes = (spec: PrincipalSpec) =>
    (spec.bindings ?? []).some(
      (b) => b.scope === "*" && accessFacts.policy.roles[b.role]?.actions.includes("scope.contribute") === true,
    );
  return (entries.find(([, spec]) => spec.static === true) ?? entries.find(([, spec]) => contributes(spec)))?.[0];
}

/**
 * The resolved caller of one request: who it is, whether it is the static bearer,
 * and the bindings its entry gives.
 */
export class Principal {
  /** The owner relation's key of this principal (`type:id`). */
  readonly key: PrincipalKey;

  constructor(
    readonly ref: PrincipalRef,
    readonly isStatic: boolean,
    readonly bindings: readonly FileBinding[],
  ) {
    this.key = principalKey(ref);
  }

  /** The principal as the wire names it (an access subject). Never carries the token. */
  wire(): { type: "user" | "service"; id: string; description: string } {
    return { type: this.ref.type, id: this.ref.id, description: this.ref.description ?? DEFAULT_DESCRIPTION };
  }
}

/** Resolves bearer tokens against a {@link PrincipalConfig}. */
export class PrincipalRegistry {
  readonly #byToken: Map<string, Principal>;

  /** @throws TypeError for a bad config (see {@link parsePrincipalConfig}) */
  constructor(config: PrincipalConfig = defaultPrincipals) {
    parsePrincipalConfig(config);
    this.#byToken = new Map(
      Object.entries(config.tokens).map(([token, raw], index) => {
        const spec = normalise(raw, index);
        const isStatic = spec.static === true;
        const ref = spec.principal ?? (accessFacts.policy.static_principal?.principal as PrincipalRef);
        return [token, new Principal(ref, isStatic, spec.bindings ?? [])];
      }),
    );
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

  /** The static bearer's principal, or undefined when no token is static. */
  staticPrincipal(): Principal | undefined {
    return [...this.#byToken.values()].find((p) => p.isStatic);
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
