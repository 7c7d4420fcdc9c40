import { SpecError, SpecErrorList, pointerSegment } from "../errors.js";
import { readFact } from "../facts/read-fact.js";
import type { Json } from "../domain/types.js";
import type { ModelRuleIr } from "./model.js";

/** Our schema extension: a list of `{ rule, ...arguments }` (docs/extensions.md, `model-rule`). */
export const RULES_EXTENSION = "x-powercontext-rules";
/** The release's own schema extension: exactly one of these members is sent, and it is not null. */
export const EXCLUSIVE_FIELDS_EXTENSION = "x-powercontext-exclusive-fields";

/**
 * The rules of one component schema, whose shapes the loader checked:
 * `x-powercontext-rules` in order, then the release's `x-powercontext-exclusive-fields`
 * as an `exclusive` rule. A rule without `members` that may leave them out applies to
 * every property; every member a rule names (and the first step of a condition's
 * path) must be a property of the schema.
 *
 * @param at - JSON pointer of the schema
 * @throws {SpecErrorList} `invalid_extension` naming the pointer of every rule that names another member
 */
export function readModelRules(schema: Json, at: string): ModelRuleIr[] {
  const properties =
    typeof schema.properties === "object" && schema.properties !== null ? Object.keys(schema.properties) : [];
  const issues: SpecError[] = [];
  const written = (schema[RULES_EXTENSION] ?? []) as unknown[];
  const rules = written.map((node) => readFact("model-rule", node) as ModelRuleIr);
  const exclusive = schema[EXCLUSIVE_FIELDS_EXTENSION];
  if (exclusive !== undefined) rules.push({ kind: "exclusive", members: exclusive as string[] });
  const filled = rules.map((rule, index) => {
    const where = index < written.length ? `${at}/${RULES_EXTENSION}/${index}` : `${at}/${EXCLUSIVE_FIELDS_EXTENSION}`;
    const named =
      rule.kind === "span" ? [rule.from, rule.to] : "member" in rule ? [rule.member, rule.when.path[0] ?? ""] : [];
    const members = "members" in rule ? (rule.members ?? properties) : [];
    const unknown = [...named, ...members].filter((name) => !properties.includes(name));
    if (unknown.length > 0)
      issues.push(
        new SpecError(
          "invalid_extension",
          { pointer: where },
          `${rule.kind}: names ${unknown.join(", ")}, not properties of the schema`,
        ),
      );
    if (rule.kind === "span" && rule.max < rule.min)
      issues.push(new SpecError("invalid_extension", { pointer: where }, "span: min must not exceed max"));
    return "members" in rule ? { ...rule, members } : rule;
  });
  if (issues.length > 0) throw new SpecErrorList(issues);
  return filled;
}

/** The pointer of a component schema. */
export function schemaPointer(name: string): string {
  return `/components/schemas/${pointerSegment(name)}`;
}
