import { SpecError, SpecErrorList, pointerSegment } from "../errors.js";
import type { Json } from "../domain/types.js";
import type { ModelRuleCheckIr, ModelRuleIr, RuleAnswerIr, RuleCondition, RuleScalar } from "./model.js";
import { ruleShapeIssues } from "./model-rules-schema.js";

/** Our schema extension: a list of `{ rule, ...arguments }` (docs/architecture.md, "Model rules"). */
export const RULES_EXTENSION = "x-powercontext-rules";
/** The release's own schema extension: exactly one of these members is sent, and it is not null. */
export const EXCLUSIVE_FIELDS_EXTENSION = "x-powercontext-exclusive-fields";

/** Rules whose only argument is a list of members (`not-null` and `finite-numbers` default to every property). */
const MEMBER_RULES = new Set(["trim", "not-null", "finite-numbers", "not-blank", "after-now", "zip-archive"]);

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
      const check = readCheck(node, properties);
      if (check === null) {
        bad(`${String(node.rule)}: min must not exceed max`);
        return;
      }
      rules.push({ ...check, ...binding(node) } as ModelRuleIr);
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

function binding(node: Json): Pick<ModelRuleIr, "stage" | "answer"> {
  if (node.stage !== "runtime") return { stage: "wire", answer: null };
  return { stage: "runtime", answer: readAnswer(node.answer) };
}

function readAnswer(node: unknown): RuleAnswerIr {
  if (node === undefined || node === "issue") return { kind: "issue", type: "value_error", loc: null };
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

function condition(node: Json): RuleCondition {
  const negate = Array.isArray(node["not-in"]);
  return { path: node.path as string[], in: (negate ? node["not-in"] : node.in) as RuleScalar[], negate };
}

/** The check of a shape-valid rule, or null when its bounds contradict each other. */
function readCheck(node: Json, properties: readonly string[]): ModelRuleCheckIr | null {
  const kind = node.rule as string;
  const members = (node.members as string[] | undefined) ?? [...properties];
  const bounded = (min: unknown, max: unknown) => typeof min !== "number" || typeof max !== "number" || min <= max;
  if (kind === "trim") return node.normalize === "nfc" ? { kind, members, normalize: true } : { kind, members };
  if (kind === "sort-items") return { kind, members };
  if (MEMBER_RULES.has(kind)) return { kind: kind as "not-null", members };
  switch (kind) {
    case "no-outer-whitespace":
      return { kind, members, side: node.side === "end" ? "end" : "both" };
    case "unique-items":
      return {
        kind,
        members,
        by: (node.by as string[] | undefined) ?? null,
        compare: node.compare === "nfc-casefold" ? "nfc-casefold" : "exact",
      };
    case "relative-path":
      return { kind, members, allowEmpty: node["allow-empty"] === true };
    case "before":
      return { kind, from: String(node.from), to: String(node.to) };
    case "span": {
      const min = (node.min as number | undefined) ?? 0;
      return bounded(min, node.max)
        ? { kind, from: String(node.from), to: String(node.to), min, max: node.max as number }
        : null;
    }
    case "required-when":
    case "forbidden-unless":
      return { kind, member: String(node.member), when: condition(node.when as Json) };
    case "items-when":
      return bounded(node.min, node.max)
        ? {
            kind,
            member: String(node.member),
            when: condition(node.when as Json),
            min: (node.min as number | undefined) ?? null,
            max: (node.max as number | undefined) ?? null,
          }
        : null;
    case "constrain-when": {
      const negate = Array.isArray(node["not-in"]);
      return bounded(node.min, node.max)
        ? {
            kind,
            when: condition(node.when as Json),
            path: node.path as string[],
            in: ((negate ? node["not-in"] : node.in) as RuleScalar[] | undefined) ?? null,
            negate,
            min: (node.min as number | undefined) ?? null,
            max: (node.max as number | undefined) ?? null,
            pattern: (node.pattern as string | undefined) ?? null,
          }
        : null;
    }
    case "one-of":
    case "none-of":
      return { kind, path: node.path as string[], in: node.in as RuleScalar[] };
    case "different":
    case "same":
      return { kind, paths: node.paths as string[][] };
    case "digest":
      return { kind, member: String(node.member), of: node.of as string[] };
    case "member-of":
      return { kind, path: node.path as string[], list: node.list as string[] };
    case "max-sum":
      return { kind, path: node.path as string[], max: node.max as number };
    case "max-bytes":
      return { kind, members, max: node.max as number, normalize: node.normalize === "nfc-strip" };
    case "max-items-together":
      return { kind, members, max: node.max as number };
    default:
      return { kind: "excluded-categories", members, categories: node.categories as string[] };
  }
}

/** The pointer of a component schema. */
export function schemaPointer(name: string): string {
  return `/components/schemas/${pointerSegment(name)}`;
}
