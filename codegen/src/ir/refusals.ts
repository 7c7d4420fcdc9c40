import { SpecError, SpecErrorList, pointerSegment } from "../errors.js";
import { readFact } from "../facts/read-fact.js";
import type { Json } from "../domain/types.js";
import type { ErrorCodeIr, RefusalRuleIr, ResourceIr } from "./model.js";

/** Our operation extension: refusals the server answers under a condition (docs/extensions.md). */
export const REFUSALS_EXTENSION = "x-powercontext-refusals";

/**
 * Reads `x-powercontext-refusals` of one operation (docs/extensions.md,
 * `refusal-rule`), whose shape the loader checked, against the registry and the
 * request: each `code` is a registry code with the rule's status; `scope`, `present`,
 * `empty`, `untrimmed` and the members of `includes` and `above` are request members; each path of
 * `equals`, `outside`, `unknown` and `record` starts at one; `unknown` and `record` name a
 * resource of the registry, with one key per `within` member of it. Empty without the extension.
 *
 * @param at - JSON pointer of the operation
 * @param members - the request's members (parameters by wire name and body properties)
 * @param registry - the document's error-code registry
 * @param resources - the document's resource registry (`x-powercontext-resources`), for `unknown`
 * @throws {SpecErrorList} `invalid_extension` naming the pointer of every broken reference
 */
export function readRefusals(
  op: Json,
  at: string,
  members: readonly string[],
  registry: readonly ErrorCodeIr[],
  resources: readonly ResourceIr[] = [],
): RefusalRuleIr[] {
  const raw = op[REFUSALS_EXTENSION];
  if (raw === undefined) return [];
  const issues: SpecError[] = [];
  const rules = (raw as unknown[]).map((node) => readFact("refusal-rule", node) as RefusalRuleIr);
  for (const [index, rule] of rules.entries()) {
    const bad = (member: string, detail: string) =>
      issues.push(
        new SpecError("invalid_extension", { pointer: `${at}/${REFUSALS_EXTENSION}/${index}/${member}` }, detail),
      );
    const member = (name: string | null, where: string) => {
      if (name !== null && !members.includes(name))
        bad(where, `expected a member of the request, not ${JSON.stringify(name)}`);
    };
    const path = (value: string, where: string) => {
      if (!members.includes((value.split(".")[0] ?? "").replace(/(\[\]|\{\})$/, "")))
        bad(where, "expected a path from a member of the request");
    };
    const row = registry.find((r) => r.code === rule.code);
    if (row === undefined) bad("code", `${JSON.stringify(rule.code)} is not a code of x-powercontext-error-codes`);
    else if (row.status !== rule.status)
      bad("code", `${rule.code} has status ${row.status} in the registry, not ${rule.status}`);
    member(rule.scope, "scope");
    if (rule.when.present !== null) path(rule.when.present, "when/present");
    const empty = rule.when.empty;
    for (const name of empty === null ? [] : typeof empty === "string" ? [empty] : empty) member(name, "when/empty");
    for (const [index, name] of rule.when.untrimmed.entries()) member(name, `when/untrimmed/${index}`);
    for (const [key, wire] of [
      ["includes", "includes"],
      ["above", "above"],
      ["wordsAbove", "words_above"],
    ] as const)
      for (const name of Object.keys(rule.when[key])) member(name, `when/${wire}/${pointerSegment(name)}`);
    for (const name of Object.keys(rule.when.equals)) path(name, `when/equals/${pointerSegment(name)}`);
    for (const name of Object.keys(rule.when.outside)) path(name, `when/outside/${pointerSegment(name)}`);
    for (const [name, named] of [
      ["unknown", rule.when.unknown],
      ["record", rule.when.record],
    ] as const) {
      if (named === null) continue;
      const resource = resources.find((r) => r.name === named.resource);
      if (resource === undefined) {
        bad(`when/${name}/resource`, `${JSON.stringify(named.resource)} is not a resource of x-powercontext-resources`);
        continue;
      }
      path(named.id, `when/${name}/id`);
      if (named.within.length !== resource.within.length)
        bad(
          `when/${name}/within`,
          `expected ${resource.within.length} keys, one per within member of ${resource.name}`,
        );
      else
        named.within.forEach((key, i) => {
          if (typeof key === "string") path(key, `when/${name}/within/${i}`);
        });
    }
  }
  if (issues.length > 0) throw new SpecErrorList(issues);
  return rules;
}
