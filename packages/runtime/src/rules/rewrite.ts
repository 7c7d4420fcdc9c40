import type { Rule, RuleSite } from "./rule-types.js";
import { reach, trimmed } from "./engine.js";
import { foldKey, propertyOf } from "./values.js";

type Rewrite = Extract<Rule, { kind: "trim" | "sort-items" | "null-as-absent" }>;

function isRewrite(rule: Rule): rule is Rewrite {
  return rule.kind === "trim" || rule.kind === "sort-items" || rule.kind === "null-as-absent";
}

/** UTF-8 byte order of two strings: the order of their code points. */
function byCodePoints(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  for (let i = 0; i < Math.min(left.length, right.length); i += 1) {
    const diff = (left[i]?.codePointAt(0) ?? 0) - (right[i]?.codePointAt(0) ?? 0);
    if (diff !== 0) return diff;
  }
  return left.length - right.length;
}

/**
 * `request` as the server reads and keeps it: a copy where every present string a
 * `trim` rule names lost its surrounding whitespace (after NFC, with `normalize`),
 * every list a `sort-items` rule names is in the order of its items' NFC case-folded
 * keys compared as UTF-8 bytes, and every member a `null-as-absent` rule names that
 * was sent as null is left out. Only the rules `only` admits rewrite; `request` itself
 * is left as it is.
 */
export function rewritten<R extends Rule>(
  request: unknown,
  sites: readonly RuleSite<R>[],
  only: (rule: R) => boolean,
): unknown {
  const rewrites = sites
    .map((site) => ({ at: site.at, rules: site.rules.filter(only).filter((r): r is R & Rewrite => isRewrite(r)) }))
    .filter((site) => site.rules.length > 0);
  if (rewrites.length === 0) return request;
  const copy = structuredClone(request);
  for (const site of rewrites) {
    for (const { value } of reach(copy, site.at)) {
      const object = value as Record<string, unknown>;
      for (const rule of site.rules) {
        if (rule.kind === "trim") {
          Object.assign(object, trimmed(object, rule));
          continue;
        }
        for (const member of rule.members) {
          const name = propertyOf(member);
          const current = object[name];
          if (rule.kind === "null-as-absent") {
            if (current === null) delete object[name];
            continue;
          }
          if (rule.kind === "sort-items" && Array.isArray(current))
            object[name] = [...current].sort((a, b) =>
              typeof a === "string" && typeof b === "string" ? byCodePoints(foldKey(a), foldKey(b)) : 0,
            );
        }
      }
    }
  }
  return copy;
}
