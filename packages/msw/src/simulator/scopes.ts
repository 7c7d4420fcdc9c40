import { SimError } from "./errors.js";
import type { SeededRandom } from "./random.js";

/**
 * The Scopes of the simulator, on the release's `ScopeDescriptor` shape. A
 * fresh simulator has one Scope, the default one (`get_default_scope`), with a
 * server-assigned id drawn from the seed; `create_scope` adds more, replayed
 * by `idempotency_key`. Every operation that names a `scope_id` answers
 * `404 scope_not_found` for an id that is not here, as the released server
 * does. Tests that want a Scope under a chosen id add it with
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

/** The Scope store: by id, the default id, and `create_scope` replays by idempotency key. */
export class ScopeStore {
  readonly #byId = new Map<string, ScopeDescriptor>();
  readonly #byKey = new Map<string, { request: string; scopeId: string }>();
  readonly defaultScopeId: string;

  constructor(private readonly random: SeededRandom) {
    this.defaultScopeId = this.add(random.id("scp"), DEFAULT_SCOPE).scope_id;
  }

  /** Registers a Scope under `scopeId` (or returns the one already there). */
  add(scopeId: string, scope: NewScope): ScopeDescriptor {
    const existing = this.#byId.get(scopeId);
    if (existing) return structuredClone(existing);
    const descriptor: ScopeDescriptor = {
      scope_id: scopeId,
      title: scope.title,
      summary: scope.summary,
      parent_scope_id: scope.parent_scope_id ?? null,
      context_references: [...(scope.context_references ?? [])],
      external_references: (scope.external_references ?? []).map((r) => ({ kind: r.kind, value: r.value })),
      version: 1,
    };
    this.#byId.set(scopeId, descriptor);
    return structuredClone(descriptor);
  }

  /**
   * `create_scope`: a new Scope with a server-assigned id; the same key with the
   * same request answers the same Scope again.
   * @throws SimError 404 `scope_not_found` when `parent_scope_id` names no Scope
   * @throws SimError 409 `idempotency_conflict` when the key was used for another request
   */
  create(idempotencyKey: string, scope: NewScope): ScopeDescriptor {
    const request = JSON.stringify([scope.title, scope.summary, scope.parent_scope_id ?? null, scope.context_references ?? [], scope.external_references ?? []]);
    const earlier = this.#byKey.get(idempotencyKey);
    if (earlier) {
      if (earlier.request !== request) throw new SimError(409, "idempotency_conflict", "This idempotency key was used for a different request.", null);
      return this.get(earlier.scopeId);
    }
    if (scope.parent_scope_id != null) this.require(scope.parent_scope_id);
    const descriptor = this.add(this.random.id("scp"), scope);
    this.#byKey.set(idempotencyKey, { request, scopeId: descriptor.scope_id });
    return descriptor;
  }

  /** @throws SimError 404 `scope_not_found` for an unknown id. */
  get(scopeId: string): ScopeDescriptor {
    return structuredClone(this.require(scopeId));
  }

  /** True when the Scope exists. */
  has(scopeId: string): boolean {
    return this.#byId.has(scopeId);
  }

  /** @throws SimError 404 `scope_not_found` for an unknown id. */
  require(scopeId: string): ScopeDescriptor {
    const scope = this.#byId.get(scopeId);
    if (!scope) throw new SimError(404, "scope_not_found", "No Scope with this id is visible.", null);
    return scope;
  }
}
