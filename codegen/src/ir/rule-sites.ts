import { SpecError, pointerSegment } from "../errors.js";
import type { Json, RefLookup } from "../domain/types.js";
import type { OperationIr, RuleIssuesIr, RuleScalar, RuleSiteIr } from "./model.js";

/** Operation extension: how the runtime rules reached from its request answer (docs/architecture.md, "Model rules"). */
export const RULE_ANSWER_EXTENSION = "x-powercontext-rule-answer";

const COMPONENT = "#/components/schemas/";
type Step = RuleSiteIr["at"][number];

/**
 * `x-powercontext-rule-answer: { issues?: standalone | body | opaque | { field, reason }, after?: access, first?, branches? }`
 * of an operation; `standalone` without it (or without `issues`).
 *
 * @throws {SpecError} `invalid_extension` for any other shape
 */
export function readRuleIssues(operation: Json, pointer: string): RuleIssuesIr {
  const raw = ruleAnswer(operation, pointer);
  if (raw === null || raw.issues === undefined) return "standalone";
  const named = raw.issues as Json | null;
  if (typeof named === "object" && named !== null) return { field: String(named.field), reason: String(named.reason) };
  return named as unknown as RuleIssuesIr;
}

/**
 * True when the operation's `x-powercontext-rule-answer` says `after: access`: its
 * runtime rules are checked once the checks after access have passed (the handler
 * looks its records up before it builds the models the rules stand for).
 *
 * @throws {SpecError} `invalid_extension` for a malformed extension
 */
export function readRulesAfterAccess(operation: Json, pointer: string): boolean {
  return ruleAnswer(operation, pointer)?.after === "access";
}

/**
 * The operation's `x-powercontext-rule-answer` `branches`: the parameter choosing the
 * body's `oneOf` branch, its value per branch schema, and the refusal of a branch whose
 * model refuses the body where it is not the rule answer; null without it.
 *
 * @param registry - the contract's error codes: each refusal must be one, with its status
 * @throws {SpecError} `invalid_extension` for a malformed extension, a refusal of a value
 *   no branch has, or one whose code is no registry code of its status
 */
export function readRuleBranches(
  operation: Json,
  pointer: string,
  registry: readonly { readonly code: string; readonly status: number }[] = [],
): OperationIr["ruleBranches"] {
  const branches = ruleAnswer(operation, pointer)?.branches as Json | undefined;
  if (branches === undefined) return null;
  const schemas = { ...(branches.schemas as Record<string, string>) };
  const refusals = { ...((branches.refusals ?? {}) as Record<string, { status: number; code: string }>) };
  for (const [value, refusal] of Object.entries(refusals)) {
    const at = `${pointer}/${RULE_ANSWER_EXTENSION}/branches/refusals/${pointerSegment(value)}`;
    if (!Object.hasOwn(schemas, value))
      throw new SpecError("invalid_extension", { pointer: at }, `${value} chooses no branch of the body`);
    if (!registry.some((row) => row.code === refusal.code && row.status === refusal.status))
      throw new SpecError(
        "invalid_extension",
        { pointer: at },
        `${refusal.code} is not a code of x-powercontext-error-codes with status ${refusal.status}`,
      );
  }
  return { parameter: String(branches.parameter), schemas, refusals };
}

/**
 * The operation's `x-powercontext-rule-answer` `first`: the member choosing the body
 * branches whose runtime rules the handler checks before anything else, and its values;
 * null without it. Each value must guard a branch of the operation's rule sites.
 *
 * @param sites - where the operation's ruled schemas sit in its flat request
 * @throws {SpecError} `invalid_extension` for a malformed extension, or a value that guards no branch with rules
 */
export function readRulesFirst(
  operation: Json,
  pointer: string,
  sites: readonly RuleSiteIr[],
): OperationIr["rulesFirst"] {
  const first = ruleAnswer(operation, pointer)?.first as Json | undefined;
  if (first === undefined) return null;
  const [[member, values] = ["", []]] = Object.entries(first) as [string, unknown][];
  const guarded = (value: string) =>
    sites.some((site) => {
      const step = site.at[0];
      return typeof step === "object" && step !== null && "if" in step && step.if === member && step.in.includes(value);
    });
  const unguarded = (values as string[]).filter((value) => !guarded(value));
  if (unguarded.length > 0)
    throw new SpecError(
      "invalid_extension",
      { pointer: `${pointer}/${RULE_ANSWER_EXTENSION}/first/${member}` },
      `no rules of the request sit in a branch where ${member} is ${unguarded.join(", ")}`,
    );
  return { member, in: [...(values as string[])] };
}

/** The extension checked for shape; null without it. */
function ruleAnswer(operation: Json, pointer: string): Json | null {
  const raw = operation[RULE_ANSWER_EXTENSION];
  if (raw === undefined) return null;
  const bad = () =>
    new SpecError(
      "invalid_extension",
      { pointer: `${pointer}/${RULE_ANSWER_EXTENSION}` },
      "expected { issues?: standalone | body | opaque | { field, reason }, after?: access, first?: { member: [values] }, branches?: { parameter, schemas } } with at least one member",
    );
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw bad();
  const node = raw as Json;
  const keys = Object.keys(node);
  if (keys.length === 0 || keys.some((key) => !["issues", "after", "first", "branches"].includes(key))) throw bad();
  if (node.after !== undefined && node.after !== "access") throw bad();
  if (node.first !== undefined) {
    const first = node.first as Json | null;
    const entries = typeof first === "object" && first !== null && !Array.isArray(first) ? Object.values(first) : [];
    const values = entries[0];
    if (
      entries.length !== 1 ||
      !Array.isArray(values) ||
      values.length === 0 ||
      values.some((value) => typeof value !== "string" || value === "")
    )
      throw bad();
  }
  if (node.branches !== undefined) {
    const branches = node.branches as Json | null;
    const schemas = (branches as Json | null)?.schemas as Json | null | undefined;
    if (
      typeof branches !== "object" ||
      branches === null ||
      typeof branches.parameter !== "string" ||
      typeof schemas !== "object" ||
      schemas === null ||
      Object.values(schemas).some((name) => typeof name !== "string")
    )
      throw bad();
  }
  if (node.issues === undefined) return node;
  const named = node.issues as Json | null;
  const field =
    typeof named === "object" &&
    named !== null &&
    typeof named.field === "string" &&
    typeof named.reason === "string" &&
    Object.keys(named).length === 2;
  if (!(field || ["standalone", "body", "opaque"].includes(String(node.issues)))) throw bad();
  return node;
}

/**
 * Where the component schemas that carry model rules sit in an operation's flat request
 * object (parameters by wire name beside the body's members, or the body itself when the
 * operation has no parameters), in walk order, a schema after the ruled schemas inside it
 * (a nested model validates before the model holding it): properties in declaration order, list
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
  branches: OperationIr["ruleBranches"] = null,
): RuleSiteIr[] {
  if (ruled.size === 0) return [];
  const sites: RuleSiteIr[] = [];
  const walk = (schema: unknown, at: readonly Step[], entered: ReadonlySet<string>): void => {
    if (typeof schema !== "object" || schema === null) return;
    const node = schema as Json;
    if (typeof node.$ref === "string") {
      const name = node.$ref.startsWith(COMPONENT) ? decodeURIComponent(node.$ref.slice(COMPONENT.length)) : null;
      if (name === null || entered.has(name)) return;
      // The objects inside first, as the release's models validate a nested model before the
      // model holding it runs its own checks.
      walk(lookup(node.$ref), at, new Set([...entered, name]));
      if (ruled.has(name)) sites.push({ at, schema: name });
      return;
    }
    for (const part of (node.allOf as unknown[] | undefined) ?? []) walk(part, at, entered);
    for (const key of ["oneOf", "anyOf"] as const) {
      const options = (node[key] as unknown[] | undefined) ?? [];
      for (const branch of options) {
        const guard = options.length > 1 ? guardOf(node, branch as Json, lookup, branches) : null;
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

/**
 * What tells a `oneOf` branch apart: the discriminator values mapped to it, else the
 * operation's choosing parameter (`branches`) with the value it names the branch's schema
 * with, else a member with one allowed value, else the presence of every member it requires.
 */
function guardOf(parent: Json, branch: Json, lookup: RefLookup, branches: OperationIr["ruleBranches"]): Step | null {
  const discriminator = parent.discriminator as Json | undefined;
  if (discriminator !== undefined && typeof branch.$ref === "string") {
    const mapping = (discriminator.mapping ?? {}) as Record<string, string>;
    const values = Object.entries(mapping)
      .filter(([, ref]) => ref === branch.$ref)
      .map(([value]) => value);
    if (values.length > 0) return { if: String(discriminator.propertyName), in: values };
  }
  if (branches !== null && typeof branch.$ref === "string" && branch.$ref.startsWith(COMPONENT)) {
    const name = decodeURIComponent(branch.$ref.slice(COMPONENT.length));
    const values = Object.entries(branches.schemas)
      .filter(([, schema]) => schema === name)
      .map(([value]) => value);
    if (values.length > 0) return { if: branches.parameter, in: values };
  }
  const target = (typeof branch.$ref === "string" ? lookup(branch.$ref) : branch) as Json | undefined;
  const properties = (target?.properties ?? {}) as Record<string, Json>;
  for (const [name, sub] of Object.entries(properties)) {
    const values = Array.isArray(sub.enum) ? sub.enum : "const" in sub ? [sub.const] : null;
    if (values !== null && values.length === 1) return { if: name, in: values as RuleScalar[] };
  }
  // Nothing else tells it apart: an object with every member the branch requires.
  const required = Array.isArray(target?.required) ? (target.required as unknown[]).map(String) : [];
  return required.length > 0 ? { has: required } : null;
}
