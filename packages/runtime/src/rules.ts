/**
 * `@powercontext/runtime/rules`: the model rules of the contract (docs/architecture.md,
 * "Model rules") applied to a request. The generated validator map composes
 * {@link withRules} over the schema validators; the mock reads {@link firstBreach}. It
 * imports nothing of the transport.
 */
export { firstBreach, withRules } from "./rules/engine.js";
export type { DigestOf } from "./rules/checks.js";
export { rewritten } from "./rules/rewrite.js";
export { foldKey, strip } from "./rules/values.js";
export type { Rule, RuleBreach, RuleCondition, RuleScalar, RuleSite, RuleStep } from "./rules/rule-types.js";
