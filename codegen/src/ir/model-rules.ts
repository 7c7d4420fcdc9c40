import { SpecError, SpecErrorList, pointerSegment } from "../errors.js";
import type { Json } from "../domain/types.js";
import { readFact } from "../facts/read-fact.js";
import type { ModelRuleIr, RuleAnswerIr } from "./model.js";
import { ruleShapeIssues } from "./model-rules-schema.js";

/** Our schema extension: a list of `{ rule, ...arguments }` (docs/architecture.md, "Model rules"). */
export const RULES_EXTENSION = "x-powercontext-rules";
/** The release's own schema extension: exactly one of these members is sent, and it is not null. */
export const EXCLUSIVE_FIELDS_EXTENSION = "x-powercontext-exclusive-fields";

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The property a member names: `tags[]`, `metadata{}` and `metadata{*}` name `tags` and `metadata`. */
export function memberProperty(member: string): string {
  return member.replace(/(\[\]|\{\}|\{\*\})$/, "");
}

/**
 * The rules of one component schema: `x-powercontext-rules` in order, then the
 * release's `x-powercontext-exclusive-fields` as an `exclusive` rule. The shape of
 * each rule is checked against the rule language's JSON Schema
 * (`model-rules` of `codegen/schema/extensions.schema.json`); what a schema cannot say is checked
 * here: every member a rule names (and the first step of every path) must be a
 * property of the schema.
 *
 * @param at - JSON pointer of the schema
 * @throws {SpecErrorList} `invalid_extension` naming the pointer of every malformed rule
 */
export function readModelRules(schema: Json, at: string): ModelRuleIr[] {
  const properties = isObject(schema.properties) ? Object.keys(schema.properties) : [];
  const rules: ModelRuleIr[] = [];
  const raw = schema[RULES_EXTENSION];
  const base = `${at}/${RULES_EXTENSION}`;
  const issues: SpecError[] =
    raw === undefined
      ? []
      : ruleShapeIssues(raw).map(
          (issue) => new SpecError("invalid_extension", { pointer: `${base}${issue.pointer}` }, issue.detail),
        );
  if (issues.length === 0 && Array.isArray(raw)) {
    raw.forEach((node: Json, index: number) => {
      const bad = (detail: string) =>
        issues.push(new SpecError("invalid_extension", { pointer: `${base}/${index}` }, detail));
      const unknown = namedProperties(node).filter((name) => !properties.includes(name));
      if (unknown.length > 0) {
        bad(`${String(node.rule)}: names ${unknown.join(", ")}, not properties of the schema`);
        return;
      }
      const rule = readRule(node, properties);
      // Read, so a bound left out is its default (a span's min 0) when the two are compared.
      const { min, max } = rule as { min?: unknown; max?: unknown };
      if (typeof min === "number" && typeof max === "number" && min > max) {
        bad(`${String(node.rule)}: min must not exceed max`);
        return;
      }
      rules.push(rule);
    });
  }
  const exclusive = schema[EXCLUSIVE_FIELDS_EXTENSION];
  if (exclusive !== undefined) {
    const members =
      Array.isArray(exclusive) && exclusive.every((m) => typeof m === "string" && m !== "")
        ? (exclusive as string[])
        : null;
    const unknown = members?.filter((m) => !properties.includes(m)) ?? [];
    if (members === null || members.length < 2 || unknown.length > 0) {
      const detail =
        unknown.length > 0
          ? `names ${unknown.join(", ")}, not properties of the schema`
          : "expected a list of two or more property names";
      issues.push(new SpecError("invalid_extension", { pointer: `${at}/${EXCLUSIVE_FIELDS_EXTENSION}` }, detail));
    } else {
      rules.push({ kind: "exclusive", members, stage: "wire", answer: null });
    }
  }
  if (issues.length > 0) throw new SpecErrorList(issues);
  return rules;
}

/** Every property a (shape-valid) rule names: its members, from/to, member, and the first step of each path. */
function namedProperties(node: Json): string[] {
  const paths = [node.path, node.list, node.when, ...(Array.isArray(node.paths) ? node.paths : [])].map((p) =>
    isObject(p) ? p.path : p,
  );
  return [
    ...((node.members as string[] | undefined) ?? []).map(memberProperty),
    ...[node.member, node.from, node.to].filter((m): m is string => typeof m === "string"),
    ...((node.of as string[] | undefined) ?? []),
    ...paths.filter(Array.isArray).map((p) => String(p[0])),
  ];
}

/**
 * A shape-valid rule as the IR carries it (`model-rule` of the extension schema, read by
 * `readFact`), with what the schema leaves to this reader: the members of a rule written
 * without them (every property of the schema), and the answer of a runtime rule.
 */
function readRule(node: Json, properties: readonly string[]): ModelRuleIr {
  const fact = readFact("model-rule", node) as { members?: readonly string[]; stage: string; answer: unknown };
  return {
    ...fact,
    ...("members" in fact && fact.members === undefined ? { members: [...properties] } : {}),
    answer: fact.stage === "runtime" ? readAnswer(fact.answer) : null,
  } as ModelRuleIr;
}

/** The answer of a runtime rule: its short forms (`issue`, `opaque`) and left-out members filled in. */
function readAnswer(node: unknown): RuleAnswerIr {
  if (node === null || node === "issue") return { kind: "issue", type: "value_error", loc: null };
  if (node === "opaque") return { kind: "opaque" };
  const answer = node as Json;
  if (isObject(answer.issue)) {
    const issue = answer.issue;
    return {
      kind: "issue",
      type: typeof issue.type === "string" ? issue.type : "value_error",
      loc: Array.isArray(issue.loc) ? (issue.loc as (string | number)[]) : issue.loc === "object" ? "object" : null,
    };
  }
  if (typeof answer.field === "string") return { kind: "field", field: answer.field, reason: String(answer.reason) };
  return {
    kind: "refusal",
    status: Number(answer.status),
    code: String(answer.code),
    details: isObject(answer.details) ? answer.details : null,
    access: answer.access === true,
  };
}

/** The pointer of a component schema. */
export function schemaPointer(name: string): string {
  return `/components/schemas/${pointerSegment(name)}`;
}
