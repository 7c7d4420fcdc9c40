// Reading two OpenAPI 3.0 documents (ours and the release's) into comparable
// operation summaries, diffing them, and validating bodies against ours.
import type { ContractValidators } from "../support/contract-validators.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
export type OpenApiDocument = JsonObject & { paths: JsonObject; components?: JsonObject };

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function pointer(doc: OpenApiDocument, ref: string): Json {
  if (!ref.startsWith("#/")) throw new Error(`external $ref not supported: ${ref}`);
  let node: Json = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObject(node)) throw new Error(`bad $ref ${ref}`);
    node = node[key] ?? null;
  }
  return node;
}

function deref(doc: OpenApiDocument, node: Json): Json {
  let current = node;
  for (let i = 0; i < 32 && isObject(current) && typeof current.$ref === "string"; i++) {
    current = pointer(doc, current.$ref);
  }
  return current;
}

/** A schema reduced to what the comparison looks at. */
export interface SchemaShape {
  readonly properties: Map<string, Json>;
  readonly required: Set<string>;
  readonly enumValues: readonly Json[] | null;
  readonly items: Json | null;
}

/** Flatten $ref, allOf, and single-variant anyOf/oneOf (nullable wrappers) into one shape. */
export function shapeOf(doc: OpenApiDocument, node: Json): SchemaShape {
  const properties = new Map<string, Json>();
  const required = new Set<string>();
  let enumValues: Json[] | null = null;
  let items: Json | null = null;
  const visit = (raw: Json, depth: number): void => {
    const schema = deref(doc, raw);
    if (!isObject(schema) || depth > 16) return;
    if (isObject(schema.properties)) {
      for (const [name, value] of Object.entries(schema.properties)) properties.set(name, value);
    }
    if (Array.isArray(schema.required)) for (const name of schema.required) required.add(String(name));
    if (Array.isArray(schema.enum)) enumValues = schema.enum.filter((v) => v !== null);
    if (schema.items !== undefined) items = schema.items;
    if (Array.isArray(schema.allOf)) for (const part of schema.allOf) visit(part, depth + 1);
    for (const key of ["anyOf", "oneOf"] as const) {
      const variants = schema[key];
      if (!Array.isArray(variants)) continue;
      const real = variants.filter((v) => !(isObject(v) && (v.type === "null" || v.nullable === true && Object.keys(v).length === 1)));
      // union of object variants: properties of any variant count, required only when shared
      if (real.length === 1) visit(real[0] ?? null, depth + 1);
      else for (const v of real) {
        const inner = shapeOf(doc, v);
        for (const [name, value] of inner.properties) properties.set(name, value);
      }
    }
  };
  visit(node, 0);
  return { properties, required, enumValues, items };
}

export interface OperationSummary {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  /** every declared 2xx status (ours: success plus the async accepted status) */
  readonly successStatuses: readonly number[];
  readonly errorStatuses: readonly number[];
  readonly parameters: readonly string[];
  readonly requestSchema: Json | null;
  /** success status -> JSON schema of its body */
  readonly responseSchemas: ReadonlyMap<number, Json>;
}

export function operationsOf(doc: OpenApiDocument): Map<string, OperationSummary> {
  const result = new Map<string, OperationSummary>();
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!isObject(item)) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op) || typeof op.operationId !== "string") continue;
      const statuses = Object.keys(isObject(op.responses) ? op.responses : {})
        .filter((s) => /^\d{3}$/.test(s))
        .map(Number)
        .sort((a, b) => a - b);
      const responseSchemas = new Map<number, Json>();
      for (const status of statuses.filter((s) => s >= 200 && s < 300)) {
        const response = deref(doc, (op.responses as JsonObject)[String(status)] ?? null);
        const content = isObject(response) && isObject(response.content) ? response.content : {};
        const media = content["application/json"];
        if (isObject(media) && media.schema !== undefined) responseSchemas.set(status, media.schema);
      }
      const body = deref(doc, op.requestBody ?? null);
      const bodyContent = isObject(body) && isObject(body.content) ? body.content["application/json"] : null;
      const parameters = [...shared, ...(Array.isArray(op.parameters) ? op.parameters : [])]
        .map((p) => deref(doc, p))
        .filter(isObject)
        .map((p) => `${String(p.in)}:${String(p.name)}`)
        .sort();
      result.set(op.operationId, {
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        successStatuses: statuses.filter((s) => s >= 200 && s < 300),
        errorStatuses: statuses.filter((s) => s < 200 || s >= 300),
        parameters,
        requestSchema: isObject(bodyContent) ? (bodyContent.schema ?? null) : null,
        responseSchemas,
      });
    }
  }
  return result;
}

export interface Difference {
  readonly operationId: string;
  /** stable key used by the allow-list in docs/compatibility.md */
  readonly aspect: string;
  readonly ours: string;
  readonly release: string;
}

const show = (values: Iterable<unknown>): string => {
  const list = [...values].map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
  return list.length === 0 ? "(none)" : list.join(", ");
};

function diffSets(a: Iterable<unknown>, b: Iterable<unknown>): { onlyA: string[]; onlyB: string[] } {
  const sa = new Set([...a].map((v) => JSON.stringify(v)));
  const sb = new Set([...b].map((v) => JSON.stringify(v)));
  return {
    onlyA: [...sa].filter((v) => !sb.has(v)).map((v) => JSON.parse(v) as string),
    onlyB: [...sb].filter((v) => !sa.has(v)).map((v) => JSON.parse(v) as string),
  };
}

/** Compare two schemas structurally: property names, required sets and enums, recursively. */
function compareSchemas(
  out: Difference[],
  operationId: string,
  where: string,
  ours: OpenApiDocument,
  oursNode: Json,
  release: OpenApiDocument,
  releaseNode: Json,
  depth: number,
  seen: Set<string>,
): void {
  if (depth > 6) return;
  const a = shapeOf(ours, oursNode);
  const b = shapeOf(release, releaseNode);
  const props = diffSets(a.properties.keys(), b.properties.keys());
  if (props.onlyA.length || props.onlyB.length) {
    out.push({
      operationId,
      aspect: `${where}:properties`,
      ours: props.onlyA.length ? `only ours: ${show(props.onlyA)}` : "-",
      release: props.onlyB.length ? `only release: ${show(props.onlyB)}` : "-",
    });
  }
  const req = diffSets(a.required, b.required);
  if (req.onlyA.length || req.onlyB.length) {
    out.push({
      operationId,
      aspect: `${where}:required`,
      ours: show([...a.required].sort()),
      release: show([...b.required].sort()),
    });
  }
  if (a.enumValues || b.enumValues) {
    const en = diffSets(a.enumValues ?? [], b.enumValues ?? []);
    if (en.onlyA.length || en.onlyB.length) {
      out.push({ operationId, aspect: `${where}:enum`, ours: show(a.enumValues ?? []), release: show(b.enumValues ?? []) });
    }
  }
  for (const [name, value] of a.properties) {
    const other = b.properties.get(name);
    if (other === undefined) continue;
    const key = `${where}.${name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    compareSchemas(out, operationId, key, ours, value, release, other, depth + 1, seen);
  }
  if (a.items !== null && b.items !== null) {
    compareSchemas(out, operationId, `${where}[]`, ours, a.items, release, b.items, depth + 1, seen);
  }
}

export function compareOperations(ours: OpenApiDocument, release: OpenApiDocument): {
  shared: string[];
  onlyOurs: string[];
  onlyRelease: string[];
  differences: Difference[];
} {
  const a = operationsOf(ours);
  const b = operationsOf(release);
  const shared = [...a.keys()].filter((id) => b.has(id)).sort();
  const differences: Difference[] = [];
  for (const id of shared) {
    const x = a.get(id)!;
    const y = b.get(id)!;
    if (x.path !== y.path) differences.push({ operationId: id, aspect: "path", ours: x.path, release: y.path });
    if (x.method !== y.method) differences.push({ operationId: id, aspect: "method", ours: x.method, release: y.method });
    if (show(x.successStatuses) !== show(y.successStatuses)) {
      differences.push({ operationId: id, aspect: "success-statuses", ours: show(x.successStatuses), release: show(y.successStatuses) });
    }
    if (show(x.errorStatuses) !== show(y.errorStatuses)) {
      differences.push({ operationId: id, aspect: "error-statuses", ours: show(x.errorStatuses), release: show(y.errorStatuses) });
    }
    if (show(x.parameters) !== show(y.parameters)) {
      differences.push({ operationId: id, aspect: "parameters", ours: show(x.parameters), release: show(y.parameters) });
    }
    if (x.requestSchema !== null || y.requestSchema !== null) {
      compareSchemas(differences, id, "request", ours, x.requestSchema, release, y.requestSchema, 0, new Set());
    }
    for (const status of x.successStatuses) {
      const mine = x.responseSchemas.get(status);
      const theirs = y.responseSchemas.get(status);
      if (mine !== undefined && theirs !== undefined) {
        compareSchemas(differences, id, `response${status}`, ours, mine, release, theirs, 0, new Set());
      }
    }
  }
  return {
    shared,
    onlyOurs: [...a.keys()].filter((id) => !b.has(id)).sort(),
    onlyRelease: [...b.keys()].filter((id) => !a.has(id)).sort(),
    differences,
  };
}

export function formatDifferences(differences: readonly Difference[]): string {
  if (differences.length === 0) return "no differences";
  const rows = differences.map((d) => `  ${d.operationId} [${d.aspect}]\n      ours:    ${d.ours}\n      release: ${d.release}`);
  return rows.join("\n");
}

/** Allow-list rows parsed from the "Accepted differences" table of docs/compatibility.md. */
export interface AllowedDifference {
  readonly operationId: string;
  /** exact aspect, or a prefix ending in `*` */
  readonly aspect: string;
  /** the row's reason column, as written */
  readonly reason: string;
}

export function parseAllowList(markdown: string): AllowedDifference[] {
  const start = markdown.search(/^##+ Accepted differences/m);
  if (start < 0) return [];
  const rest = markdown.slice(start).split("\n").slice(1);
  const rows: AllowedDifference[] = [];
  for (const line of rest) {
    if (/^##/.test(line)) break;
    // table rows only: prose may hold a `|` inside code spans
    if (!line.trimStart().startsWith("|")) continue;
    const cells = line.split("|").map((c) => c.trim());
    if (cells.length < 4) continue;
    const id = cells[1]?.replace(/`/g, "") ?? "";
    const aspect = cells[2]?.replace(/`/g, "") ?? "";
    if (!id || id === "operationId" || /^-+$/.test(id)) continue;
    rows.push({ operationId: id, aspect, reason: cells.slice(3, -1).join("|").trim() });
  }
  return rows;
}

export function isAllowed(d: Difference, allow: readonly AllowedDifference[]): boolean {
  return allow.some(
    (a) =>
      (a.operationId === d.operationId || a.operationId === "*") &&
      (a.aspect === d.aspect || (a.aspect.endsWith("*") && d.aspect.startsWith(a.aspect.slice(0, -1)))),
  );
}

/**
 * Body validation against our contract for (operation, status): a 2xx body against the
 * schema the operation declares for it, any other body against `ErrorResponse`.
 */
export class BodyValidator {
  private readonly ops: Map<string, OperationSummary>;

  constructor(private readonly contract: ContractValidators) {
    this.ops = operationsOf(contract.document as OpenApiDocument);
  }

  operation(operationId: string): OperationSummary | undefined {
    return this.ops.get(operationId);
  }

  /** null when valid, otherwise a short error text */
  validateResponse(operationId: string, status: number, body: unknown): string | null {
    if (!this.ops.has(operationId)) return `unknown operation ${operationId}`;
    const validate = status >= 200 && status < 300
      ? this.contract.response(operationId, status)?.validate
      : this.contract.schema("ErrorResponse");
    if (!validate) return null;
    return validate(body) ? null : this.contract.ajv.errorsText(validate.errors, { dataVar: "body" });
  }
}
