import type { ContractResourceUse } from "../../contract/types.js";
import { getPath, stableJson, type JsonRecord } from "../members.js";
import type { ResourceStore } from "./store.js";

/**
 * What a list's filters read of a record with the operation's joins
 * (`x-powercontext-resource`'s `joins`, docs/extensions.md): the record with,
 * under each join's name, the current records of its resource whose `on`
 * member holds the record's id, so that `name[].member` filters match on one
 * related record together (a Scope listed by one of its bindings). The related
 * records are read once, on the first record seen; undefined when the operation has
 * no joins.
 *
 * @param idMember - the listed resource's id member
 */
export function joinedView(
  use: ContractResourceUse,
  idMember: string,
  store: ResourceStore,
): ((record: JsonRecord) => JsonRecord) | undefined {
  if (use.joins.length === 0) return undefined;
  let related: { readonly name: string; readonly byId: Map<string, JsonRecord[]> }[] | undefined;
  const index = () =>
    use.joins.map((join) => {
      const byId = new Map<string, JsonRecord[]>();
      for (const { current } of store.everywhere(join.resource)) {
        const key = stableJson(getPath(current, join.on) ?? null);
        const list = byId.get(key);
        if (list === undefined) byId.set(key, [current]);
        else list.push(current);
      }
      return { name: join.name, byId };
    });
  return (record) => {
    related ??= index();
    const seen: JsonRecord = { ...record };
    const key = stableJson(getPath(record, idMember) ?? null);
    for (const { name, byId } of related) seen[name] = byId.get(key) ?? [];
    return seen;
  };
}
