import { SpecError, SpecErrorList } from "../errors.js";
import type { Json } from "./domain.js";
import type { RouterIr } from "./model.js";
import { schemaIssues } from "./access-facts.js";

/** The document-level extension describing the server's router (docs/architecture.md). */
export const ROUTER_EXTENSION = "x-powercontext-router";

const AT = `/${ROUTER_EXTENSION}`;

/** Members of the router that say how the server answers before routing (`routerAnswers` of the access schema). */
const ANSWER_KEYS = new Set(["public-paths", "public-prefixes", "framework-bodies"]);

/**
 * Reads `x-powercontext-router`: `{ order: [operationId, ...], raw-path-prefixes: [prefix, ...],
 * public-paths?, public-prefixes?, framework-bodies? }`, how the server routes a request
 * before any operation runs. `order` lists operations in the order the server registers
 * their routes, each at most once; `raw-path-prefixes` are the path prefixes (starting
 * with `/`) of the routes it matches against the path as sent; `public-paths` and
 * `public-prefixes` the paths it serves without a credential, `framework-bodies` the
 * bodies of its 404 and 405 (checked with `codegen/src/schema/access.schema.json`).
 * Null when the document has no such extension.
 *
 * @param operationIds - every operationId of the document
 * @throws {SpecErrorList} `invalid_extension` naming the pointer of every malformed member
 */
export function readRouter(document: Json, operationIds: readonly string[]): RouterIr | null {
  const node: unknown = document[ROUTER_EXTENSION];
  if (node === undefined) return null;
  const issues: SpecError[] = [];
  const bad = (pointer: string, detail: string) => issues.push(new SpecError("invalid_extension", { pointer }, detail));
  if (typeof node !== "object" || node === null || Array.isArray(node)) {
    bad(AT, "expected { order: [operationId, ...], raw-path-prefixes: [prefix, ...] }");
    throw new SpecErrorList(issues);
  }
  const raw = node as Json;
  for (const key of Object.keys(raw))
    if (key !== "order" && key !== "raw-path-prefixes" && !ANSWER_KEYS.has(key))
      bad(`${AT}/${key}`, `unknown member (allowed: order, raw-path-prefixes, ${[...ANSWER_KEYS].join(", ")})`);
  issues.push(...schemaIssues("routerAnswers", raw, AT));
  const known = new Set(operationIds);
  const order: string[] = [];
  if (!Array.isArray(raw.order)) bad(`${AT}/order`, "expected a list of operationIds");
  else {
    raw.order.forEach((id: unknown, index: number) => {
      if (typeof id !== "string" || !known.has(id))
        bad(`${AT}/order/${index}`, `${JSON.stringify(id)} is not an operationId of the document`);
      else if (order.includes(id)) bad(`${AT}/order/${index}`, `${id} is listed twice`);
      else order.push(id);
    });
  }
  const prefixes = raw["raw-path-prefixes"] ?? [];
  const rawPathPrefixes: string[] = [];
  if (!Array.isArray(prefixes)) bad(`${AT}/raw-path-prefixes`, "expected a list of path prefixes");
  else {
    prefixes.forEach((prefix: unknown, index: number) => {
      if (typeof prefix !== "string" || !prefix.startsWith("/"))
        bad(`${AT}/raw-path-prefixes/${index}`, "expected a path prefix starting with /");
      else rawPathPrefixes.push(prefix);
    });
  }
  if (issues.length > 0) throw new SpecErrorList(issues);
  const bodies = (raw["framework-bodies"] ?? null) as { "404": Json; "405": Json } | null;
  return {
    order,
    rawPathPrefixes,
    publicPaths: (raw["public-paths"] ?? []) as string[],
    publicPrefixes: (raw["public-prefixes"] ?? []) as string[],
    frameworkBodies: bodies === null ? null : { notFound: bodies["404"], methodNotAllowed: bodies["405"] },
  };
}
