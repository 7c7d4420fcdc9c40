import { SpecError } from "../errors.js";
import type { Json, RefLookup } from "../domain/types.js";
import type { RuleIssuesIr, RulePhaseIr, RuleScalar, RuleSiteIr } from "./model.js";

/** Operation extension: how the runtime rules reached from its request answer (docs/architecture.md, "Model rules"). */
export const RULE_ANSWER_EXTENSION = "x-powercontext-rule-answer";

const COMPONENT = "#/components/schemas/";
type Step = RuleSiteIr["at"][number];

/**
 * `x-powercontext-rule-answer: { issues: standalone | body | opaque | { field, reason } }`
 * of an operation; `standalone` without it.
 *
 * @throws {SpecError} `invalid_extension` for any other shape
 */
export function readRuleIssues(operation: Json, pointer: string): RuleIssuesIr {
  const raw = operation[RULE_ANSWER_EXTENSION];
  if (raw === undefined) return "standalone";
  const issues = (raw as Json | null)?.issues;
  const named = issues as Json | null | undefined;
  const field =
    typeof named === "object" &&
    named !== null &&
    typeof named.field === "string" &&
    typeof named.reason === "string" &&
    Object.keys(named).length === 2;
  if (
    typeof raw !== "object" ||
    raw === null ||
    Object.keys(raw).some((key) => key !== "issues" && key !== "phase") ||
    !["handler", "service", undefined].includes((raw as Json).phase as string | undefined) ||
    !(field || ["standalone", "body", "opaque"].includes(String(issues)))
  )
    throw new SpecError(
      "invalid_extension",
      { pointer: `${pointer}/${RULE_ANSWER_EXTENSION}` },
      "expected { issues: standalone | body | opaque | { field, reason }, phase?: handler | service }",
    );
  return field ? { field: String(named?.field), reason: String(named?.reason) } : (issues as RuleIssuesIr);
}

/**
 * When an operation's runtime rules are checked (`x-powercontext-rule-answer`'s
 * `phase`): `service` without one. The shape is checked by {@link readRuleIssues}.
 */
export function readRulePhase(operation: Json): RulePhaseIr {
  const raw = operation[RULE_ANSWER_EXTENSION] as Json | undefined;
  return raw?.phase === "handler" ? "handler" : "service";
}

/**
 * Where the component schemas that carry model rules sit in an operation's flat request
 * object (parameters by wire name beside the body's members, or the body itself when the
 * operation has no parameters), in walk order: properties in declaration order, list
 * items as `[]`, `allOf` parts in place, and each `oneOf`/`anyOf` branch behind a guard
 * that tells it apart (its discriminator values, else a member with a single allowed
 * value). A component is entered once per path, so recursive schemas end.
 *
 * @param parameters - the operation's parameters: wire name and schema
 * @param body - the request body's schema, or null
 * @param ruled - the names of the component schemas with rules
 */
export function ruleSites(
  parameters: readonly { readonly name: string; readonly schema: Json }[],
  body: Json | null,
  ruled: ReadonlySet<string>,
  lookup: RefLookup,
): RuleSiteIr[] {
  if (ruled.size === 0) return [];
  const sites: RuleSiteIr[] = [];
  const walk = (schema: unknown, at: readonly Step[], entered: ReadonlySet<string>): void => {
    if (typeof schema !== "object" || schema === null) return;
    const node = schema as Json;
    if (typeof node.$ref === "string") {
      const name = node.$ref.startsWith(COMPONENT) ? decodeURIComponent(node.$ref.slice(COMPONENT.length)) : null;
      if (name === null || entered.has(name)) return;
      if (ruled.has(name)) sites.push({ at, schema: name });
      walk(lookup(node.$ref), at, new Set([...entered, name]));
      return;
    }
    for (const part of (node.allOf as unknown[] | undefined) ?? []) walk(part, at, entered);
    for (const key of ["oneOf", "anyOf"] as const) {
      const branches = (node[key] as unknown[] | undefined) ?? [];
      for (const branch of branches) {
        const guard = branches.length > 1 ? guardOf(node, branch as Json, lookup) : null;
        walk(branch, guard === null ? at : [...at, guard], entered);
      }
    }
    if (typeof node.properties === "object" && node.properties !== null)
      for (const [name, sub] of Object.entries(node.properties as Json)) walk(sub, [...at, name], entered);
    if (node.items !== undefined) walk(node.items, [...at, "[]"], entered);
  };
  for (const p of parameters) walk(p.schema, [p.name], new Set());
  if (body !== null) walk(body, [], new Set());
  return sites;
}

/** What tells a `oneOf` branch apart: the discriminator values mapped to it, else a member with one allowed value. */
function guardOf(parent: Json, branch: Json, lookup: RefLookup): Step | null {
  const discriminator = parent.discriminator as Json | undefined;
  if (discriminator !== undefined && typeof branch.$ref === "string") {
    const mapping = (discriminator.mapping ?? {}) as Record<string, string>;
    const values = Object.entries(mapping)
      .filter(([, ref]) => ref === branch.$ref)
      .map(([value]) => value);
    if (values.length > 0) return { if: String(discriminator.propertyName), in: values };
  }
  const target = (typeof branch.$ref === "string" ? lookup(branch.$ref) : branch) as Json | undefined;
  const properties = (target?.properties ?? {}) as Record<string, Json>;
  for (const [name, sub] of Object.entries(properties)) {
    const values = Array.isArray(sub.enum) ? sub.enum : "const" in sub ? [sub.const] : null;
    if (values !== null && values.length === 1) return { if: name, in: values as RuleScalar[] };
  }
  return null;
}
