import type { ValidateFunction } from "../validation/validator.js";
import { checkRule, type DigestOf } from "./checks.js";
import type { Rule, RuleBreach, RuleSite, RuleStep } from "./rule-types.js";
import { isRecord, propertyOf, strip } from "./values.js";

type Located = { readonly value: Readonly<Record<string, unknown>>; readonly at: readonly (string | number)[] };

/** The objects a site's steps reach from the request root, with their paths (the objects themselves, not copies). */
export function reach(root: unknown, steps: readonly RuleStep[]): Located[] {
  let found: { value: unknown; at: (string | number)[] }[] = [{ value: root, at: [] }];
  for (const step of steps) {
    const next: typeof found = [];
    for (const { value, at } of found) {
      if (typeof step !== "string") {
        const passes =
          isRecord(value) &&
          ("has" in step
            ? step.has.every((member) => value[member] !== undefined)
            : step.in.includes(value[step.if] as never));
        if (passes) next.push({ value, at });
      } else if (step === "[]") {
        if (Array.isArray(value))
          for (const [index, item] of value.entries()) next.push({ value: item, at: [...at, index] });
      } else if (isRecord(value) && value[step] !== undefined && value[step] !== null) {
        next.push({ value: value[step], at: [...at, step] });
      }
    }
    found = next;
  }
  return found.filter((f): f is { value: Readonly<Record<string, unknown>>; at: (string | number)[] } =>
    isRecord(f.value),
  );
}

/** A copy of `object` whose present string members `rule` names lost their surrounding whitespace (after NFC, with `normalize`). */
export function trimmed(
  object: Readonly<Record<string, unknown>>,
  rule: Extract<Rule, { kind: "trim" }>,
): Readonly<Record<string, unknown>> {
  const copy: Record<string, unknown> = { ...object };
  for (const member of rule.members) {
    const name = propertyOf(member);
    const current = copy[name];
    if (typeof current === "string") copy[name] = strip(rule.normalize === "nfc" ? current.normalize("NFC") : current);
  }
  return copy;
}

/**
 * The first rule `request` breaks: sites in order, each object a site reaches in order,
 * its rules in order, each reading the object as the `trim` rules before it left it. Only the rules `only` admits are checked (all by default).
 *
 * @param now - the clock `after-now` compares with, ms since the epoch (default: `Date.now()`)
 * @param digestOf - what a `digest` rule compares with; without it such rules check nothing
 */
export function firstBreach<R extends Rule>(
  request: unknown,
  sites: readonly RuleSite<R>[],
  only: (rule: R) => boolean = () => true,
  now: number = Date.now(),
  digestOf?: DigestOf,
): RuleBreach<R> | null {
  for (const site of sites) {
    const rules = site.rules.filter(only);
    if (rules.length === 0) continue;
    for (const { value, at } of reach(request, site.at)) {
      // A `trim` rule changes how the rules after it read its members (the server reads them trimmed).
      let view = value;
      for (const rule of rules) {
        if (rule.kind === "trim") view = trimmed(view, rule);
        const finding = checkRule(rule, view, now, digestOf);
        if (finding !== null) return { rule, at, member: finding.member, message: finding.message };
      }
    }
  }
  return null;
}

/**
 * A request validator that also checks the model rules the request's schemas carry: the
 * schema first (its issue as it was), then the rules, whose breach is one issue with
 * keyword `x-powercontext-rules`, `params: { rule }` and the pointer of the member.
 * Composed by the generated validator map; `validate` itself is left as it is.
 */
export function withRules(validate: ValidateFunction, sites: readonly RuleSite[]): ValidateFunction {
  const checked = ((data: unknown, text?: string): boolean => {
    if (!validate(data, text)) {
      checked.errors = validate.errors;
      return false;
    }
    const breach = firstBreach(data, sites);
    if (breach === null) {
      checked.errors = null;
      return true;
    }
    const steps = breach.member === null ? breach.at : [...breach.at, breach.member];
    checked.errors = [
      {
        instancePath: steps.map((s) => `/${String(s).replace(/~/g, "~0").replace(/\//g, "~1")}`).join(""),
        schemaPath: "",
        keyword: "x-powercontext-rules",
        params: { rule: breach.rule.kind },
        message: breach.message,
      },
    ];
    return false;
  }) as ValidateFunction;
  checked.errors = null;
  return checked;
}
