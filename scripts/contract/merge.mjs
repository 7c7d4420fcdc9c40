// The release's wire facts + our overlay -> the document written to openapi.yaml. Pure.
import { OverlayError } from "./overlay.mjs";
import { RELEASE } from "./release.mjs";
import { PROSE_KEYWORDS, fromPointer, mapKeywords } from "./wire-view.mjs";

const METHODS = ["get", "put", "post", "delete", "patch"];
const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * Builds our contract from the release's document and the overlay.
 *
 * - The release's prose (summaries, descriptions, titles, examples) is dropped everywhere;
 *   its wire members keep their order.
 * - Paths and components of `overlay.additions` are added; a name the release already has
 *   is an error (an addition never replaces a release fact).
 * - Every operation must have an overlay entry with a summary; its `add` member is
 *   deep-added under the same rule; our extensions come right after `operationId`.
 * - `corrections` of the document overlay set members of the release's objects that must
 *   change (each one is a listed difference in docs/compatibility.md); nothing else may
 *   replace a release value.
 * - Every response object ends up with a description (OpenAPI requires one).
 * - `overlay.modelRules` become the named schemas' `x-powercontext-rules`; every schema the
 *   release marks with a validation of its own code (RELEASE_RULE_MARKERS) must have rules.
 *
 * @param {Record<string, any>} release the release's OpenAPI document
 * @param {import("./overlay.mjs").Overlay} overlay
 * @returns {Record<string, any>}
 * @throws {OverlayError} on a missing or stale overlay entry, an addition that would
 *   replace a release member, or model rules for a schema or member that does not exist
 */
export function mergeContract(release, overlay) {
  const prose = new Set(PROSE_KEYWORDS);
  const doc = mapKeywords(release, (key) => (prose.has(key) ? null : undefined));
  const od = overlay.document;
  for (const correction of od.corrections ?? []) applyCorrection(doc, correction);

  deepAdd(doc.paths, overlay.additions.paths, "/paths");
  for (const [section, members] of Object.entries(overlay.additions.components)) {
    doc.components[section] ??= {};
    deepAdd(doc.components[section], members, `/components/${section}`);
  }

  const used = new Set();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      if (!isObject(item[method])) continue;
      const id = item[method].operationId;
      const entry = overlay.operations.get(id);
      if (entry === undefined)
        throw new OverlayError("overlay/operations", `operation ${id} (${method.toUpperCase()} ${path}) has no entry`);
      used.add(id);
      item[method] = describeOperation(item[method], entry, od["response-defaults"] ?? {});
    }
  }
  const stale = [...overlay.operations.keys()].filter((id) => !used.has(id));
  if (stale.length > 0)
    throw new OverlayError(
      "overlay/operations",
      `entries for operations the contract does not have: ${stale.join(", ")}`,
    );

  const components = doc.components;
  describeNamed(components.responses, od.responses, "responses", true);
  describeNamed(components.headers, od.headers, "headers", false);
  describeNamed(components.securitySchemes, od.securitySchemes, "securitySchemes", false);
  describeNamed(components.parameters ?? {}, od.parameters, "parameters", false);
  describeSchemas(components.schemas, od.schemas ?? {});
  addModelRules(components.schemas, overlay.modelRules ?? {});

  const out = {};
  for (const [key, value] of Object.entries(doc)) {
    out[key] = key === "info" ? { ...od.info } : value;
  }
  // The release's identity stays a fact of the document when our info block replaces its own.
  const identity =
    typeof doc.info?.version === "string"
      ? { "x-powercontext-release": { ...RELEASE, "contract-version": doc.info.version } }
      : {};
  return { ...out, ...identity, ...(od.extensions ?? {}) };
}

function describeOperation(op, entry, defaults) {
  const id = op.operationId;
  if (typeof entry.summary !== "string" || entry.summary.trim() === "")
    throw new OverlayError(`overlay ${id}`, "summary is missing");
  const wire = structuredClone(op);
  if (entry.add !== undefined) deepAdd(wire, entry.add, `/operations/${id}`);
  const ours = Object.fromEntries(Object.entries(entry).filter(([key]) => key.startsWith("x-")));
  const out = {};
  for (const [key, value] of Object.entries(wire)) {
    if (key === "operationId") {
      out.summary = entry.summary;
      if (entry.description !== undefined) out.description = entry.description;
      out.operationId = value;
      Object.assign(out, ours);
    } else {
      out[key] = value;
    }
  }
  describeParameters(out, entry.parameters ?? {}, id);
  for (const [status, response] of Object.entries(out.responses ?? {})) {
    if (typeof response.$ref === "string") {
      if (entry.responses?.[status] !== undefined)
        throw new OverlayError(`overlay ${id}`, `response ${status} is a $ref; describe the component instead`);
      continue;
    }
    const text = entry.responses?.[status] ?? response.description ?? defaults[status];
    if (typeof text !== "string")
      throw new OverlayError(
        `overlay ${id}`,
        `response ${status} needs a description (none given and no default for ${status})`,
      );
    out.responses[status] = { description: text, ...withoutDescription(response) };
  }
  for (const status of Object.keys(entry.responses ?? {})) {
    if (!(status in (out.responses ?? {})))
      throw new OverlayError(`overlay ${id}`, `describes response ${status}, which the operation does not declare`);
  }
  return out;
}

function describeParameters(op, texts, id) {
  const names = new Set();
  op.parameters = op.parameters?.map((parameter) => {
    if (typeof parameter.$ref === "string") return parameter;
    names.add(parameter.name);
    const text = texts[parameter.name];
    if (text === undefined) return parameter;
    const out = {};
    for (const [key, value] of Object.entries(parameter)) {
      out[key] = value;
      if (key === "in") out.description = text;
    }
    return out;
  });
  if (op.parameters === undefined) delete op.parameters;
  for (const name of Object.keys(texts)) {
    if (!names.has(name))
      throw new OverlayError(
        `overlay ${id}`,
        `describes parameter ${name}, which the operation does not declare inline`,
      );
  }
}

function describeNamed(members, texts = {}, section, required) {
  for (const [name, member] of Object.entries(members ?? {})) {
    const text = texts[name] ?? member.description;
    if (text === undefined) {
      if (required)
        throw new OverlayError("overlay/document.yaml", `components.${section}.${name} needs a description`);
      continue;
    }
    members[name] = { description: text, ...withoutDescription(member) };
  }
  for (const name of Object.keys(texts)) {
    if (!(name in (members ?? {})))
      throw new OverlayError("overlay/document.yaml", `describes components.${section}.${name}, which does not exist`);
  }
}

function describeSchemas(schemas, texts) {
  for (const [name, text] of Object.entries(texts)) {
    const schema = schemas[name];
    if (schema === undefined)
      throw new OverlayError("overlay/document.yaml", `describes schema ${name}, which does not exist`);
    const entry = typeof text === "string" ? { description: text } : text;
    if (entry.description !== undefined)
      schemas[name] = { description: entry.description, ...withoutDescription(schema) };
    for (const [member, memberText] of Object.entries(entry.properties ?? {})) {
      const property = schemas[name].properties?.[member];
      if (property === undefined)
        throw new OverlayError("overlay/document.yaml", `describes ${name}.${member}, which does not exist`);
      schemas[name].properties[member] = { description: memberText, ...withoutDescription(property) };
    }
  }
}

/**
 * Markers the release puts on a schema whose models run a check of the release's own code
 * after validation. What such a check does is not in the release's contract, so the
 * overlay states it as rules (contract/overlay/model-rules.yaml).
 */
export const RELEASE_RULE_MARKERS = Object.freeze([
  "x-powercontext-code-validation",
  "x-powercontext-artifact-search-validation",
]);

/**
 * Members a rule names: `members` (without an item or map suffix: `tags[]` names `tags`),
 * `member`, `from`, `to` and the first step of `path`, `list`, each of `paths` and
 * `when.path` (each must be a property of the schema).
 */
function namedMembers(rule) {
  const paths = [rule.path, rule.list, rule.when?.path, ...(Array.isArray(rule.paths) ? rule.paths : [])];
  const names = [
    ...(Array.isArray(rule.members) ? rule.members : []).map((m) => String(m).replace(/(\[\]|\{\}|\{\*\})$/, "")),
    rule.member,
    rule.from,
    rule.to,
    ...paths.map((path) => (Array.isArray(path) ? path[0] : undefined)),
  ];
  return names.filter((name) => name !== undefined).map(String);
}

/**
 * The release's wire models do not enforce every `uniqueItems` its contract states: where
 * a model accepts duplicates and the server refuses them later, the overlay states the
 * check as a runtime `unique-items` rule, and the member's schema loses `uniqueItems`, so
 * that the SDK sends what the release's client sends (test/contract checks both facts
 * against the installed release).
 */
function dropRuntimeUniqueness(schema, list) {
  for (const rule of list) {
    if (rule.rule !== "unique-items" || rule.stage !== "runtime") continue;
    for (const member of rule.members ?? []) {
      const property = schema.properties?.[member];
      if (property?.uniqueItems === true) delete property.uniqueItems;
    }
  }
}

/**
 * The release's request models type some optional members `X | None` where its contract
 * does not say nullable, and read null as left out: where the overlay states that with a
 * `null-as-absent` rule, the member's schema takes null (a reference is wrapped in `allOf`,
 * as OpenAPI 3.0 ignores members beside `$ref`), so that the SDK sends what the release's
 * client sends (test/contract checks the fact against the installed release's models).
 */
function admitNull(schema, list) {
  for (const rule of list) {
    if (rule.rule !== "null-as-absent") continue;
    for (const member of rule.members ?? []) {
      const property = schema.properties?.[member];
      if (!isObject(property) || property.nullable === true) continue;
      if (typeof property.$ref === "string") {
        const { $ref, ...rest } = property;
        schema.properties[member] = { ...rest, allOf: [{ $ref }], nullable: true };
      } else property.nullable = true;
    }
  }
}

/**
 * Puts each schema's rules on it as `x-powercontext-rules` (the schemas object is changed).
 *
 * @param {Record<string, any>} schemas `components.schemas` of a release document
 * @param {Record<string, Record<string, unknown>[]>} rules the overlay's `modelRules`
 * @throws {OverlayError} for rules of a schema or member that does not exist, and for a
 *   schema with a RELEASE_RULE_MARKERS marker but no rules
 */
export function addModelRules(schemas, rules) {
  for (const [name, list] of Object.entries(rules)) {
    const schema = schemas[name];
    if (!isObject(schema))
      throw new OverlayError("overlay/model-rules.yaml", `rules for schema ${name}, which does not exist`);
    for (const member of list.flatMap(namedMembers)) {
      if (!isObject(schema.properties?.[member]))
        throw new OverlayError(
          "overlay/model-rules.yaml",
          `a rule of ${name} names member ${member}, which ${name} does not have`,
        );
    }
    dropRuntimeUniqueness(schema, list);
    admitNull(schema, list);
    schema["x-powercontext-rules"] = structuredClone(list);
  }
  for (const [name, schema] of Object.entries(schemas)) {
    const marker = RELEASE_RULE_MARKERS.find((key) => key in schema);
    if (marker !== undefined && !(name in rules)) {
      throw new OverlayError(
        "overlay/model-rules.yaml",
        `the release marks schema ${name} with ${marker}; state what it checks as rules`,
      );
    }
  }
}

function applyCorrection(doc, correction) {
  const { pointer, set } = correction ?? {};
  if (typeof pointer !== "string" || !isObject(set))
    throw new OverlayError("overlay/document.yaml", "a correction is { pointer, set: { member: value } }");
  let target = doc;
  for (const segment of fromPointer(pointer)) {
    target = isObject(target) || Array.isArray(target) ? target[segment] : undefined;
  }
  if (!isObject(target))
    throw new OverlayError("overlay/document.yaml", `correction ${pointer} names no object of the release`);
  Object.assign(target, structuredClone(set));
}

function withoutDescription(value) {
  const { description: _ignored, ...rest } = value;
  return rest;
}

/** Adds `addition` into `target`; a member that exists must be a mapping on both sides. */
function deepAdd(target, addition, pointer) {
  for (const [key, value] of Object.entries(addition ?? {})) {
    const at = `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    if (!(key in target)) target[key] = structuredClone(value);
    else if (isObject(target[key]) && isObject(value)) deepAdd(target[key], value, at);
    else throw new OverlayError("overlay", `${at} exists in the release; an overlay adds, it never replaces`);
  }
}
