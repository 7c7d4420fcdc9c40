import type { ApiIr, ModelRuleIr, OperationIr } from "../ir/model.js";

/** One site of an operation's rules as data: the steps from the request root and the rules found there. */
export interface RuleSiteData {
  readonly at: OperationIr["ruleSites"][number]["at"];
  readonly rules: readonly object[];
}

/** Each schema's rules by its name, made once per IR (every operation asks). */
const RULES_BY_SCHEMA = new WeakMap<ApiIr, ReadonlyMap<string, readonly ModelRuleIr[]>>();

function rulesBySchema(ir: ApiIr): ReadonlyMap<string, readonly ModelRuleIr[]> {
  let bySchema = RULES_BY_SCHEMA.get(ir);
  if (bySchema === undefined) {
    bySchema = new Map(ir.schemas.map((s) => [s.name, s.rules]));
    RULES_BY_SCHEMA.set(ir, bySchema);
  }
  return bySchema;
}

/**
 * The model rules an operation's request reaches (`OperationIr.ruleSites`), as data the
 * runtime's rule engine reads (`@powercontext/runtime/rules`), for the rules `keep` admits:
 * `wire` ones for the SDK's request validators, all of them for the mock. `bindings` keeps
 * each rule's `stage` and `answer`; without it a rule is only its check. Sites left
 * without rules are dropped, and so are the SDK's sites holding only `trim` (a rewrite
 * the release's model makes, which the SDK leaves to the server).
 */
export function ruleSiteData(
  ir: ApiIr,
  op: OperationIr,
  keep: (rule: ModelRuleIr) => boolean,
  bindings: boolean,
): RuleSiteData[] {
  const bySchema = rulesBySchema(ir);
  return op.ruleSites
    .map((site) => ({
      at: site.at,
      rules: (bySchema.get(site.schema) ?? []).filter(keep).map((rule) => {
        if (bindings) return rule;
        const { stage: _stage, answer: _answer, ...check } = rule;
        return check;
      }),
    }))
    .map((site) => (bindings ? site : { ...site, rules: site.rules.filter((r) => (r as ModelRuleIr).kind !== "trim") }))
    .filter((site) => site.rules.length > 0);
}
