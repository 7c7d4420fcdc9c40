import { SpecError, SpecErrorList, pointerSegment } from "../errors.js";
import type { Json } from "./domain.js";
import { isReservedKey } from "./reserved-names.js";
import type { FilterIr, OperationResourceIr, RefusalDetailIr, RefusalIr, ResourceAction, ResourceIr } from "./model.js";

/** The document-level registry of stored resource families. */
export const RESOURCES_EXTENSION = "x-powercontext-resources";
/** Per operation: which resource it creates, reads, lists, changes or removes, and how. */
export const OPERATION_RESOURCE_EXTENSION = "x-powercontext-resource";

const ACTIONS: readonly ResourceAction[] = [
  "create",
  "read",
  "list",
  "change",
  "put",
  "remove",
  "revision",
  "revisions",
];
type Scalar = string | number | boolean | null;
const NAME = /^[a-z][a-z0-9_]*$/;
const MEMBER = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)*$/;
/** A record member a filter reads: dotted, with `name[]` for any item of a list. */
const RECORD_PATH = /^[A-Za-z_][A-Za-z0-9_-]*(\[\])?(\.[A-Za-z_][A-Za-z0-9_-]*(\[\])?)*$/;
const DETAIL_VALUES = new Set(["expected", "provided", "current"]);

const RESOURCE_KEYS = new Set([
  "id",
  "prefix",
  "within",
  "version",
  "history",
  "etag",
  "sequence",
  "digests",
  "initial",
  "anchor",
  "created",
  "updated",
  "order",
  "not_found",
]);
/** Per operation: where its request names records of the anchor resource, or `false`. */
export const OPERATION_ANCHOR_EXTENSION = "x-powercontext-anchor";
const OPERATION_KEYS = new Set([
  "name",
  "action",
  "from",
  "requires",
  "expect",
  "if_match",
  "idempotency",
  "replay",
  "not_found",
  "bad_cursor",
  "fresh",
  "replace",
  "bound",
  "flag",
  "filters",
  "set",
  "record_at",
  "items",
  "controls",
  "limit",
  "terminal",
  "fixed_id",
  "omit",
  "cursor",
  "stamp",
  "same_version",
]);
const STAMPS = new Set(["now", "caller"]);
const CURSORS = new Set(["opaque", "last_id"]);

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Collects the issues of one extension and throws them together. */
class Issues {
  readonly list: SpecError[] = [];
  bad(pointer: string, detail: string): void {
    this.list.push(new SpecError("invalid_extension", { pointer }, detail));
  }
  member(value: unknown, pointer: string, what: string): string | null {
    if (value === undefined) return null;
    if (typeof value === "string" && MEMBER.test(value) && !value.split(".").some(isReservedKey)) return value;
    this.bad(
      pointer,
      `${what} must be a member name (dotted for a nested member), none of them a member every JavaScript object has`,
    );
    return null;
  }
  refusal(value: unknown, pointer: string): RefusalIr | null {
    if (
      isObject(value) &&
      Number.isInteger(value.status) &&
      (value.status as number) >= 400 &&
      (value.status as number) <= 599 &&
      typeof value.code === "string" &&
      value.code !== "" &&
      Object.keys(value).every((key) => ["status", "code", "details"].includes(key))
    ) {
      return {
        status: value.status as number,
        code: value.code,
        details: this.scalars(value.details, `${pointer}/details`, "details"),
      };
    }
    this.bad(pointer, "expected { status: <4xx or 5xx>, code: <error code>, details?: { <member>: <scalar> } }");
    return null;
  }
  details(value: unknown, pointer: string): RefusalDetailIr[] {
    if (value === undefined) return [];
    if (isObject(value) && Object.values(value).every((v) => typeof v === "string" && DETAIL_VALUES.has(v))) {
      return Object.entries(value).map(([name, v]) => ({ name, value: v as RefusalDetailIr["value"] }));
    }
    this.bad(pointer, "details must map a member of error.details to expected, provided or current");
    return [];
  }
  /** A map of member names to JSON scalars (null, boolean, number, string). */
  scalars(value: unknown, pointer: string, what: string): Record<string, Scalar> | null {
    if (value === undefined || value === null) return null;
    if (
      isObject(value) &&
      Object.entries(value).every(
        ([k, v]) =>
          MEMBER.test(k) && !isReservedKey(k) && (v === null || ["string", "number", "boolean"].includes(typeof v)),
      )
    ) {
      return value as Record<string, Scalar>;
    }
    this.bad(pointer, `${what} must map member names to JSON scalars`);
    return null;
  }
  throwIfAny(): void {
    if (this.list.length > 0) throw new SpecErrorList(this.list);
  }
}

/**
 * Reads the document-level registry `x-powercontext-resources`
 * (`{ <name>: { id, prefix?, within?, version?, history?, etag?, sequence?,
 * digests?, initial?, created?, updated?, order?, not_found } }`, docs/architecture.md).
 * Sorted by name; empty when the document has none.
 *
 * @throws {SpecErrorList} `invalid_extension` naming the pointer of every malformed row
 */
export function readResources(document: Json): ResourceIr[] {
  const registry = document[RESOURCES_EXTENSION];
  if (registry === undefined) return [];
  const base = `/${RESOURCES_EXTENSION}`;
  const issues = new Issues();
  if (!isObject(registry)) {
    issues.bad(base, "expected { <resource>: { id, not_found, ... } }");
    issues.throwIfAny();
  }
  const names = new Set(Object.keys(registry as Json));
  const rows: ResourceIr[] = [];
  for (const name of [...names].sort()) {
    const at = `${base}/${pointerSegment(name)}`;
    const row = (registry as Json)[name];
    if (!NAME.test(name) || !isObject(row)) {
      issues.bad(at, `resource "${name}": expected a snake_case name mapped to { id, not_found, ... }`);
      continue;
    }
    for (const key of Object.keys(row))
      if (!RESOURCE_KEYS.has(key))
        issues.bad(
          `${at}/${pointerSegment(key)}`,
          `unknown member "${key}" (allowed: ${[...RESOURCE_KEYS].join(", ")})`,
        );
    const id = issues.member(row.id, `${at}/id`, "id");
    if (id === null && row.id === undefined) issues.bad(`${at}/id`, "id is required");
    const notFound = issues.refusal(row.not_found, `${at}/not_found`);
    const prefix = row.prefix;
    if (prefix !== undefined && (typeof prefix !== "string" || !/^[a-z][a-z0-9]*$/.test(prefix)))
      issues.bad(`${at}/prefix`, "prefix must be lower-case letters and digits");
    const within: { member: string; resource: string | null }[] = [];
    if (row.within !== undefined) {
      if (!isObject(row.within))
        issues.bad(`${at}/within`, "within must map a member to the resource it names (or null)");
      else {
        for (const [member, resource] of Object.entries(row.within)) {
          const where = `${at}/within/${pointerSegment(member)}`;
          if (issues.member(member, where, "a within key") === null) continue;
          if (resource !== null && (typeof resource !== "string" || !names.has(resource)))
            issues.bad(where, `"${String(resource)}" is not a resource of ${RESOURCES_EXTENSION}`);
          else within.push({ member, resource: resource as string | null });
        }
      }
    }
    let version: ResourceIr["version"] = null;
    if (typeof row.version === "string")
      version = { member: issues.member(row.version, `${at}/version`, "version") ?? "", start: 1 };
    else if (isObject(row.version) && Number.isInteger(row.version.start))
      version = {
        member: issues.member(row.version.member, `${at}/version/member`, "version.member") ?? "",
        start: row.version.start as number,
      };
    else if (row.version !== undefined)
      issues.bad(`${at}/version`, "version must be a member name or { member, start }");
    if (row.history !== undefined && typeof row.history !== "boolean")
      issues.bad(`${at}/history`, "history must be a boolean");
    if (row.history === true && version === null)
      issues.bad(`${at}/history`, "history needs a version member to tell the revisions apart");
    const etag = row.etag;
    if (etag !== undefined && (typeof etag !== "string" || etag === "" || /["\\]/.test(etag)))
      issues.bad(
        `${at}/etag`,
        "etag must be a template such as revision:{revision} (no quotes: the ETag is sent quoted)",
      );
    const digests: ResourceIr["digests"][number][] = [];
    if (row.digests !== undefined) {
      if (!isObject(row.digests)) issues.bad(`${at}/digests`, "digests must map a member to the member it digests");
      else
        for (const [member, of] of Object.entries(row.digests)) {
          const where = `${at}/digests/${pointerSegment(member)}`;
          const digest = readDigest(member, of, where, issues);
          if (digest !== null && issues.member(member, where, "a digest member") !== null) digests.push(digest);
        }
    }
    const initial: Record<string, Scalar | Scalar[]> = {};
    if (row.initial !== undefined) {
      if (!isObject(row.initial))
        issues.bad(`${at}/initial`, "initial must map members to JSON scalars or lists of them");
      else
        for (const [member, value] of Object.entries(row.initial)) {
          const where = `${at}/initial/${pointerSegment(member)}`;
          const kept = scalarOrList(value);
          if (issues.member(member, where, "an initial member") === null) continue;
          if (kept === null && value !== null)
            issues.bad(where, "an initial value must be a JSON scalar or a list of them");
          else initial[member] = kept as Scalar | Scalar[];
        }
    }
    if (row.anchor !== undefined && typeof row.anchor !== "boolean")
      issues.bad(`${at}/anchor`, "anchor must be a boolean");
    if (row.anchor === true && row.within !== undefined)
      issues.bad(`${at}/anchor`, "an anchor is a top-level resource: it has no within");
    if (id === null || notFound === null) continue;
    rows.push({
      name,
      id,
      prefix: typeof prefix === "string" ? prefix : null,
      within,
      version,
      history: row.history === true,
      etag: typeof etag === "string" ? etag : null,
      sequence: issues.member(row.sequence, `${at}/sequence`, "sequence"),
      digests,
      initial,
      anchor: row.anchor === true,
      created: issues.member(row.created, `${at}/created`, "created"),
      updated: issues.member(row.updated, `${at}/updated`, "updated"),
      order: issues.member(row.order, `${at}/order`, "order"),
      notFound,
      pointer: at,
    });
  }
  if (rows.filter((r) => r.anchor).length > 1) issues.bad(base, "at most one resource is the anchor");
  issues.throwIfAny();
  return rows;
}

/**
 * One `digests` entry: `<member>: <digested member>` (the member's value), or
 * `<member>: { of: [<member>, ...], bare?: true }` (the object of those members,
 * keyed by their names; `bare` leaves the `sha256:` prefix out).
 */
function readDigest(member: string, of: unknown, where: string, issues: Issues): ResourceIr["digests"][number] | null {
  if (typeof of === "string") {
    const target = issues.member(of, where, "a digested member");
    return target === null ? null : { member, of: [target], object: false, bare: false };
  }
  if (
    isObject(of) &&
    Array.isArray(of.of) &&
    of.of.length > 0 &&
    Object.keys(of).every((key) => key === "of" || key === "bare") &&
    (of.bare === undefined || typeof of.bare === "boolean")
  ) {
    const members = of.of.map((m, i) => issues.member(m, `${where}/of/${i}`, "a digested member"));
    if (members.some((m) => m === null)) return null;
    return { member, of: members as string[], object: true, bare: of.bare === true };
  }
  issues.bad(where, "a digest is a member name or { of: [<member>, ...], bare?: <boolean> }");
  return null;
}

/**
 * Where an operation's request names records of the anchor resource (see
 * `OperationIr.anchor`).
 * @param accessPath the access rule's `scope-id-from` when its resource type is the anchor's name, else null
 * @throws {SpecErrorList} `invalid_extension` for a malformed `x-powercontext-anchor`
 */
export function readOperationAnchor(
  op: Json,
  operationPointer: string,
  registry: readonly ResourceIr[],
  accessPath: { resource: string; path: string } | null,
  requestMembers: readonly string[],
): { resource: string; requests: string[] } | null {
  const node = op[OPERATION_ANCHOR_EXTENSION];
  const at = `${operationPointer}/${OPERATION_ANCHOR_EXTENSION}`;
  const anchor = registry.find((r) => r.anchor);
  const issues = new Issues();
  const paths =
    node === undefined || node === false ? [] : typeof node === "string" ? [node] : Array.isArray(node) ? node : null;
  if (
    paths === null ||
    !paths.every((p) => typeof p === "string" && issues.member(p.replace(/\[\]$/, ""), at, "an anchor path") !== null)
  ) {
    if (paths === null)
      issues.bad(at, "expected false, a request member path (`[]` after a list member) or a list of them");
  }
  if (node !== undefined && anchor === undefined) issues.bad(at, `no resource of ${RESOURCES_EXTENSION} is the anchor`);
  issues.throwIfAny();
  if (anchor === undefined || node === false) return null;
  if (paths !== null && paths.length > 0) return { resource: anchor.name, requests: paths as string[] };
  if (accessPath !== null && accessPath.resource === anchor.name)
    return { resource: anchor.name, requests: [accessPath.path] };
  return requestMembers.includes(anchor.id) ? { resource: anchor.name, requests: [anchor.id] } : null;
}

/** A default kept only when it is a JSON scalar or a list of them (it is written into generated code as a literal). */
function scalarOrList(value: unknown): unknown {
  const scalar = (v: unknown) => v === null || ["string", "number", "boolean"].includes(typeof v);
  if (scalar(value)) return value;
  return Array.isArray(value) && value.every(scalar) ? value : null;
}

/** `filters`: record member -> request member, or -> { request, default } when the server applies a default the request schema does not declare. */
function readFilters(value: unknown, where: string, issues: Issues, facts: OperationFacts): FilterIr[] {
  if (value === undefined) return [];
  if (!isObject(value)) {
    issues.bad(where, "filters must map a record member to a request member or { request, default?, match?, when? }");
    return [];
  }
  return Object.entries(value).flatMap(([member, rule]) => {
    const at = `${where}/${pointerSegment(member)}`;
    const m = RECORD_PATH.test(member) && !member.split(/\.|\[\]/).some(isReservedKey) ? member : null;
    if (m === null) issues.bad(at, "a filter key must be a record member (dotted, `name[]` for any item of a list)");
    const explicit = isObject(rule);
    const r = issues.member(explicit ? rule.request : rule, at, "a filter's request member");
    const match = explicit && rule.match !== undefined ? rule.match : "equal";
    if (match !== "equal" && match !== "contains" && match !== "folded")
      issues.bad(`${at}/match`, "match must be equal, contains or folded");
    const when = explicit ? filterWhen(rule.when, `${at}/when`, issues) : {};
    if (m === null || r === null) return [];
    const fallback = explicit && "default" in rule ? scalarOrList(rule.default) : scalarOrList(facts.requestDefault(r));
    return [{ member: m, request: r, default: fallback, match: match as FilterIr["match"], when }];
  });
}

/** A filter's `when`: request members to a scalar, or to a list of scalars any of which holds. */
function filterWhen(value: unknown, at: string, issues: Issues): FilterIr["when"] {
  if (value === undefined) return {};
  const lists = isObject(value) ? Object.entries(value).filter(([, v]) => Array.isArray(v)) : [];
  const scalars = issues.scalars(
    isObject(value) ? Object.fromEntries(Object.entries(value).filter(([, v]) => !Array.isArray(v))) : value,
    at,
    "when",
  );
  const badList = lists.some(
    ([, v]) => !(v as unknown[]).every((x) => x === null || ["string", "number", "boolean"].includes(typeof x)),
  );
  if (badList) issues.bad(at, "when must map member names to JSON scalars or lists of them");
  return { ...(scalars ?? {}), ...Object.fromEntries(lists) } as FilterIr["when"];
}

/** What {@link readOperationResource} needs to know of the operation beside its extension. */
export interface OperationFacts {
  /** `items_field` of `x-powercontext-pagination`, or null. */
  readonly pageItems: string | null;
  /** `cursor_parameter` and `next_cursor_field` of `x-powercontext-pagination`, or null. */
  readonly page: { readonly cursor: string; readonly nextCursor: string } | null;
  /** Top-level request member names (parameters and body properties). */
  readonly requestMembers: readonly string[];
  /** The default the request schema gives a top-level member, or undefined. */
  readonly requestDefault: (member: string) => unknown;
}

/**
 * Reads an operation's `x-powercontext-resource` against the registry: the
 * resource must be registered, its members well formed, and a list must say
 * where its items are.
 *
 * @throws {SpecErrorList} `invalid_extension` naming the pointer of each broken member
 */
export function readOperationResource(
  op: Json,
  operationPointer: string,
  registry: readonly ResourceIr[],
  facts: OperationFacts,
): OperationResourceIr | null {
  const node = op[OPERATION_RESOURCE_EXTENSION];
  if (node === undefined) return null;
  const at = `${operationPointer}/${OPERATION_RESOURCE_EXTENSION}`;
  const issues = new Issues();
  if (!isObject(node)) {
    issues.bad(
      at,
      "expected { name: <resource>, action: <create|read|list|change|put|remove|revision|revisions>, ... }",
    );
    issues.throwIfAny();
  }
  const ext = node as Json;
  for (const key of Object.keys(ext))
    if (!OPERATION_KEYS.has(key))
      issues.bad(
        `${at}/${pointerSegment(key)}`,
        `unknown member "${key}" (allowed: ${[...OPERATION_KEYS].join(", ")})`,
      );
  const resource = registry.find((row) => row.name === ext.name);
  if (resource === undefined)
    issues.bad(`${at}/name`, `"${String(ext.name)}" is not a resource of ${RESOURCES_EXTENSION}`);
  const action = ext.action as ResourceAction;
  if (!ACTIONS.includes(action)) issues.bad(`${at}/action`, `action must be one of ${ACTIONS.join(", ")}`);
  const pairs = (value: unknown, where: string, what: string): { member: string; request: string }[] => {
    if (value === undefined) return [];
    if (!isObject(value)) {
      issues.bad(where, `${what} must map a record member to a request member`);
      return [];
    }
    return Object.entries(value).flatMap(([member, request]) => {
      const m = issues.member(member, `${where}/${pointerSegment(member)}`, `a ${what} key`);
      const r = issues.member(request, `${where}/${pointerSegment(member)}`, `a ${what} value`);
      return m !== null && r !== null ? [{ member: m, request: r }] : [];
    });
  };

  let expect: OperationResourceIr["expect"] = null;
  if (ext.expect !== undefined) {
    const e = ext.expect as Json;
    const request = isObject(e) ? issues.member(e.request, `${at}/expect/request`, "expect.request") : null;
    const conflict = isObject(e) ? issues.refusal(e.conflict, `${at}/expect/conflict`) : null;
    if (!isObject(e) || request === null || conflict === null)
      issues.bad(`${at}/expect`, "expected { request: <member>, conflict: { status, code }, details?, absent? }");
    else {
      if (e.absent !== undefined && !Number.isInteger(e.absent))
        issues.bad(`${at}/expect/absent`, "absent must be an integer");
      if (resource !== undefined && resource.version === null)
        issues.bad(`${at}/expect`, `resource "${resource.name}" has no version to compare with`);
      expect = {
        request,
        conflict,
        details: issues.details(e.details, `${at}/expect/details`),
        absent: Number.isInteger(e.absent) ? (e.absent as number) : null,
      };
    }
  }
  let ifMatch: OperationResourceIr["ifMatch"] = null;
  if (ext.if_match !== undefined) {
    const e = ext.if_match as Json;
    const stale = isObject(e) ? issues.refusal(e.stale, `${at}/if_match/stale`) : null;
    if (!isObject(e) || stale === null)
      issues.bad(`${at}/if_match`, "expected { stale: { status, code }, missing?, details? }");
    else {
      if (resource !== undefined && resource.etag === null)
        issues.bad(`${at}/if_match`, `resource "${resource.name}" has no etag to compare with`);
      const missing = e.missing === undefined ? null : issues.refusal(e.missing, `${at}/if_match/missing`);
      ifMatch = { stale, missing, details: issues.details(e.details, `${at}/if_match/details`) };
    }
  }
  const keyed = (name: "idempotency" | "replay"): { request: string; conflict: RefusalIr } | null => {
    const e = ext[name] as Json | undefined;
    if (e === undefined) return null;
    const request =
      name === "idempotency" && isObject(e) ? issues.member(e.request, `${at}/${name}/request`, `${name}.request`) : "";
    const conflict = isObject(e) ? issues.refusal(e.conflict, `${at}/${name}/conflict`) : null;
    if (!isObject(e) || request === null || conflict === null) {
      issues.bad(
        `${at}/${name}`,
        `expected { ${name === "idempotency" ? "request: <member>, " : ""}conflict: { status, code, details? } }`,
      );
      return null;
    }
    return { request, conflict };
  };
  const idempotency = keyed("idempotency");
  const replayed = keyed("replay");
  const replay = replayed === null ? null : { conflict: replayed.conflict };
  const notFound = ext.not_found === undefined ? null : issues.refusal(ext.not_found, `${at}/not_found`);
  const badCursor = ext.bad_cursor === undefined ? null : issues.refusal(ext.bad_cursor, `${at}/bad_cursor`);
  if (ext.fresh !== undefined && typeof ext.fresh !== "boolean") issues.bad(`${at}/fresh`, "fresh must be a boolean");
  if (ext.replace !== undefined && (typeof ext.replace !== "boolean" || (ext.replace && action !== "change")))
    issues.bad(`${at}/replace`, "replace must be a boolean, true only on a change");
  const bound = issues.member(ext.bound, `${at}/bound`, "bound");
  if (bound !== null && action !== "list") issues.bad(`${at}/bound`, "bound is for a list");
  if (ext.same_version !== undefined && typeof ext.same_version !== "boolean")
    issues.bad(`${at}/same_version`, "same_version must be a boolean");
  else if (ext.same_version === true && resource !== undefined && resource.version === null)
    issues.bad(`${at}/same_version`, `resource "${resource.name}" has no version to keep`);
  const flag = issues.member(ext.flag, `${at}/flag`, "flag");
  let terminal: OperationResourceIr["terminal"] = null;
  if (ext.terminal !== undefined) {
    const e = ext.terminal as Json;
    const member = isObject(e) ? issues.member(e.member, `${at}/terminal/member`, "terminal.member") : null;
    const refusal = isObject(e) ? issues.refusal(e.refusal, `${at}/terminal/refusal`) : null;
    const values =
      isObject(e) &&
      Array.isArray(e.values) &&
      e.values.length > 0 &&
      e.values.every((v) => v === null || ["string", "number", "boolean"].includes(typeof v))
        ? (e.values as Scalar[])
        : null;
    if (!isObject(e) || member === null || refusal === null || values === null)
      issues.bad(
        `${at}/terminal`,
        "expected { member: <member>, values: [<scalar>, ...], refusal: { status, code }, details? }",
      );
    else terminal = { member, values, refusal, details: issues.details(e.details, `${at}/terminal/details`) };
  }
  const omit = readOmit(ext.omit, `${at}/omit`, issues);
  const cursorKind = ext.cursor ?? "opaque";
  if (typeof cursorKind !== "string" || !CURSORS.has(cursorKind))
    issues.bad(`${at}/cursor`, `cursor must be one of ${[...CURSORS].join(", ")}`);
  else if (
    cursorKind === "last_id" &&
    resource !== undefined &&
    resource.order !== null &&
    resource.order !== resource.id
  )
    issues.bad(
      `${at}/cursor`,
      `a last_id cursor needs a list ordered by id; resource "${resource.name}" is ordered by ${resource.order}`,
    );
  const stamp: { member: string; value: "now" | "caller" }[] = [];
  if (ext.stamp !== undefined) {
    if (!isObject(ext.stamp)) issues.bad(`${at}/stamp`, "stamp must map a record member to now or caller");
    else
      for (const [member, value] of Object.entries(ext.stamp)) {
        const where = `${at}/stamp/${pointerSegment(member)}`;
        const m = issues.member(member, where, "a stamp key");
        if (typeof value !== "string" || !STAMPS.has(value)) issues.bad(where, "a stamp value must be now or caller");
        else if (m !== null) stamp.push({ member: m, value: value as "now" | "caller" });
      }
  }
  let fixedId: OperationResourceIr["fixedId"] = null;
  if (ext.fixed_id !== undefined) {
    const e = ext.fixed_id as Json;
    const member = isObject(e) ? issues.member(e.member, `${at}/fixed_id/member`, "fixed_id.member") : null;
    const conflict = isObject(e) ? issues.refusal(e.conflict, `${at}/fixed_id/conflict`) : null;
    const ids =
      isObject(e) && isObject(e.ids) && Object.values(e.ids).every((v) => typeof v === "string" && v !== "")
        ? (e.ids as Record<string, string>)
        : null;
    if (!isObject(e) || member === null || conflict === null || ids === null)
      issues.bad(
        `${at}/fixed_id`,
        "expected { member: <request member>, ids: { <value>: <id> }, conflict: { status, code } }",
      );
    else fixedId = { member, ids, conflict };
  }
  const requires: { request: string; resource: string }[] = [];
  if (ext.requires !== undefined) {
    if (!isObject(ext.requires))
      issues.bad(`${at}/requires`, "requires must map a request member to the resource it names");
    else
      for (const [request, name] of Object.entries(ext.requires)) {
        const where = `${at}/requires/${pointerSegment(request)}`;
        if (issues.member(request, where, "a requires key") === null) continue;
        if (typeof name !== "string" || !registry.some((row) => row.name === name))
          issues.bad(where, `"${String(name)}" is not a resource of ${RESOURCES_EXTENSION}`);
        else requires.push({ request, resource: name });
      }
  }

  const filters = readFilters(ext.filters, `${at}/filters`, issues, facts);
  const set = issues.scalars(ext.set, `${at}/set`, "set") ?? {};
  const recordAt = ext.record_at ?? "";
  if (typeof recordAt !== "string" || (recordAt !== "" && !recordAt.startsWith("/")))
    issues.bad(`${at}/record_at`, 'record_at must be a JSON pointer ("" for the body itself)');
  const items = ext.items === undefined ? facts.pageItems : issues.member(ext.items, `${at}/items`, "items");
  if ((action === "list" || action === "revisions") && items === null)
    issues.bad(at, "a list needs items (or x-powercontext-pagination's items_field)");
  const controls =
    ext.controls === undefined
      ? []
      : Array.isArray(ext.controls) && ext.controls.every((c) => typeof c === "string")
        ? (ext.controls as string[])
        : badControls(issues, at);
  let limit: OperationResourceIr["limit"] = null;
  if (ext.limit !== undefined) {
    const member = issues.member(ext.limit, `${at}/limit`, "limit");
    const fallback = member === null ? undefined : facts.requestDefault(member);
    if (member !== null && !Number.isInteger(fallback))
      issues.bad(`${at}/limit`, `request member "${member}" has no integer default`);
    else if (member !== null) limit = { request: member, default: fallback as number };
  } else if (
    (action === "list" || action === "revisions") &&
    facts.requestMembers.includes("limit") &&
    Number.isInteger(facts.requestDefault("limit"))
  ) {
    limit = { request: "limit", default: facts.requestDefault("limit") as unknown as number };
  }
  const from = pairs(ext.from, `${at}/from`, "from");
  issues.throwIfAny();
  const expectRequest = expect === null ? [] : [expect.request];
  const cursor = facts.page === null ? [] : [facts.page.cursor];
  return {
    name: String(ext.name),
    action,
    from,
    requires,
    expect,
    ifMatch,
    idempotency,
    replay,
    notFound,
    badCursor,
    fresh: ext.fresh === true,
    replace: ext.replace === true,
    bound,
    sameVersion: ext.same_version === true,
    flag,
    terminal,
    fixedId,
    omit,
    cursor: cursorKind === "last_id" ? "last_id" : "opaque",
    stamp,
    filters,
    set,
    recordAt: recordAt as string,
    items,
    page: facts.page,
    controls: [
      ...new Set([
        ...controls,
        ...expectRequest,
        ...cursor,
        ...(limit === null ? [] : [limit.request]),
        ...filters.map((f) => f.request),
      ]),
    ],
    limit,
  };
}

/** Reads `omit`: `{ members: [<member>, ...], unless_header?: { <header>: <value> } }`. */
function readOmit(value: unknown, at: string, issues: Issues): OperationResourceIr["omit"] {
  if (value === undefined) return null;
  const members = isObject(value) && Array.isArray(value.members) ? (value.members as unknown[]) : null;
  const header = isObject(value) ? value.unless_header : undefined;
  const headerOk =
    header === undefined ||
    (isObject(header) && Object.keys(header).length === 1 && typeof Object.values(header)[0] === "string");
  if (
    members === null ||
    members.length === 0 ||
    !headerOk ||
    Object.keys(value as Json).some((k) => k !== "members" && k !== "unless_header")
  ) {
    issues.bad(at, "expected { members: [<member>, ...], unless_header?: { <header name>: <value> } }");
    return null;
  }
  const names = members.flatMap((m, index) => {
    const name = issues.member(m, `${at}/members/${index}`, "an omitted member");
    return name === null ? [] : [name];
  });
  const [name, sent] = header === undefined ? [] : (Object.entries(header as Json)[0] as [string, string]);
  return { members: names, unlessHeader: name === undefined ? null : { name, value: sent as string } };
}

/** Records that `controls` is not a list of request members; the rule then controls none. */
function badControls(issues: { bad(pointer: string, detail: string): unknown }, at: string): string[] {
  issues.bad(`${at}/controls`, "controls must be a list of request members");
  return [];
}
