import { SpecError, SpecErrorList, pointerSegment } from "../errors.js";
import type { Json } from "./domain.js";
import type { ErrorCodeIr, JsonScalar, RefusalRuleIr, ResourceIr, UnknownRecordIr } from "./model.js";

/** Our operation extension: refusals the server answers under a condition (docs/architecture.md). */
export const REFUSALS_EXTENSION = "x-powercontext-refusals";

const RULE_KEYS = new Set(["status", "code", "message", "details", "when", "scope"]);
const WHEN_KEYS = new Set([
  "inference",
  "present",
  "empty",
  "pending",
  "equals",
  "includes",
  "outside",
  "unknown",
  "without_header",
]);
const INFERENCE = new Set(["on", "off"]);
const PENDING = new Set(["sources"]);

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads `x-powercontext-refusals` of one operation: a list of
 * `{ status, code, message, details?, when?: { inference?, present?, pending?, equals?, includes? }, scope? }`,
 * each a refusal the server answers when every condition of `when` holds (always
 * without one). `equals: { member: value }` holds when the member has that value (an
 * absent member equals null),
 * `includes: { member: value }` when the list member holds it, `outside: { member.path:
 * [values] }` when the (dotted, nested; `list[]` for any item) member is there with none of the values,
 * `empty: member` when the member is absent, null or an empty list, `unknown: { resource, id,
 * within }` when the (dotted) `id` path holds a value and the store has no such record of the
 * registry's `resource` in the collection `within` names (one request path or `{ value }` per
 * `within` member of the resource). `code` is a registry code with that status; `scope` names the request
 * member carrying the Scope, when the refusal comes only once that Scope is found;
 * `present` names a request member that is there and not null; `pending: sources`
 * needs `scope`. Empty without the extension.
 *
 * @param at - JSON pointer of the operation
 * @param members - the request's members (parameters by wire name and body properties)
 * @param registry - the document's error-code registry
 * @param resources - the document's resource registry (`x-powercontext-resources`), for `unknown`
 * @throws {SpecErrorList} `invalid_extension` naming the pointer of every malformed rule
 */
export function readRefusals(
  op: Json,
  at: string,
  members: readonly string[],
  registry: readonly ErrorCodeIr[],
  resources: readonly ResourceIr[] = [],
): RefusalRuleIr[] {
  const raw = op[REFUSALS_EXTENSION];
  if (raw === undefined) return [];
  const base = `${at}/${REFUSALS_EXTENSION}`;
  const issues: SpecError[] = [];
  if (!Array.isArray(raw))
    throw new SpecErrorList([
      new SpecError("invalid_extension", { pointer: base }, "expected a list of { status, code, message, ... }"),
    ]);
  const rules: RefusalRuleIr[] = [];
  raw.forEach((node: unknown, index: number) => {
    const where = `${base}/${index}`;
    const count = issues.length;
    const bad = (member: string, detail: string) =>
      issues.push(
        new SpecError("invalid_extension", { pointer: member === "" ? where : `${where}/${member}` }, detail),
      );
    if (!isObject(node)) {
      bad("", "expected { status, code, message, ... }");
      return;
    }
    for (const key of Object.keys(node))
      if (!RULE_KEYS.has(key)) bad(key, `unknown member (allowed: ${[...RULE_KEYS].join(", ")})`);
    const { status, code, message } = node;
    const row = registry.find((r) => r.code === code);
    if (typeof status !== "number" || !Number.isInteger(status) || status < 400 || status > 599)
      bad("status", "expected an error status (400-599)");
    if (typeof code !== "string" || row === undefined)
      bad("code", `${JSON.stringify(code)} is not a code of x-powercontext-error-codes`);
    else if (row.status !== status)
      bad("code", `${code} has status ${row.status} in the registry, not ${String(status)}`);
    if (typeof message !== "string" || message.trim() === "") bad("message", "expected the refusal's message");
    const details = node.details ?? null;
    if (details !== null && !isObject(details)) bad("details", "expected an object or null");
    const scope = node.scope ?? null;
    if (scope !== null && (typeof scope !== "string" || !members.includes(scope)))
      bad("scope", `expected a member of the request, not ${JSON.stringify(scope)}`);
    const when = node.when ?? {};
    if (!isObject(when)) bad("when", `expected { ${[...WHEN_KEYS].map((k) => `${k}?`).join(", ")} }`);
    const w = isObject(when) ? when : {};
    for (const key of Object.keys(w))
      if (!WHEN_KEYS.has(key)) bad(`when/${key}`, `unknown condition (allowed: ${[...WHEN_KEYS].join(", ")})`);
    if (w.inference !== undefined && !INFERENCE.has(w.inference as string)) bad("when/inference", "expected on or off");
    if (w.present !== undefined && (typeof w.present !== "string" || !members.includes(w.present)))
      bad("when/present", `expected a member of the request, not ${JSON.stringify(w.present)}`);
    if (w.empty !== undefined && (typeof w.empty !== "string" || !members.includes(w.empty)))
      bad("when/empty", `expected a member of the request, not ${JSON.stringify(w.empty)}`);
    if (w.pending !== undefined && !PENDING.has(w.pending as string)) bad("when/pending", "expected sources");
    if (w.pending !== undefined && scope === null)
      bad("when/pending", "needs scope: pending work is counted in a Scope");
    const equals = memberValues(w.equals, "equals", members, bad);
    const includes = memberValues(w.includes, "includes", members, bad);
    const outside = memberLists(w.outside, members, bad);
    const unknown = unknownRecord(w.unknown, members, resources, bad);
    const withoutHeader = headerValues(w.without_header, bad);
    if (issues.length > count) return;
    rules.push({
      status: status as number,
      code: code as string,
      message: message as string,
      details: details as Json | null,
      when: {
        inference: (w.inference as "on" | "off" | undefined) ?? null,
        present: (w.present as string | undefined) ?? null,
        empty: (w.empty as string | undefined) ?? null,
        pending: (w.pending as "sources" | undefined) ?? null,
        equals,
        includes,
        outside,
        unknown,
        withoutHeader,
      },
      scope: scope as string | null,
    });
  });
  if (issues.length > 0) throw new SpecErrorList(issues);
  return rules;
}

/** `{ <member>: <scalar> }` of a condition; every member a member of the request. Empty when absent. */
function memberValues(
  node: unknown,
  key: string,
  members: readonly string[],
  bad: (member: string, detail: string) => void,
): Record<string, JsonScalar> {
  if (node === undefined) return {};
  if (!isObject(node)) {
    bad(`when/${key}`, "expected { <member>: <value> }");
    return {};
  }
  const out: Record<string, JsonScalar> = {};
  for (const [member, value] of Object.entries(node)) {
    if (!members.includes(member)) bad(`when/${key}/${pointerSegment(member)}`, "expected a member of the request");
    else if (value !== null && typeof value === "object")
      bad(`when/${key}/${pointerSegment(member)}`, "expected a string, number, boolean or null");
    else out[member] = value as JsonScalar;
  }
  return out;
}

/** `{ <header name>: <value> }` of `without_header`. Empty when absent. */
function headerValues(node: unknown, bad: (member: string, detail: string) => void): Record<string, string> {
  if (node === undefined) return {};
  if (!isObject(node) || Object.values(node).some((value) => typeof value !== "string")) {
    bad("when/without_header", "expected { <header name>: <value> }");
    return {};
  }
  return node as Record<string, string>;
}

/** `{ <member.path>: [<scalar>, ...] }` of `outside`; each path starts at a member of the request (`member[]` steps into a list's items). Empty when absent. */
function memberLists(
  node: unknown,
  members: readonly string[],
  bad: (member: string, detail: string) => void,
): Record<string, readonly JsonScalar[]> {
  if (node === undefined) return {};
  if (!isObject(node)) {
    bad("when/outside", "expected { <member.path>: [<value>, ...] }");
    return {};
  }
  const out: Record<string, readonly JsonScalar[]> = {};
  for (const [path, values] of Object.entries(node)) {
    const at = `when/outside/${pointerSegment(path)}`;
    if (!members.includes((path.split(".")[0] ?? "").replace(/\[\]$/, "")))
      bad(at, "expected a path from a member of the request");
    else if (!Array.isArray(values) || values.length === 0 || values.some((v) => v !== null && typeof v === "object"))
      bad(at, "expected a list of strings, numbers, booleans or null");
    else out[path] = values as JsonScalar[];
  }
  return out;
}

/** `{ resource, id, within? }` of `unknown`: a resource of the registry, a path from a request member, one key per `within` member. Null when absent. */
function unknownRecord(
  node: unknown,
  members: readonly string[],
  resources: readonly ResourceIr[],
  bad: (member: string, detail: string) => void,
): UnknownRecordIr | null {
  if (node === undefined) return null;
  const fromMember = (path: unknown) =>
    typeof path === "string" && members.includes((path.split(".")[0] ?? "").replace(/\[\]$/, ""));
  if (!isObject(node)) {
    bad("when/unknown", "expected { resource, id, within? }");
    return null;
  }
  const resource = resources.find((r) => r.name === node.resource);
  if (resource === undefined) {
    bad("when/unknown/resource", `${JSON.stringify(node.resource)} is not a resource of x-powercontext-resources`);
    return null;
  }
  if (!fromMember(node.id)) bad("when/unknown/id", "expected a path from a member of the request");
  const within = node.within ?? [];
  if (!Array.isArray(within) || within.length !== resource.within.length) {
    bad("when/unknown/within", `expected ${resource.within.length} keys, one per within member of ${resource.name}`);
    return null;
  }
  const keys = within.map((key: unknown, index: number) => {
    if (
      isObject(key) &&
      Object.keys(key).length === 1 &&
      "value" in key &&
      (key.value === null || typeof key.value !== "object")
    )
      return { value: key.value as JsonScalar };
    if (!fromMember(key))
      bad(`when/unknown/within/${index}`, "expected a path from a member of the request or { value }");
    return String(key);
  });
  return { resource: resource.name, id: String(node.id), within: keys };
}
