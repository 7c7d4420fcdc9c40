/**
 * Contract drift: the operations of the contract this package was generated from
 * compared with the contract a server serves (`GET /openapi.json`), before anything is
 * sent to it. Operations are paired by operationId; within a pair, parameters, the
 * request body, statuses and success bodies are compared schema by schema, each change
 * classified from the point of view of an app whose tests run against the mock:
 *
 * - **breaking**: a request the mock accepts may be refused by the server, or an answer
 *   the app reads may differ (a member required by the server only, a value the server
 *   no longer takes, a narrower bound, another type, a success status or member gone, a
 *   new value in an answer's enum);
 * - **compatible**: what such an app cannot notice (a new optional member or parameter,
 *   a wider bound, a new error status).
 *
 * Descriptions, examples and `x-` extensions are not compared. Operations only one side
 * has are listed, never classified: the server may be older or newer than the contract.
 */

/** A JSON value of an OpenAPI document. */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object of an OpenAPI document. */
export type JsonObject = { [key: string]: Json };

/** One operation of a document, as drift names it. */
export interface DriftOperation {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
}

/** One difference within an operation both documents have. */
export interface DriftChange {
  /** Where: `parameters/query/limit`, `request/title`, `responses/200/items[]/score`, ... */
  readonly at: string;
  /** What changed, in a few words: "required by the server only", "enum lost \"auto\"", ... */
  readonly change: string;
  readonly breaking: boolean;
}

/** The changes of one operation both documents have. */
export interface OperationDrift extends DriftOperation {
  readonly changes: readonly DriftChange[];
}

/** What {@link compareContracts} found. */
export interface DriftReport {
  /** `info.version` of the contract and of the server's document (null when it has none). */
  readonly versions: { readonly contract: string | null; readonly server: string | null };
  /** Operations the server serves that the contract does not have. */
  readonly added: readonly DriftOperation[];
  /** Operations of the contract the server does not serve (reported, not failed). */
  readonly missing: readonly DriftOperation[];
  /** Operations both have whose shape differs. */
  readonly changed: readonly OperationDrift[];
  /** Number of breaking changes over every changed operation. */
  readonly breaking: number;
}

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;

/** Beyond this depth two schemas are taken to agree (a recursive schema ends here). */
const MAX_DEPTH = 24;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Every operation of `document` by operationId (method + path where it has none). */
function operationsOf(document: JsonObject): Map<string, DriftOperation & { readonly node: JsonObject }> {
  const found = new Map<string, DriftOperation & { readonly node: JsonObject }>();
  const paths = isObject(document.paths) ? document.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const node = item[method];
      if (!isObject(node)) continue;
      const operationId = typeof node.operationId === "string" ? node.operationId : `${method} ${path}`;
      const shared = Array.isArray(item.parameters) ? item.parameters : [];
      const own = Array.isArray(node.parameters) ? node.parameters : [];
      found.set(operationId, {
        operationId,
        method: method.toUpperCase(),
        path,
        node: { ...node, parameters: [...shared, ...own] },
      });
    }
  }
  return found;
}

/** Resolves a local `$ref` (`#/...`) of `document`; anything else stays as it is. */
function resolve(document: JsonObject, node: Json | undefined): Json | undefined {
  let current = node;
  for (let hops = 0; hops < 32 && isObject(current) && typeof current.$ref === "string"; hops += 1) {
    const ref = current.$ref;
    if (!ref.startsWith("#/")) return current;
    let target: Json | undefined = document;
    for (const raw of ref.slice(2).split("/")) {
      const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
      target = isObject(target) ? target[key] : undefined;
    }
    current = target;
  }
  return current;
}

/** Which way a schema is read: a request the app sends, or an answer it reads. */
type Direction = "request" | "response";

interface Side {
  readonly document: JsonObject;
  readonly schema: JsonObject;
}

/** The JSON types a schema allows (3.0 `nullable` and 3.1 type lists alike); empty when it does not say. */
function typesOf(schema: JsonObject): Set<string> {
  const types = new Set<string>();
  if (typeof schema.type === "string") types.add(schema.type);
  if (Array.isArray(schema.type)) for (const t of schema.type) if (typeof t === "string") types.add(t);
  if (schema.nullable === true) types.add("null");
  if (types.has("integer") && types.has("number")) types.delete("integer");
  return types;
}

/** A numeric bound with its exclusiveness. */
interface Bound {
  readonly value: number;
  readonly exclusive: boolean;
}

/**
 * The effective lower or upper bound of a number schema, whichever way it is written
 * (3.0 `minimum` with a boolean `exclusiveMinimum`, 3.1's numeric one, or both, as
 * some servers publish): the tightest of them; null when there is none.
 */
function numericBound(schema: JsonObject, side: "lower" | "upper"): Bound | null {
  const inclusive = schema[side === "lower" ? "minimum" : "maximum"];
  const exclusive = schema[side === "lower" ? "exclusiveMinimum" : "exclusiveMaximum"];
  const bounds: Bound[] = [];
  if (typeof inclusive === "number") bounds.push({ value: inclusive, exclusive: exclusive === true });
  if (typeof exclusive === "number") bounds.push({ value: exclusive, exclusive: true });
  return bounds.reduce<Bound | null>((best, b) => (best === null || tighter(b, best, side) ? b : best), null);
}

/** True when bound `a` admits fewer values than `b` on that side. */
function tighter(a: Bound, b: Bound, side: "lower" | "upper"): boolean {
  if (a.value !== b.value) return side === "lower" ? a.value > b.value : a.value < b.value;
  return a.exclusive && !b.exclusive;
}

function showBound(bound: Bound | null): string {
  return bound === null ? "none" : `${bound.exclusive ? "exclusive " : ""}${bound.value}`;
}

function listOf(value: Json | undefined): Json[] {
  return Array.isArray(value) ? value : [];
}

/** Compares two schemas of one place and records every change at or below `at`. */
class SchemaComparison {
  readonly changes: DriftChange[] = [];
  readonly #seen = new Set<string>();

  constructor(
    private readonly contract: JsonObject,
    private readonly server: JsonObject,
  ) {}

  add(at: string, change: string, breaking: boolean): void {
    this.changes.push({ at, change, breaking });
  }

  compare(at: string, ours: Json | undefined, theirs: Json | undefined, direction: Direction, depth = 0): void {
    const mine = resolve(this.contract, ours);
    const other = resolve(this.server, theirs);
    if (!isObject(mine) || !isObject(other) || depth > MAX_DEPTH) return;
    // A recursive schema pair is compared once per place.
    const key = `${direction} ${JSON.stringify(ours)} ${JSON.stringify(theirs)}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    this.#types(at, { document: this.contract, schema: mine }, { document: this.server, schema: other }, direction);
    this.#enums(at, mine, other, direction);
    this.#bounds(at, mine, other, direction);
    this.#properties(at, mine, other, direction, depth);
    if (mine.items !== undefined || other.items !== undefined)
      this.compare(`${at}[]`, mine.items, other.items, direction, depth + 1);
    for (const keyword of ["oneOf", "anyOf"] as const) {
      const a = listOf(mine[keyword]);
      const b = listOf(other[keyword]);
      if (a.length !== b.length && (a.length > 0 || b.length > 0))
        this.add(at, `${keyword} has ${b.length} alternatives on the server, ${a.length} in the contract`, true);
    }
  }

  #types(at: string, mine: Side, other: Side, direction: Direction): void {
    const ours = typesOf(mine.schema);
    const theirs = typesOf(other.schema);
    if (ours.size === 0 || theirs.size === 0) return;
    // A request value of a type the server does not take, or an answer of a type the app does not expect.
    const lost = [...ours].filter((t) => !theirs.has(t) && !(t === "integer" && theirs.has("number")));
    const gained = [...theirs].filter((t) => !ours.has(t) && !(t === "integer" && ours.has("number")));
    if (direction === "request" && lost.length > 0) this.add(at, `the server does not take ${lost.join(", ")}`, true);
    if (direction === "response" && gained.length > 0) this.add(at, `the server may answer ${gained.join(", ")}`, true);
    if (direction === "request" && gained.length > 0) this.add(at, `the server also takes ${gained.join(", ")}`, false);
    if (direction === "response" && lost.length > 0)
      this.add(at, `the server no longer answers ${lost.join(", ")}`, false);
  }

  #enums(at: string, mine: JsonObject, other: JsonObject, direction: Direction): void {
    if (!Array.isArray(mine.enum) && !Array.isArray(other.enum)) return;
    const ours = new Set(listOf(mine.enum).map((v) => JSON.stringify(v)));
    const theirs = new Set(listOf(other.enum).map((v) => JSON.stringify(v)));
    const lost = [...ours].filter((v) => theirs.size > 0 && !theirs.has(v));
    const gained = [...theirs].filter((v) => ours.size > 0 && !ours.has(v));
    if (lost.length > 0) this.add(at, `enum lost ${lost.join(", ")}`, direction === "request");
    if (gained.length > 0) this.add(at, `enum gained ${gained.join(", ")}`, direction === "response");
  }

  #bounds(at: string, mine: JsonObject, other: JsonObject, direction: Direction): void {
    for (const side of ["lower", "upper"] as const) {
      const a = numericBound(mine, side);
      const b = numericBound(other, side);
      if (a?.value === b?.value && a?.exclusive === b?.exclusive) continue;
      const narrower = a === null ? true : b === null ? false : tighter(b, a, side);
      const change = `${side === "lower" ? "minimum" : "maximum"} ${showBound(a)} -> ${showBound(b)}`;
      // A narrower request bound refuses what the mock took; a wider answer bound shows what the app did not expect.
      this.add(at, change, direction === "request" ? narrower : !narrower);
    }
    const counts = { minLength: "lower", minItems: "lower", minProperties: "lower" } as const;
    for (const name of ["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"]) {
      const a = mine[name];
      const b = other[name];
      if (a === b || (typeof a !== "number" && typeof b !== "number")) continue;
      const lower = Object.hasOwn(counts, name);
      // A bound only one side has: the side with it is the narrower one.
      const narrower =
        typeof a !== "number" ? true : typeof b !== "number" ? false : lower ? (b as number) > a : (b as number) < a;
      const change = `${name} ${typeof a === "number" ? a : "none"} -> ${typeof b === "number" ? b : "none"}`;
      this.add(at, change, direction === "request" ? narrower : !narrower);
    }
    if (mine.pattern !== other.pattern && (mine.pattern !== undefined || other.pattern !== undefined))
      this.add(at, "pattern differs", direction === "request" || other.pattern === undefined);
  }

  #properties(at: string, mine: JsonObject, other: JsonObject, direction: Direction, depth: number): void {
    const ours = isObject(mine.properties) ? mine.properties : {};
    const theirs = isObject(other.properties) ? other.properties : {};
    const requiredOurs = new Set(listOf(mine.required).filter((r): r is string => typeof r === "string"));
    const requiredTheirs = new Set(listOf(other.required).filter((r): r is string => typeof r === "string"));
    const closed = other.additionalProperties === false;
    for (const name of new Set([...Object.keys(ours), ...Object.keys(theirs)])) {
      const where = at === "" ? name : `${at}/${name}`;
      const inOurs = Object.hasOwn(ours, name);
      const inTheirs = Object.hasOwn(theirs, name);
      if (inOurs && !inTheirs) {
        if (direction === "request") this.add(where, "not a member on the server", closed);
        else this.add(where, "no longer answered by the server", requiredOurs.has(name));
        continue;
      }
      if (!inOurs && inTheirs) {
        if (direction === "request") this.add(where, "new member on the server", requiredTheirs.has(name));
        else this.add(where, "new member in the server's answer", false);
        continue;
      }
      if (direction === "request" && requiredTheirs.has(name) && !requiredOurs.has(name))
        this.add(where, "required by the server only", true);
      if (direction === "response" && requiredOurs.has(name) && !requiredTheirs.has(name))
        this.add(where, "optional in the server's answer", true);
      // Both sides without it: a server that states the null too (another mock of this contract) is no drift either.
      const lenient = direction === "request" && nullAsAbsent(mine).has(name);
      const [a, b] = lenient ? [withoutNull(ours[name]), withoutNull(theirs[name])] : [ours[name], theirs[name]];
      this.compare(where, a, b, direction, depth + 1);
    }
  }
}

/**
 * The members a schema's `null-as-absent` rules name (`x-powercontext-rules`): the contract
 * lets them take null because the server's request model does, where the server's own
 * contract does not say so; that is no drift.
 */
function nullAsAbsent(schema: JsonObject): Set<string> {
  const names = new Set<string>();
  for (const rule of listOf(schema["x-powercontext-rules"]))
    if (isObject(rule) && rule.rule === "null-as-absent")
      for (const member of listOf(rule.members)) if (typeof member === "string") names.add(member);
  return names;
}

/** A member's schema without the null the contract adds (`nullable`, and the `allOf` wrapping a reference for it). */
function withoutNull(schema: Json | undefined): Json | undefined {
  if (!isObject(schema)) return schema;
  const { nullable: _nullable, ...rest } = schema;
  const parts = listOf(rest.allOf);
  const only = parts[0];
  if (parts.length !== 1 || !isObject(only) || typeof only.$ref !== "string" || Object.keys(only).length !== 1)
    return rest;
  const { allOf: _allOf, ...others } = rest;
  return { ...others, $ref: only.$ref };
}

/** The parameters of an operation by `location/name`. */
function parametersOf(document: JsonObject, node: JsonObject): Map<string, JsonObject> {
  const found = new Map<string, JsonObject>();
  for (const raw of listOf(node.parameters)) {
    const parameter = resolve(document, raw);
    if (isObject(parameter) && typeof parameter.name === "string" && typeof parameter.in === "string")
      found.set(`${parameter.in}/${parameter.name}`, parameter);
  }
  return found;
}

/** The JSON schema of a request body or response, when it has one. */
function jsonSchemaOf(document: JsonObject, holder: Json | undefined): Json | undefined {
  const resolved = resolve(document, holder);
  if (!isObject(resolved) || !isObject(resolved.content)) return undefined;
  const entry = Object.entries(resolved.content).find(([type]) => /^application\/(.+\+)?json/i.test(type));
  return entry !== undefined && isObject(entry[1]) ? entry[1].schema : undefined;
}

function compareOperation(
  contract: JsonObject,
  server: JsonObject,
  ours: JsonObject,
  theirs: JsonObject,
): DriftChange[] {
  const comparison = new SchemaComparison(contract, server);
  const oursParams = parametersOf(contract, ours);
  const theirsParams = parametersOf(server, theirs);
  for (const key of new Set([...oursParams.keys(), ...theirsParams.keys()])) {
    const a = oursParams.get(key);
    const b = theirsParams.get(key);
    const at = `parameters/${key}`;
    if (a === undefined) comparison.add(at, "new parameter on the server", b?.required === true);
    else if (b === undefined) comparison.add(at, "not a parameter on the server", false);
    else {
      if (b.required === true && a.required !== true) comparison.add(at, "required by the server only", true);
      comparison.compare(at, a.schema, b.schema, "request");
    }
  }
  const requestOurs = jsonSchemaOf(contract, ours.requestBody);
  const requestTheirs = jsonSchemaOf(server, theirs.requestBody);
  if (requestOurs !== undefined && requestTheirs !== undefined)
    comparison.compare("request", requestOurs, requestTheirs, "request");
  else if (requestOurs === undefined && requestTheirs !== undefined)
    comparison.add("request", "the server reads a body", resolveRequired(server, theirs.requestBody));
  const responsesOurs = isObject(ours.responses) ? ours.responses : {};
  const responsesTheirs = isObject(theirs.responses) ? theirs.responses : {};
  for (const status of new Set([...Object.keys(responsesOurs), ...Object.keys(responsesTheirs)])) {
    const at = `responses/${status}`;
    const success = status.startsWith("2") || status === "304";
    if (!Object.hasOwn(responsesTheirs, status)) comparison.add(at, "not declared by the server", success);
    else if (!Object.hasOwn(responsesOurs, status)) comparison.add(at, "declared by the server only", success);
    else if (success)
      comparison.compare(
        at,
        jsonSchemaOf(contract, responsesOurs[status]),
        jsonSchemaOf(server, responsesTheirs[status]),
        "response",
      );
  }
  return comparison.changes;
}

function resolveRequired(document: JsonObject, body: Json | undefined): boolean {
  const resolved = resolve(document, body);
  return isObject(resolved) && resolved.required === true;
}

function versionOf(document: JsonObject): string | null {
  return isObject(document.info) && typeof document.info.version === "string" ? document.info.version : null;
}

/**
 * Compares the contract an app's mock follows with the contract a server serves.
 *
 * @param contract the OpenAPI document this package was generated from (3.0 or 3.1)
 * @param server the document the server serves at `GET /openapi.json`
 * @returns the operations only one side has and the classified changes of the others,
 *   in operationId order
 */
export function compareContracts(contract: JsonObject, server: JsonObject): DriftReport {
  const ours = operationsOf(contract);
  const theirs = operationsOf(server);
  const strip = ({ operationId, method, path }: DriftOperation): DriftOperation => ({ operationId, method, path });
  const byId = (a: DriftOperation, b: DriftOperation) => a.operationId.localeCompare(b.operationId);
  const added = [...theirs.values()].filter((op) => !ours.has(op.operationId)).map(strip);
  const missing = [...ours.values()].filter((op) => !theirs.has(op.operationId)).map(strip);
  const changed: OperationDrift[] = [];
  for (const mine of ours.values()) {
    const other = theirs.get(mine.operationId);
    if (other === undefined) continue;
    const changes = compareOperation(contract, server, mine.node, other.node);
    if (mine.method !== other.method || mine.path !== other.path)
      changes.unshift({ at: "route", change: `${other.method} ${other.path} on the server`, breaking: true });
    if (changes.length > 0) changed.push({ ...strip(mine), changes });
  }
  return {
    versions: { contract: versionOf(contract), server: versionOf(server) },
    added: added.sort(byId),
    missing: missing.sort(byId),
    changed: changed.sort(byId),
    breaking: changed.reduce((n, op) => n + op.changes.filter((c) => c.breaking).length, 0),
  };
}
