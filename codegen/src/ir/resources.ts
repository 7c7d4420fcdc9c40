import { SpecError, SpecErrorList, pointerSegment } from "../errors.js";
import { readFact } from "../facts/read-fact.js";
import type { AnchorRecordsFact, ResourcesFact } from "../facts/generated/fact-types.js";
import type { Json } from "../domain/types.js";
import type { OperationResourceIr, ResourceIr } from "./model.js";

/** The document-level registry of stored resource families. */
export const RESOURCES_EXTENSION = "x-powercontext-resources";
/** Per operation: which resource it creates, reads, lists, changes or removes, and how. */
export const OPERATION_RESOURCE_EXTENSION = "x-powercontext-resource";
/** Per operation: where its request names records of the anchor resource, or `false`. */
export const OPERATION_ANCHOR_EXTENSION = "x-powercontext-anchor";

/** Collects findings and throws them together. */
class Issues {
  readonly list: SpecError[] = [];
  bad(pointer: string, detail: string): void {
    this.list.push(new SpecError("invalid_extension", { pointer }, detail));
  }
  throwIfAny(): void {
    if (this.list.length > 0) throw new SpecErrorList(this.list);
  }
}

/**
 * Reads the document-level registry `x-powercontext-resources` (docs/extensions.md,
 * `resource`), whose shape the loader checked: sorted by name, each row with its
 * pointer; empty when the document has none.
 *
 * @throws {SpecErrorList} `invalid_extension` for a `within` naming no resource of the
 *   registry, and for more than one anchor
 */
export function readResources(document: Json): ResourceIr[] {
  const registry = document[RESOURCES_EXTENSION];
  if (registry === undefined) return [];
  const base = `/${RESOURCES_EXTENSION}`;
  const issues = new Issues();
  const rows = (readFact("resources", registry) as ResourcesFact)
    .map((row): ResourceIr => ({ ...row, pointer: `${base}/${pointerSegment(row.name)}` }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const row of rows)
    for (const { member, resource } of row.within)
      if (resource !== null && !rows.some((r) => r.name === resource))
        issues.bad(
          `${row.pointer}/within/${pointerSegment(member)}`,
          `"${resource}" is not a resource of ${RESOURCES_EXTENSION}`,
        );
  if (rows.filter((r) => r.anchor).length > 1) issues.bad(base, "at most one resource is the anchor");
  const schemas = ((document.components as Json | undefined)?.schemas ?? {}) as Json;
  for (const row of rows)
    if (row.shape !== null && !Object.hasOwn(schemas, row.shape))
      issues.bad(`${row.pointer}/shape`, `"${row.shape}" is not a component schema`);
  issues.throwIfAny();
  return rows;
}

/**
 * Where an operation's request names records of the anchor resource (see
 * `OperationIr.anchor`).
 * @param accessPath the access rule's `scope-id-from` when its resource type is the anchor's name, else null
 * @throws {SpecErrorList} `invalid_extension` for `x-powercontext-anchor` in a document without an anchor
 */
export function readOperationAnchor(
  op: Json,
  operationPointer: string,
  registry: readonly ResourceIr[],
  accessPath: { resource: string; path: string } | null,
  requestMembers: readonly string[],
): AnchorRecordsFact | null {
  const node = op[OPERATION_ANCHOR_EXTENSION] as false | string | string[] | undefined;
  const anchor = registry.find((r) => r.anchor);
  if (node !== undefined && anchor === undefined)
    throw new SpecErrorList([
      new SpecError(
        "invalid_extension",
        { pointer: `${operationPointer}/${OPERATION_ANCHOR_EXTENSION}` },
        `no resource of ${RESOURCES_EXTENSION} is the anchor`,
      ),
    ]);
  if (anchor === undefined || node === false) return null;
  if (node !== undefined)
    return { resource: anchor.name, requests: typeof node === "string" ? [node] : node, first: null };
  if (accessPath !== null && accessPath.resource === anchor.name)
    return { resource: anchor.name, requests: [accessPath.path], first: null };
  return requestMembers.includes(anchor.id) ? { resource: anchor.name, requests: [anchor.id], first: null } : null;
}

/** What {@link readOperationResource} needs to know of the operation beside its extension. */
export interface OperationFacts {
  /** `cursor_parameter` and `next_cursor_field` of `x-powercontext-pagination`, and its `items_field`; null without it. */
  readonly page: { readonly cursor: string; readonly nextCursor: string; readonly items: string } | null;
  /** Top-level request member names (parameters and body properties). */
  readonly requestMembers: readonly string[];
  /** The default the request schema gives a top-level member, or undefined. */
  readonly requestDefault: (member: string) => unknown;
}

/**
 * Reads an operation's `x-powercontext-resource` (docs/extensions.md,
 * `resource-use`), whose shape the loader checked, against the registry and the
 * operation: what it names must exist (the resource, `requires`' resources, a version
 * to expect or keep, an ETag to match, an order by id for `last_id` cursors, the joined resources
 * of a list, the request members a conditional `set_when` reads (on a creation), the items
 * of a list, the limit's default), and the members the schema leaves to the
 * generator are filled (`items`, `page`, `limit`, the filters' defaults, `controls`).
 *
 * @throws {SpecErrorList} `invalid_extension` naming the pointer of each broken reference
 */
export function readOperationResource(
  op: Json,
  at: string,
  registry: readonly ResourceIr[],
  facts: OperationFacts,
): OperationResourceIr | null {
  const node = op[OPERATION_RESOURCE_EXTENSION] as Json | undefined;
  if (node === undefined) return null;
  const use = readFact("resource-use", node) as OperationResourceIr;
  const lists = use.action === "list" || use.action === "revisions";
  const limitMember =
    (node.limit as string | undefined) ?? (lists && facts.requestMembers.includes("limit") ? "limit" : null);
  const limitDefault = limitMember === null ? undefined : facts.requestDefault(limitMember);
  const items = use.items ?? facts.page?.items ?? null;
  checkResourceUse(use, node, `${at}/${OPERATION_RESOURCE_EXTENSION}`, registry, {
    listsWithoutItems: lists && items === null,
    limitWithoutDefault: node.limit !== undefined && !Number.isInteger(limitDefault),
    requestMembers: facts.requestMembers,
  });
  const limit =
    limitMember !== null && Number.isInteger(limitDefault)
      ? { request: limitMember, default: limitDefault as number }
      : null;
  const written = (node.filters ?? {}) as Json;
  const filters = use.filters.map((f) => {
    const rule = written[f.member];
    const explicit = typeof rule === "object" && rule !== null && "default" in rule;
    return { ...f, default: explicit ? f.default : scalarOrList(facts.requestDefault(f.request)) };
  });
  const page = facts.page === null ? null : { cursor: facts.page.cursor, nextCursor: facts.page.nextCursor };
  const implied = [
    use.expect?.request,
    page?.cursor,
    limit?.request,
    ...filters.map((f) => f.request),
    ...filters.map((f) => f.until ?? undefined),
  ];
  const controls = [...new Set([...use.controls, ...implied.filter((c): c is string => c !== undefined)])];
  return { ...use, filters, items, page, controls, limit };
}

/**
 * What one `x-powercontext-resource` cannot say alone: the resources it names exist, and the
 * registry row has the version, etag and order its comparisons need.
 *
 * @throws {SpecErrorList} `invalid_extension` naming the pointer of each finding
 */
function checkResourceUse(
  use: OperationResourceIr,
  node: Json,
  where: string,
  registry: readonly ResourceIr[],
  derived: {
    readonly listsWithoutItems: boolean;
    readonly limitWithoutDefault: boolean;
    readonly requestMembers: readonly string[];
  },
): void {
  const issues = new Issues();
  const resource = registry.find((row) => row.name === use.name);
  const unknown = (name: string) => `"${name}" is not a resource of ${RESOURCES_EXTENSION}`;
  if (resource === undefined) issues.bad(`${where}/name`, unknown(use.name));
  for (const { request, resource: name } of use.requires)
    if (!registry.some((row) => row.name === name))
      issues.bad(`${where}/requires/${pointerSegment(request)}`, unknown(name));
  for (const [index, { when }] of use.setWhen.entries()) {
    if (use.action !== "create") issues.bad(`${where}/set_when/${index}`, "only a creation sets members by condition");
    for (const member of Object.keys(when))
      if (!derived.requestMembers.includes(member))
        issues.bad(
          `${where}/set_when/${index}/when/${pointerSegment(member)}`,
          `expected a member of the request, not ${JSON.stringify(member)}`,
        );
  }
  for (const join of use.joins) {
    if (!registry.some((row) => row.name === join.resource))
      issues.bad(`${where}/joins/${pointerSegment(join.name)}/resource`, unknown(join.resource));
    if (use.action !== "list") issues.bad(`${where}/joins/${pointerSegment(join.name)}`, "only a list reads joins");
  }
  if (use.expect !== null && use.expect.member === null && resource?.version === null)
    issues.bad(`${where}/expect`, `resource "${use.name}" has no version to compare with`);
  if (use.ifMatch !== null && resource?.etag === null)
    issues.bad(`${where}/if_match`, `resource "${use.name}" has no etag to compare with`);
  if (use.sameVersion && resource?.version === null)
    issues.bad(`${where}/same_version`, `resource "${use.name}" has no version to keep`);
  if (use.cursor === "last_id" && resource !== undefined && resource.order !== null && resource.order !== resource.id)
    issues.bad(
      `${where}/cursor`,
      `a last_id cursor needs a list ordered by id; resource "${use.name}" is ordered by ${resource.order}`,
    );
  if (derived.listsWithoutItems) issues.bad(where, "a list needs items (or x-powercontext-pagination's items_field)");
  for (const f of use.filters)
    if ((f.until !== null) !== (f.match === "range"))
      issues.bad(`${where}/filters/${pointerSegment(f.member)}`, "until goes with match: range, and range needs until");
  if (derived.limitWithoutDefault)
    issues.bad(`${where}/limit`, `request member "${String(node.limit)}" has no integer default`);
  issues.throwIfAny();
}

type Scalar = string | number | boolean | null;

/** A default kept only when it is a JSON scalar or a list of them (it is written into generated code as a literal), else null. */
function scalarOrList(value: unknown): Scalar | readonly Scalar[] {
  const scalar = (v: unknown): v is Scalar => v === null || ["string", "number", "boolean"].includes(typeof v);
  if (scalar(value)) return value;
  return Array.isArray(value) && value.every(scalar) ? value : null;
}
