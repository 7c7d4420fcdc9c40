import type { ContractAccess } from "../../contract/types.js";
import type { ArtifactTargetFact, CaseFact, CheckFact, Ref, Requirement, Scalar } from "./facts.js";
import { accessFacts } from "./facts.js";
import { isRecord } from "../members.js";

/**
 * The interpreter of the resolver language (`x-powercontext-access-resolvers`,
 * docs/architecture.md, "Access"): from an operation's `x-powercontext-access` and
 * the access payload, the checks the release's access layer makes, or
 * {@link AccessInvalid} for a payload it cannot resolve. Names no operation and no
 * wire member: every path comes from the facts.
 *
 * Values are read as the release reads request values: a path walks objects; an
 * absent or null member, or one whose text is empty, cannot be read; a number or a
 * boolean is read as its text (Python's `str`). `{ text }` reads a member that must
 * be a non-empty string.
 */

/** What a check is decided on. */
export type Target =
  | { readonly kind: "server"; readonly deployment: string }
  | { readonly kind: "scope"; readonly scopeId: string }
  | {
      readonly kind: "artifact";
      readonly scopeId: string;
      readonly family: string;
      readonly artifactId: string;
      /** The memory entry the target names (the `memory` family's selector), or null. */
      readonly entryId: string | null;
    };

/** One check: an action on a target. */
export interface Check {
  readonly action: string;
  readonly target: Target;
}

/** A payload the access layer cannot resolve: the policy's `invalid` refusal. */
export class AccessInvalid extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "AccessInvalid";
  }
}

/** Where paths are read: the payload, the item of `each` (`$`) and a looked-up record (`$record`). */
export interface ReadContext {
  readonly payload: unknown;
  readonly item?: unknown;
  readonly record?: unknown;
}

/** The value at a dotted path (`$`, `$.x`, `$record.x` or a payload path), undefined when a step is missing. */
export function valueAt(context: ReadContext, path: string): unknown {
  let base: unknown = context.payload;
  let rest = path;
  if (path === "$" || path.startsWith("$.")) {
    base = context.item;
    rest = path.slice(2);
  } else if (path === "$record" || path.startsWith("$record.")) {
    base = context.record;
    rest = path.slice("$record.".length);
  }
  if (rest === "") return base;
  let current = base;
  for (const part of rest.split(".")) {
    if (!isRecord(current) || !Object.hasOwn(current, part)) return undefined;
    current = current[part];
  }
  return current;
}

/** A value read as a request value: its text, or undefined when absent, null, empty or not a scalar. */
export function requestText(value: unknown): string | undefined {
  let text: string | undefined;
  if (typeof value === "string") text = value;
  else if (typeof value === "boolean") text = value ? "True" : "False";
  else if (typeof value === "number" && Number.isFinite(value)) text = String(value);
  return text === "" ? undefined : text;
}

/** True when every member of `when` is readable and one of its values. */
export function whenHolds(
  when: { readonly [path: string]: readonly Scalar[] } | undefined,
  context: ReadContext,
): boolean {
  if (when === undefined) return true;
  return Object.entries(when).every(([path, values]) => {
    const text = requestText(valueAt(context, path));
    return text !== undefined && values.some((v) => String(v) === text);
  });
}

function meets(requirement: Requirement, value: unknown): boolean {
  if (Array.isArray(requirement)) {
    const text = requestText(value);
    return text !== undefined && requirement.some((v) => String(v) === text);
  }
  switch (requirement) {
    case "present":
      return requestText(value) !== undefined;
    case "object":
      return isRecord(value);
    case "text":
      return typeof value === "string" && value !== "";
    case "non_empty_list":
      return Array.isArray(value) && value.length > 0;
    case "text_list":
      return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string" && v !== "");
  }
  return false;
}

/** The text a ref names. @throws AccessInvalid when it cannot be read */
export function refText(ref: Ref, context: ReadContext): string {
  if (typeof ref === "string") {
    const text = requestText(valueAt(context, ref));
    if (text === undefined) throw new AccessInvalid("resource");
    return text;
  }
  if ("value" in ref) return ref.value;
  const value = valueAt(context, ref.text);
  if (typeof value !== "string" || value === "") throw new AccessInvalid("artifact-reference");
  return value;
}

function artifactTarget(fact: ArtifactTargetFact, context: ReadContext): Target {
  const scopeId = refText(fact.scope, context);
  let family: string;
  let artifactId: string;
  if (fact.ref !== undefined) {
    const reference = valueAt(context, fact.ref);
    family = refText(fact.family, context);
    if (!isRecord(reference) || refText({ text: "$.family" }, { ...context, item: reference }) !== family)
      throw new AccessInvalid("artifact-reference");
    artifactId = refText({ text: "$.artifact_id" }, { ...context, item: reference });
  } else {
    family = refText(fact.family, context);
    artifactId = refText(fact.id as Ref, context);
  }
  const entryId = fact.entry === undefined ? null : refText(fact.entry, context);
  return { kind: "artifact", scopeId, family, artifactId, entryId };
}

/** The list a `a.b[]` or `a.b[].c` path walks, and the member each item gives (null for the item itself). */
function itemPath(path: string): { list: string; member: string | null } {
  const [list = "", member = ""] = path.split("[]");
  return { list, member: member === "" ? null : member.slice(1) };
}

/** The items of the list an item path (`a.b[]`) walks; none when it is no list. */
export function listItems(path: string, context: ReadContext): unknown[] {
  const items = valueAt(context, itemPath(path).list);
  return Array.isArray(items) ? items : [];
}

/** The items `each` makes checks for: null ones left out; of a member (`a[].b`), the others non-empty strings, each once. */
function eachItems(path: string, context: ReadContext): unknown[] {
  const { list, member } = itemPath(path);
  const items = valueAt(context, list);
  if (!Array.isArray(items)) return [];
  const out: unknown[] = [];
  for (const item of items) {
    const value = member === null ? item : isRecord(item) ? item[member] : undefined;
    if (value === undefined || value === null) continue;
    if (member === null) out.push(value);
    else if (typeof value !== "string" || value === "") throw new AccessInvalid("memory-entry-selector");
    else if (!out.includes(value)) out.push(value);
  }
  return out;
}

function anyNull(path: string, context: ReadContext): boolean {
  const { list, member } = itemPath(path);
  const items = valueAt(context, list);
  return (
    Array.isArray(items) &&
    items.some((item) => isRecord(item) && (item[member ?? ""] === undefined || item[member ?? ""] === null))
  );
}

/** The checks one check fact makes in `context` (none when its condition does not hold). */
export function expandCheck(fact: CheckFact, context: ReadContext): Check[] {
  if (fact.if !== undefined && !isRecord(valueAt(context, fact.if))) return [];
  if (fact.unless !== undefined && isRecord(valueAt(context, fact.unless))) return [];
  if (fact.if_any_null !== undefined && !anyNull(fact.if_any_null, context)) return [];
  const contexts =
    fact.each === undefined ? [context] : eachItems(fact.each, context).map((item) => ({ ...context, item }));
  return contexts.map((c) => ({ action: fact.action, target: target(fact, c) }));
}

function target(fact: CheckFact, context: ReadContext): Target {
  if (fact.server === true) return { kind: "server", deployment: accessFacts.policy.deployment };
  if (fact.scope !== undefined) return { kind: "scope", scopeId: refText(fact.scope, context) };
  return artifactTarget(fact.artifact as ArtifactTargetFact, context);
}

/** The cases an operation's access rule stands for: its named resolver's, or the one check of the two unnamed forms. */
export function casesOf(access: ContractAccess): readonly CaseFact[] {
  if ("resolver" in access) {
    const cases = accessFacts.resolvers[access.resolver];
    if (cases === undefined) throw new AccessInvalid("resource");
    return cases;
  }
  if (access.resource === "server") return [{ checks: [{ action: access.action, server: true }] }];
  return [{ checks: [{ action: access.action, scope: access.scopeIdFrom }] }];
}

/**
 * The checks of `cases` for `payload`: the first case whose `when` holds and that
 * has checks ends the resolution; every `require` on the way applies.
 * @throws AccessInvalid for a payload the cases cannot resolve
 */
export function resolveChecks(cases: readonly CaseFact[], payload: unknown): Check[] {
  const context: ReadContext = { payload };
  for (const fact of cases) {
    if (!whenHolds(fact.when, context)) continue;
    for (const [path, requirement] of Object.entries(fact.require ?? {}))
      if (!meets(requirement, valueAt(context, path))) throw new AccessInvalid("resource");
    if (fact.checks === undefined) continue;
    const checks = fact.checks.flatMap((check) => expandCheck(check, context));
    if (fact.non_empty === true && checks.length === 0) throw new AccessInvalid("resource");
    return checks;
  }
  throw new AccessInvalid("resource");
}
