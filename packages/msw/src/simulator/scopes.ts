import { SimError } from "./errors.js";
import type { SeededRandom } from "./random.js";
import type { ResourceStore } from "./resources/store.js";
import type { ResourceWriter, WriteCause } from "./resources/writer.js";

/**
 * The Scopes of the simulator: the `scope` records of the resource store
 * (`x-powercontext-resources`), which `create_scope`, `get_scope`,
 * `update_scope` and `list_scopes` reach through the generic engine. A fresh
 * simulator has one Scope, the default one (`get_default_scope`), with a
 * server-assigned id drawn from the seed; `set_default_scope` moves the
 * default to another existing Scope. Every operation that names a `scope_id`
 * answers `404 scope_not_found` for an id that is not here, as the released
 * server does. Tests that want a Scope under a chosen id add it with
 * `controls.addScope` or the `scopes` simulator option.
 */

/** The `ScopeDescriptor` wire shape. */
export interface ScopeDescriptor {
  scope_id: string;
  title: string;
  summary: string;
  parent_scope_id: string | null;
  context_references: string[];
  external_references: { kind: string; value: string }[];
  version: number;
}

/** The members of `CreateScopeRequest` besides `idempotency_key`. */
export interface NewScope {
  readonly title: string;
  readonly summary: string;
  readonly parent_scope_id?: string | null;
  readonly context_references?: readonly string[];
  readonly external_references?: readonly { kind: string; value: string }[];
}

/** Title and summary the default Scope is created with (the released server's). */
export const DEFAULT_SCOPE = { title: "Default", summary: "Default context" } as const;

/** The resource name of Scopes in `x-powercontext-resources`. */
const SCOPE = "scope";

/** Scopes by id over the resource store, and which one is the default. */
export class ScopeStore {
  #defaultScopeId: string;

  constructor(
    private readonly store: ResourceStore,
    private readonly writer: ResourceWriter,
    random: SeededRandom,
  ) {
    this.#defaultScopeId = this.add(random.id("scp"), DEFAULT_SCOPE).scope_id;
  }

  /** The id of the default Scope. */
  get defaultScopeId(): string {
    return this.#defaultScopeId;
  }

  /**
   * Makes an existing Scope the default (`set_default_scope`).
   * @throws SimError 404 `scope_not_found` for an unknown id
   */
  setDefault(scopeId: string): ScopeDescriptor {
    const scope = this.get(scopeId);
    this.#defaultScopeId = scopeId;
    return scope;
  }

  /**
   * Registers a Scope under `scopeId` (or returns the one already there); `cause` names the
   * request that creates it, when one does (its caller may get presets on it).
   */
  add(scopeId: string, scope: NewScope, cause?: WriteCause): ScopeDescriptor {
    const existing = this.store.find(SCOPE, [], scopeId);
    if (existing) return existing.current as unknown as ScopeDescriptor;
    const descriptor: ScopeDescriptor = {
      scope_id: scopeId,
      title: scope.title,
      summary: scope.summary,
      parent_scope_id: scope.parent_scope_id ?? null,
      context_references: [...(scope.context_references ?? [])],
      external_references: (scope.external_references ?? []).map((r) => ({ kind: r.kind, value: r.value })),
      version: 1,
    };
    // Through the writer, so the hooks on new Scopes (the access presets) run for these too.
    return this.writer.insert(
      SCOPE,
      [],
      { ...descriptor },
      cause === undefined ? {} : { cause },
    ) as unknown as ScopeDescriptor;
  }

  /** @throws SimError 404 `scope_not_found` for an unknown id. */
  get(scopeId: string): ScopeDescriptor {
    return this.require(scopeId);
  }

  /** True when the Scope exists. */
  has(scopeId: string): boolean {
    return this.store.has(SCOPE, [], scopeId);
  }

  /** @throws SimError 404 `scope_not_found` for an unknown id. */
  require(scopeId: string): ScopeDescriptor {
    const scope = this.store.find(SCOPE, [], scopeId);
    if (!scope) throw new SimError(404, "scope_not_found", "The requested Scope was not found.", null);
    return scope.current as unknown as ScopeDescriptor;
  }
}
