import { SpecError, SpecErrorList, pointerSegment } from "../errors.js";
import type { Json } from "./domain.js";
import type { ModelRuleIr, RuleCondition } from "./model.js";

/** Our schema extension: a list of `{ rule, ...arguments }` (docs/architecture.md, "Model rules"). */
export const RULES_EXTENSION = "x-powercontext-rules";
/** The release's own schema extension: exactly one of these members is sent, and it is not null. */
export const EXCLUSIVE_FIELDS_EXTENSION = "x-powercontext-exclusive-fields";

/** Rules whose only argument is a list of members; without `members`, every property of the schema. */
const MEMBER_RULES = new Set(["trim", "not-null", "finite-numbers", "not-blank", "unique-items"]);
/** Rules that need their `members` listed. */
const LISTED = new Set(["trim", "not-blank", "unique-items"]);

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function names(value: unknown): string[] | null {
  return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string" && v !== "")
    ? (value as string[])
    : null;
}

/**
 * The rules of one component schema: `x-powercontext-rules` in order, then the
 * release's `x-powercontext-exclusive-fields` as an `exclusive` rule. Every member a
 * rule names must be a property of the schema.
 *
 * @param at - JSON pointer of the schema
 * @throws {SpecErrorList} `invalid_extension` naming the pointer of every malformed rule
 */
export function readModelRules(schema: Json, at: string): ModelRuleIr[] {
  const issues: SpecError[] = [];
  const properties = isObject(schema.properties) ? Object.keys(schema.properties) : [];
  const rules: ModelRuleIr[] = [];
  const raw = schema[RULES_EXTENSION];
  const base = `${at}/${RULES_EXTENSION}`;
  if (raw !== undefined && !Array.isArray(raw)) {
    issues.push(new SpecError("invalid_extension", { pointer: base }, "expected a list of { rule: <name>, ... }"));
  } else {
    (raw ?? []).forEach((node: unknown, index: number) => {
      const where = `${base}/${index}`;
      const bad = (detail: string) => issues.push(new SpecError("invalid_extension", { pointer: where }, detail));
      if (!isObject(node)) {
        bad("expected { rule: <name>, ... }");
        return;
      }
      const rule = readRule(node, properties, bad);
      if (rule !== null) rules.push(rule);
    });
  }
  const exclusive = schema[EXCLUSIVE_FIELDS_EXTENSION];
  if (exclusive !== undefined) {
    const members = names(exclusive);
    const unknown = members?.filter((m) => !properties.includes(m)) ?? [];
    if (members === null || members.length < 2 || unknown.length > 0) {
      const detail =
        unknown.length > 0
          ? `names ${unknown.join(", ")}, not properties of the schema`
          : "expected a list of two or more property names";
      issues.push(new SpecError("invalid_extension", { pointer: `${at}/${EXCLUSIVE_FIELDS_EXTENSION}` }, detail));
    } else {
      rules.push({ kind: "exclusive", members });
    }
  }
  if (issues.length > 0) throw new SpecErrorList(issues);
  return rules;
}

function readRule(node: Json, properties: readonly string[], bad: (detail: string) => void): ModelRuleIr | null {
  const kind = node.rule;
  const member = (value: unknown, what: string): string | null => {
    if (typeof value === "string" && properties.includes(value)) return value;
    bad(`${String(kind)}: ${what} must name a property of the schema`);
    return null;
  };
  const memberList = (required: boolean): string[] | null => {
    if (node.members === undefined && !required) return [...properties];
    const list = names(node.members);
    const unknown = list?.filter((m) => !properties.includes(m)) ?? [];
    if (list === null || unknown.length > 0) {
      bad(
        `${String(kind)}: members must list properties of the schema${unknown.length > 0 ? ` (not: ${unknown.join(", ")})` : ""}`,
      );
      return null;
    }
    return list;
  };
  if (typeof kind === "string" && MEMBER_RULES.has(kind)) {
    const members = memberList(LISTED.has(kind));
    return members === null ? null : ({ kind, members } as ModelRuleIr);
  }
  switch (kind) {
    case "relative-path": {
      const members = memberList(true);
      if (node["allow-empty"] !== undefined && typeof node["allow-empty"] !== "boolean")
        bad("relative-path: allow-empty must be true or false");
      return members === null ? null : { kind, members, allowEmpty: node["allow-empty"] === true };
    }
    case "span": {
      const from = member(node.from, "from");
      const to = member(node.to, "to");
      const min = node.min ?? 0;
      if (!Number.isInteger(min) || !Number.isInteger(node.max) || (node.max as number) < (min as number))
        bad("span: min and max must be integers, min <= max");
      return from === null || to === null ? null : { kind, from, to, min: min as number, max: node.max as number };
    }
    case "required-when":
    case "forbidden-unless": {
      const target = member(node.member, "member");
      const when = readCondition(node.when, properties);
      if (when === null) bad(`${kind}: when must be { path: [<property>, ...], in: [<value>, ...] }`);
      return target === null || when === null ? null : { kind, member: target, when };
    }
    case "max-items-together": {
      const members = memberList(true);
      if (!Number.isInteger(node.max) || (node.max as number) < 0)
        bad("max-items-together: max must be a non-negative integer");
      return members === null ? null : { kind, members, max: node.max as number };
    }
    default:
      bad(`unknown rule ${JSON.stringify(kind)}`);
      return null;
  }
}

function readCondition(node: unknown, properties: readonly string[]): RuleCondition | null {
  if (!isObject(node)) return null;
  const path = names(node.path);
  const values = node.in;
  if (path === null || !properties.includes(path[0] as string) || !Array.isArray(values) || values.length === 0)
    return null;
  if (!values.every((v) => v === null || ["string", "number", "boolean"].includes(typeof v))) return null;
  return { path, in: values as RuleCondition["in"] };
}

/** The pointer of a component schema. */
export function schemaPointer(name: string): string {
  return `/components/schemas/${pointerSegment(name)}`;
}
