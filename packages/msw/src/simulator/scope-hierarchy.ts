import { SimError } from "./errors.js";
import type { JsonRecord } from "./members.js";
import type { ResourceWriter } from "./resources/writer.js";
import type { ScopeDescriptor, ScopeStore } from "./scopes.js";

/**
 * The Scope hierarchy's rules, as a hook on the resource writer's `scope`
 * records: a Scope is not its own parent, its parents never lead back to it,
 * and it references neither itself nor a Scope that does not exist. The
 * release checks them in this order, after the version check of an update,
 * and answers `422 invalid_scope_relationship` with the relationship and the
 * broken rule in `details`, or `404 scope_not_found` for a Scope that is not
 * there. (That the parent exists is the contract's `requires` fact, checked
 * by the generic engine before any write.)
 */

const SCOPE = "scope";

/** Registers the hierarchy checks on `writer`. */
export function trackScopeHierarchy(writer: ResourceWriter, scopes: ScopeStore): void {
  writer.onWrite(SCOPE, {
    before: (record) => {
      checkRelationships(record as Partial<ScopeDescriptor>, scopes);
      return record as JsonRecord;
    },
  });
}

function relationshipError(relationship: string, issue: string): SimError {
  return new SimError(422, "invalid_scope_relationship", "The Scope's relationships are not valid.", {
    relationship,
    issue,
  });
}

/**
 * @throws SimError 422 `invalid_scope_relationship`, or 404 `scope_not_found` for a parent or reference that is not there
 */
function checkRelationships(scope: Partial<ScopeDescriptor>, scopes: ScopeStore): void {
  const id = scope.scope_id;
  const parentId = scope.parent_scope_id ?? null;
  if (parentId === id) throw relationshipError("Parent", "a Scope cannot parent itself");
  if (parentId !== null) {
    // A stored record may leave out a member that is null on the wire.
    const seen = new Set<string>([parentId]);
    let next = scopes.require(parentId).parent_scope_id ?? null;
    while (next !== null) {
      if (next === id || seen.has(next)) throw relationshipError("Parent", "relationships must be acyclic");
      seen.add(next);
      next = scopes.require(next).parent_scope_id ?? null;
    }
  }
  for (const reference of scope.context_references ?? []) {
    if (reference === id) throw relationshipError("Context Reference", "a Scope cannot reference itself");
    scopes.require(reference);
  }
}
