// What of an OpenAPI 3.0 document is wire contract and what is prose or our own
// annotation. Shared by the sync script (which drops the release's prose) and by the
// contract tests (which compare the wire view of openapi.yaml with the release's).
//
// The walk is keyword-aware: `description` is prose where it is an OpenAPI keyword
// (an operation, a schema, a response, a parameter), but a member *name* inside
// `properties`, `paths`, `responses`, ... (the release has schema members called
// `summary`, `description` and `title`). Values of `enum`, `default` and vendor
// extensions are data and are never walked.

/** Keywords that carry human text only; the wire does not depend on them. */
export const PROSE_KEYWORDS = Object.freeze(["summary", "description", "title", "example", "examples"]);

/**
 * Extensions this repository adds on top of the release (docs/adr/0012-release-contract-sync.md).
 * They are annotations for our generator and runtime, not wire facts, so the wire view drops them.
 * Every other `x-*` member (the release's own `x-powercontext-access`, `-scope-mode`,
 * `-feature-contracts`, schema validation markers) is kept and compared.
 */
export const OUR_EXTENSIONS = Object.freeze([
  "x-powercontext-retry-class",
  "x-powercontext-async",
  "x-powercontext-reconcile",
  "x-powercontext-pagination",
  "x-powercontext-error-envelope",
  "x-powercontext-errors",
  "x-powercontext-error-codes",
  "x-powercontext-request-id-header",
  "x-powercontext-client-headers",
  "x-powercontext-scope-field",
  "x-powercontext-not-served",
  "x-powercontext-rules",
  "x-powercontext-router",
  "x-powercontext-refusals",
  "x-powercontext-media-from",
  "x-powercontext-answer",
  "x-powercontext-release",
  "x-powercontext-exclude-unset",
  "x-powercontext-query-model",
  "x-powercontext-rule-answer",
  "x-powercontext-resources",
  "x-powercontext-resource",
  "x-powercontext-anchor",
  "x-powercontext-access-policy",
  "x-powercontext-access-resolvers",
  "x-powercontext-access-after",
  "x-powercontext-access-owner",
]);

/** Members whose keys are names (of properties, paths, statuses, media types, components), not keywords. */
const NAME_MAPS = new Set([
  "properties",
  "patternProperties",
  "paths",
  "responses",
  "schemas",
  "headers",
  "securitySchemes",
  "content",
  "mapping",
  "requestBodies",
  "links",
  "callbacks",
  "encoding",
  "variables",
]);

/** Members whose values are data (never walked for keywords). */
const DATA_KEYWORDS = new Set(["enum", "default", "const", "required"]);

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * Rebuilds `node`, asking `visit(key, value, path)` about every keyword member of every
 * keyword object (operations, schemas, responses, parameters, ...). `visit` returns
 * `undefined` to keep the member as it is, `null` to drop it, or `{ value }` to replace it.
 * Key order is kept. Pure: `node` is not changed.
 *
 * @param {unknown} node the document or a part of it
 * @param {(key: string, value: unknown, path: string[]) => undefined | null | { value: unknown }} visit
 * @param {string[]} [path] JSON pointer segments of `node`
 */
export function mapKeywords(node, visit, path = []) {
  return walk(node, visit, path, false);
}

function walk(node, visit, path, namesHere) {
  if (Array.isArray(node)) return node.map((item, index) => walk(item, visit, [...path, String(index)], false));
  if (!isObject(node)) return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    const at = [...path, key];
    if (namesHere) {
      out[key] = walk(value, visit, at, false);
      continue;
    }
    const verdict = visit(key, value, path);
    if (verdict === null) continue;
    if (verdict !== undefined) {
      out[key] = verdict.value;
      continue;
    }
    if (key.startsWith("x-") || DATA_KEYWORDS.has(key)) out[key] = value;
    else if (NAME_MAPS.has(key) || (key === "parameters" && isObject(value))) out[key] = walk(value, visit, at, true);
    else out[key] = walk(value, visit, at, false);
  }
  return out;
}

/**
 * The wire view of a document: without `info`, top-level `tags`, prose keywords and our
 * extensions. Two documents with equal wire views accept and produce the same requests
 * and responses.
 *
 * @param {Record<string, unknown>} document
 */
export function wireView(document) {
  const dropped = new Set([...PROSE_KEYWORDS, ...OUR_EXTENSIONS]);
  const view = mapKeywords(document, (key) => (dropped.has(key) ? null : undefined));
  delete view.info;
  delete view.tags;
  return view;
}

/**
 * Every prose text of a document with its JSON pointer: summaries, descriptions and titles
 * in keyword positions (strings only).
 *
 * @param {Record<string, unknown>} document
 * @returns {{ pointer: string, text: string }[]}
 */
export function proseOf(document) {
  const found = [];
  mapKeywords(document, (key, value, path) => {
    if ((key === "summary" || key === "description" || key === "title") && typeof value === "string") {
      found.push({ pointer: toPointer([...path, key]), text: value });
    }
    return undefined;
  });
  return found;
}

/** RFC 6901 pointer of path segments. */
export function toPointer(segments) {
  return segments.map((s) => `/${String(s).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/** Path segments of an RFC 6901 pointer. */
export function fromPointer(pointer) {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new Error(`not a JSON pointer: ${pointer}`);
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}
