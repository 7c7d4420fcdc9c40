/**
 * The model rules as the generator writes them for the TypeScript readers (docs/architecture.md,
 * "Model rules"; docs/extensions.md, `rule-check`): one object per rule, `kind` plus its
 * arguments, typed by `generated/facts.ts` from the extension schema, as in the generator's IR.
 */

import type { RuleCheckFact, RuleConditionFact, RuleStepFact } from "../generated/facts.js";

/** A constant a rule compares with. */
export type RuleScalar = string | number | boolean | null;

/** The value at `path` is one of `in`, or none of `notIn` (`rule-condition` of the extension schema). */
export type RuleCondition = RuleConditionFact;

/** What one rule checks (`rule-check` of the extension schema). */
export type Rule = RuleCheckFact;

/**
 * A step of a site's path (`rule-step`): a member name, `[]` for every item of a list, or a
 * guard on the object reached: a member holding one of some values (`if`/`in`), or members
 * all present (`has`).
 */
export type RuleStep = RuleStepFact;

/** Where rules apply in a request: the steps from the request root, and the rules of the schema found there. */
export interface RuleSite<R extends Rule = Rule> {
  readonly at: readonly RuleStep[];
  readonly rules: readonly R[];
}

/** A rule a request breaks: the rule, where the object carrying it is, and what is wrong. */
export interface RuleBreach<R extends Rule = Rule> {
  readonly rule: R;
  /** Member names and list indexes from the request root to the object the rule is on. */
  readonly at: readonly (string | number)[];
  /** The member of that object the breach is in (its first step), or null for the object as a whole. */
  readonly member: string | null;
  /** What is wrong, in our words. */
  readonly message: string;
}
