import Ajv2020 from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv";
import { EXTENSIONS_SCHEMA } from "../facts/schema.js";

let compiled: ValidateFunction | null = null;

/** The validator of the rule language, `model-rules` of codegen/schema/extensions.schema.json. */
function validator(): ValidateFunction {
  if (compiled === null) {
    const ajv = new Ajv2020.default({ allErrors: true, strict: false });
    ajv.addSchema(EXTENSIONS_SCHEMA);
    compiled = ajv.compile({ $ref: `${String(EXTENSIONS_SCHEMA.$id)}#/$defs/model-rules` });
  }
  return compiled;
}

/** One shape fault of an `x-powercontext-rules` value: the JSON pointer below the extension, and what is wrong. */
export interface RuleShapeIssue {
  readonly pointer: string;
  readonly detail: string;
}

/**
 * Checks an `x-powercontext-rules` value against the rule language (`model-rules` of
 * `codegen/schema/extensions.schema.json`) with ajv. A rule that breaks it gets one
 * issue: the fault found deepest in it (the branch of its own `rule` kind, not the
 * other kinds' complaints), at its pointer.
 *
 * @returns no issue for a valid value
 */
export function ruleShapeIssues(value: unknown): RuleShapeIssue[] {
  const validate = validator();
  if (validate(value)) return [];
  const errors = (validate.errors ?? []).filter((e) => !["oneOf", "anyOf", "if", "not"].includes(e.keyword));
  if (!Array.isArray(value)) return [{ pointer: "", detail: "expected a list of { rule: <name>, ... }" }];
  const issues: RuleShapeIssue[] = [];
  (value as unknown[]).forEach((rule, index) => {
    const own = errors.filter((e) => e.instancePath === `/${index}` || e.instancePath.startsWith(`/${index}/`));
    if (own.length === 0 && !(validate.errors ?? []).some((e) => e.instancePath.startsWith(`/${index}`))) return;
    const kind = typeof rule === "object" && rule !== null ? (rule as { rule?: unknown }).rule : undefined;
    issues.push({
      pointer: `/${index}`,
      detail: `${typeof kind === "string" ? `${kind}: ` : ""}${describe(own, index)}`,
    });
  });
  return issues;
}

/** A fault of one kind's branch of the rule schema (ajv writes schema paths from the referenced `rule` definition). */
const BRANCH = /^#\/oneOf\/(\d+)\//;

function describe(errors: readonly ErrorObject[], index: number): string {
  const ruleAt = `/${index}/rule`;
  const branchOf = (e: ErrorObject) =>
    e.instancePath.startsWith(`/${index}/answer`) ? undefined : BRANCH.exec(e.schemaPath)?.[1];
  const branches = new Set(errors.map(branchOf).filter((b) => b !== undefined));
  // The branch of the rule's own kind is the one whose `rule` member did not fail.
  const own = [...branches].find((b) => !errors.some((e) => branchOf(e) === b && e.instancePath === ruleAt));
  if (own === undefined && !errors.some((e) => branchOf(e) === undefined)) return "unknown rule";
  const relevant = errors.filter((e) => {
    const branch = branchOf(e);
    return branch === undefined ? e.instancePath !== ruleAt : branch === own;
  });
  const deepest = [...relevant].sort((a, b) => b.instancePath.length - a.instancePath.length)[0];
  if (deepest === undefined) return "does not match the rule language";
  const where = deepest.instancePath.slice(`/${index}`.length);
  const extra = deepest.params.additionalProperty;
  const detail = typeof extra === "string" ? `takes no argument ${extra}` : (deepest.message ?? "is invalid");
  return `${where === "" ? "" : `${where.slice(1)} `}${detail}`;
}
