import { contractResources } from "../generated/contract.js";
import { SimError } from "./errors.js";
import type { JsonRecord } from "./members.js";
import { project } from "./resources/project.js";

/**
 * A Scope selection (`{ mode: all }`, `{ mode: exact, scope_ids }`,
 * `{ mode: subtree, root_scope_id }`) resolved into the stored Scopes it
 * means now, as the release resolves it: every Scope, or the listed ones,
 * ordered by id; or the root and every Scope below it, breadth first, the
 * children of one parent by id.
 *
 * @param scopes every stored Scope
 * @throws SimError 404 `scope_not_found` for a listed Scope or root the server does not have
 */
export function resolveSelection(scopes: readonly JsonRecord[], selection: JsonRecord): JsonRecord[] {
  const sorted = [...scopes].sort((a, b) =>
    String(a.scope_id) < String(b.scope_id) ? -1 : String(a.scope_id) > String(b.scope_id) ? 1 : 0,
  );
  const byId = new Map(sorted.map((scope) => [String(scope.scope_id), scope]));
  const missing = () => new SimError(404, "scope_not_found", "The requested Scope was not found.", null);
  if (selection.mode === "exact") {
    const wanted = ((selection.scope_ids as unknown[] | undefined) ?? []).map(String);
    const unknown = wanted.find((id) => !byId.has(id));
    if (unknown !== undefined) throw missing();
    return sorted.filter((scope) => wanted.includes(String(scope.scope_id)));
  }
  if (selection.mode !== "subtree") return sorted;
  const root = byId.get(String(selection.root_scope_id));
  if (root === undefined) throw missing();
  const resolved = [root];
  const visited = new Set([String(root.scope_id)]);
  for (let next = 0; next < resolved.length; next += 1) {
    const parent = String((resolved[next] as JsonRecord).scope_id);
    for (const scope of sorted)
      if (String(scope.parent_scope_id) === parent && !visited.has(String(scope.scope_id))) {
        visited.add(String(scope.scope_id));
        resolved.push(scope);
      }
  }
  return resolved;
}

/** A stored record of `resource` in the schema its registry row names as its shape (`shape`), else as stored. */
export function publicRecord(resource: string, record: JsonRecord, seed: number): JsonRecord {
  const shape = contractResources[resource]?.shape ?? null;
  return shape === null ? record : (project(record, shape, seed) as JsonRecord);
}
