/**
 * The model rules as the generator writes them for the TypeScript readers (docs/architecture.md,
 * "Model rules"): one object per rule, `kind` plus its arguments, as in the generator's IR.
 * A member of `members` may end with `[]` (each item of a list), `{}` (each key of a map) or
 * `{*}` (each value of a map); a path steps into every item of a list with `[]`.
 */

/** A constant a rule compares with. */
export type RuleScalar = string | number | boolean | null;

/** The value at `path` is one of `in` (none of them, with `negate`). */
export interface RuleCondition {
  readonly path: readonly string[];
  readonly in: readonly RuleScalar[];
  readonly negate: boolean;
}

/** What one rule checks. */
export type Rule =
  | {
      readonly kind: "not-null" | "finite-numbers" | "not-blank" | "after-now" | "zip-archive";
      readonly members: readonly string[];
    }
  | { readonly kind: "trim"; readonly members: readonly string[]; readonly normalize?: boolean }
  | { readonly kind: "sort-items"; readonly members: readonly string[] }
  | { readonly kind: "no-outer-whitespace"; readonly members: readonly string[]; readonly side: "both" | "end" }
  | {
      readonly kind: "unique-items";
      readonly members: readonly string[];
      readonly by: readonly string[] | null;
      readonly compare: "exact" | "nfc-casefold";
    }
  | { readonly kind: "relative-path"; readonly members: readonly string[]; readonly allowEmpty: boolean }
  | { readonly kind: "span"; readonly from: string; readonly to: string; readonly min: number; readonly max: number }
  /** When both members are present date-times, `from` is an instant earlier than `to`. */
  | { readonly kind: "before"; readonly from: string; readonly to: string }
  | { readonly kind: "required-when" | "forbidden-unless"; readonly member: string; readonly when: RuleCondition }
  | {
      readonly kind: "items-when";
      readonly member: string;
      readonly when: RuleCondition;
      readonly min: number | null;
      readonly max: number | null;
    }
  | {
      readonly kind: "constrain-when";
      readonly when: RuleCondition;
      readonly path: readonly string[];
      readonly in: readonly RuleScalar[] | null;
      readonly negate: boolean;
      readonly min: number | null;
      readonly max: number | null;
      /** a regular expression every string at `path` matches (unanchored: the pattern anchors itself) */
      readonly pattern?: string | null;
    }
  | { readonly kind: "one-of" | "none-of"; readonly path: readonly string[]; readonly in: readonly RuleScalar[] }
  | { readonly kind: "different" | "same"; readonly paths: readonly (readonly string[])[] }
  | { readonly kind: "digest"; readonly member: string; readonly of: readonly string[] }
  | { readonly kind: "member-of"; readonly path: readonly string[]; readonly list: readonly string[] }
  | { readonly kind: "max-sum"; readonly path: readonly string[]; readonly max: number }
  | {
      readonly kind: "max-bytes";
      readonly members: readonly string[];
      readonly max: number;
      readonly normalize: boolean;
    }
  | { readonly kind: "max-items-together"; readonly members: readonly string[]; readonly max: number }
  | {
      readonly kind: "excluded-categories";
      readonly members: readonly string[];
      readonly categories: readonly string[];
    }
  | { readonly kind: "exclusive"; readonly members: readonly string[] };

/**
 * A step of a site's path: a member name, `[]` for every item of a list, or a guard on the
 * object reached: a member holding one of some values (`if`/`in`), or members all present
 * (`has`, the required members of a `oneOf` branch nothing else tells apart).
 */
export type RuleStep =
  | string
  | { readonly if: string; readonly in: readonly RuleScalar[] }
  | { readonly has: readonly string[] };

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
