// Loading the overlay: everything openapi.yaml has that the release's wire facts do
// not give us (our prose, our extensions, the seed additions). Layout and rules are in
// docs/adr/0012-release-contract-sync.md.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import yaml from "js-yaml";
import { OUR_EXTENSIONS } from "./wire-view.mjs";

/** Members an operation entry may have besides our `x-powercontext-*` extensions. */
const OPERATION_KEYS = new Set(["summary", "description", "responses", "parameters", "add"]);
const DOCUMENT_KEYS = new Set([
  "header",
  "info",
  "extensions",
  "corrections",
  "securitySchemes",
  "headers",
  "responses",
  "response-defaults",
  "schemas",
  "parameters",
]);
const ADDITION_KEYS = new Set(["paths", "components"]);
/** The overlay file of model rules (docs/architecture.md, "Model rules"). */
const MODEL_RULES = "model-rules.yaml";

/**
 * @typedef {{ summary: string, description?: string, responses?: Record<string, string>,
 *   parameters?: Record<string, string>, add?: Record<string, unknown>, [extension: string]: unknown }} OperationOverlay
 * @typedef {{ document: Record<string, any>, additions: { paths: Record<string, any>, components: Record<string, any> },
 *   operations: Map<string, OperationOverlay>, modelRules: Record<string, Record<string, unknown>[]>, files: string[] }} Overlay
 */

/** An overlay that breaks the rules; `where` names the file and the member. */
export class OverlayError extends Error {
  constructor(where, detail) {
    super(`${where}: ${detail}`);
    this.name = "OverlayError";
    this.where = where;
  }
}

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

function readYaml(path, root) {
  const where = relative(root, path);
  let value;
  try {
    value = yaml.load(readFileSync(path, "utf8"), { filename: where });
  } catch (error) {
    throw new OverlayError(where, error.message);
  }
  if (!isObject(value)) throw new OverlayError(where, "expected a mapping at the top");
  return { where, value };
}

function checkKeys(where, value, allowed) {
  for (const key of Object.keys(value)) {
    if (!allowed.has(key))
      throw new OverlayError(where, `unknown member "${key}" (allowed: ${[...allowed].join(", ")})`);
  }
}

function checkOperation(where, id, entry) {
  const at = `${where} ${id}`;
  if (!isObject(entry)) throw new OverlayError(at, "expected a mapping");
  for (const key of Object.keys(entry)) {
    if (key.startsWith("x-")) {
      if (!OUR_EXTENSIONS.includes(key))
        throw new OverlayError(at, `"${key}" is not one of our extensions (${OUR_EXTENSIONS.join(", ")})`);
    } else if (!OPERATION_KEYS.has(key)) {
      throw new OverlayError(at, `unknown member "${key}"`);
    }
  }
  for (const key of ["responses", "parameters"]) {
    const map = entry[key];
    if (map !== undefined && (!isObject(map) || !Object.values(map).every((v) => typeof v === "string"))) {
      throw new OverlayError(at, `${key} must map names to description texts`);
    }
  }
}

/**
 * Reads `<dir>/document.yaml`, `<dir>/extensions/*.yaml` (document-level extensions kept
 * in files of their own, merged into the document's `extensions`), `<dir>/additions/*.yaml`,
 * `<dir>/operations/*.yaml` and, when it exists, `<dir>/model-rules.yaml` (schema name ->
 * list of rules).
 * An operationId may appear in several operation files as long as no member is given twice
 * (the seed files add wire members to release operations that another file describes).
 *
 * @param {string} dir the overlay directory
 * @param {string} root the repository root (file names in errors are relative to it)
 * @returns {Overlay}
 * @throws {OverlayError} on unreadable YAML, unknown members, a member given twice, a
 *   component or path added twice, an extension that is not ours or is given twice, or a
 *   model rule that is not a `{ rule, ... }` mapping
 */
export function loadOverlay(dir, root) {
  const files = [];
  const doc = readYaml(join(dir, "document.yaml"), root);
  files.push(doc.where);
  checkKeys(doc.where, doc.value, DOCUMENT_KEYS);
  const extensions = { ...(doc.value.extensions ?? {}) };
  for (const name of yamlFiles(join(dir, "extensions"))) {
    const { where, value } = readYaml(join(dir, "extensions", name), root);
    files.push(where);
    for (const [key, member] of Object.entries(value)) {
      if (!OUR_EXTENSIONS.includes(key))
        throw new OverlayError(where, `"${key}" is not one of our extensions (${OUR_EXTENSIONS.join(", ")})`);
      if (key in extensions) throw new OverlayError(where, `"${key}" is also given in another overlay file`);
      extensions[key] = member;
    }
  }

  const additions = { paths: {}, components: {} };
  for (const name of yamlFiles(join(dir, "additions"))) {
    const { where, value } = readYaml(join(dir, "additions", name), root);
    files.push(where);
    checkKeys(where, value, ADDITION_KEYS);
    for (const [path, item] of Object.entries(value.paths ?? {})) {
      if (path in additions.paths) throw new OverlayError(where, `path ${path} is added twice`);
      additions.paths[path] = item;
    }
    for (const [section, members] of Object.entries(value.components ?? {})) {
      const target = (additions.components[section] ??= {});
      for (const [name, member] of Object.entries(members ?? {})) {
        if (name in target) throw new OverlayError(where, `components.${section}.${name} is added twice`);
        target[name] = member;
      }
    }
  }

  const operations = new Map();
  for (const name of yamlFiles(join(dir, "operations"))) {
    const { where, value } = readYaml(join(dir, "operations", name), root);
    files.push(where);
    for (const [id, entry] of Object.entries(value)) {
      checkOperation(where, id, entry);
      const merged = operations.get(id) ?? {};
      for (const [key, member] of Object.entries(entry)) {
        if (key in merged) throw new OverlayError(`${where} ${id}`, `"${key}" is also given in another overlay file`);
        merged[key] = member;
      }
      operations.set(id, merged);
    }
  }
  const modelRules = {};
  if (existsSync(join(dir, MODEL_RULES))) {
    const { where, value } = readYaml(join(dir, MODEL_RULES), root);
    files.push(where);
    for (const [schema, rules] of Object.entries(value)) {
      if (!Array.isArray(rules) || !rules.every((rule) => isObject(rule) && typeof rule.rule === "string")) {
        throw new OverlayError(`${where} ${schema}`, "expected a list of { rule: <name>, ... }");
      }
      modelRules[schema] = rules;
    }
  }
  return { document: { ...doc.value, extensions }, additions, operations, modelRules, files };
}

function yamlFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith(".yaml"))
    .sort();
}
