// The random requests of a run: the schedule (which operation when) and each request,
// drawn from (seed, operation, index) and the ids seen so far. A request is logical:
// its ids are references to earlier answers (identity.ts), turned into HTTP for each
// side by `toHttp`.
import type { Contract, OperationSpec, ParameterLocation, Schema } from "./contract.js";
import { type FaultKind, FAULT_SHARE, type Fault, type Parts, injectFault } from "./faults.js";
import { type AnswerRef, type Catalogue, idKind, type RecordedAnswer, resolveValue, stringsOf } from "./identity.js";
import { Random } from "./rng.js";
import { isIdMember, ValueDrawer } from "./values.js";

/** One request of a run, before its ids are resolved. */
export interface LogicalRequest {
  /** position in the run (answers are referred to by it) */
  readonly index: number;
  readonly operation: string;
  readonly tag: string;
  /** the n-th request of its operation in this run (from 0) */
  readonly k: number;
  readonly method: string;
  /** the path template */
  readonly path: string;
  /** parameter values by name (path, query and header alike; see `locations`) */
  readonly params: Readonly<Record<string, unknown>>;
  readonly locations: Readonly<Record<string, ParameterLocation>>;
  /** the JSON body, or undefined for an operation without one */
  readonly body: unknown;
  readonly fault: Fault | null;
}

/** One slot of the schedule. */
export interface Slot {
  readonly operation: OperationSpec;
  readonly k: number;
}

/** Id members a request needs before it can reach any state: its required id members at the top level. */
function requiredIds(contract: Contract, operation: OperationSpec): number {
  const body = operation.body === null ? {} : contract.resolve(operation.body);
  const required = new Set(Array.isArray(body.required) ? body.required.map(String) : []);
  const properties = (body.properties ?? {}) as Record<string, unknown>;
  const inBody = [...required].filter((name) => isIdMember(name, contract.resolve(properties[name]))).length;
  const inPath = operation.parameters.filter((p) => p.in === "path" && idKind(p.name) !== null).length;
  return inBody + inPath;
}

/**
 * The order of a run: K rounds, each every operation once in a seeded order. The first
 * round starts with the operations that create something (a 201 or 202 answer), those
 * needing the fewest ids first, so later requests find ids to use.
 */
export function schedule(contract: Contract, seed: number, k: number): Slot[] {
  const slots: Slot[] = [];
  for (let round = 0; round < k; round++) {
    let order = Random.stream(seed, "round", round).shuffle(contract.operations);
    if (round === 0) {
      const creates = (o: OperationSpec) => o.successStatuses.some((s) => s === 201 || s === 202);
      const creators = order.filter(creates);
      const needs = new Map(creators.map((o) => [o.operationId, requiredIds(contract, o)]));
      creators.sort((a, b) => needs.get(a.operationId)! - needs.get(b.operationId)!);
      order = [...creators, ...order.filter((o) => !creates(o))];
    }
    for (const operation of order) slots.push({ operation, k: round });
  }
  return slots;
}

/** The parameters of an operation as one object schema, keyed by name. */
function parametersSchema(operation: OperationSpec): Schema {
  const properties: Record<string, unknown> = {};
  for (const parameter of operation.parameters) properties[parameter.name] = parameter.schema;
  return {
    type: "object",
    properties,
    required: operation.parameters.filter((p) => p.required).map((p) => p.name),
  };
}

/** What drawing a request needs besides the contract. */
export interface DrawContext {
  readonly seed: number;
  readonly index: number;
  readonly k: number;
  /** the ids seen so far */
  readonly catalogue: Catalogue;
  /** force a fault (or its absence) instead of drawing whether there is one (tests) */
  readonly fault?: boolean;
  /** only faults of this kind (tests) */
  readonly faultKind?: FaultKind;
}

/** A drawn request and its sites (the fault tests look at the valid request too). */
export interface Drawn {
  readonly request: LogicalRequest;
  /** the same request before its fault was applied */
  readonly valid: LogicalRequest;
}

function clone<T>(value: T): T {
  if (Array.isArray(value)) return value.map(clone) as T;
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clone(v)])) as T;
  return value;
}

/**
 * Draws the request of `operation` for slot `k` of a run. The same seed, operation, k
 * and catalogue give the same request; the request's form (members, lengths, branches,
 * fault) depends on the seed, operation and k alone.
 */
export function drawRequest(contract: Contract, operation: OperationSpec, context: DrawContext): Drawn {
  const label = [operation.operationId, context.k] as const;
  const shape = Random.stream(context.seed, "shape", ...label);
  const ids = { catalogue: context.catalogue, rng: Random.stream(context.seed, "ids", ...label) };
  const drawer = new ValueDrawer(contract, shape, ids);
  const locations = Object.fromEntries(operation.parameters.map((p) => [p.name, p.in]));
  const params = drawer.object(
    parametersSchema(operation),
    { part: "params", pointer: "", name: "", depth: 0, location: null },
    new Map(Object.entries(locations)),
  );
  const body =
    operation.body === null
      ? undefined
      : drawer.draw(operation.body, { part: "body", pointer: "", name: "", depth: 0, location: null });
  const base = {
    index: context.index,
    operation: operation.operationId,
    tag: operation.tag,
    k: context.k,
    method: operation.method,
    path: operation.path,
    locations,
  };
  const valid: LogicalRequest = { ...base, params, body, fault: null };
  const faults = Random.stream(context.seed, "fault", ...label);
  const wanted = context.fault ?? faults.chance(FAULT_SHARE);
  if (!wanted) return { request: valid, valid };
  const parts: Parts = { params: clone(params), body: clone(body) };
  const extra = new ValueDrawer(contract, faults, ids);
  const fault = injectFault(
    faults,
    drawer.values,
    drawer.objects,
    parts,
    (items) => extra.draw(items, { part: "body", pointer: "", name: "", depth: 4, location: null }),
    context.faultKind,
  );
  if (fault === null) return { request: valid, valid };
  return { request: { ...base, params: parts.params, body: parts.body, fault }, valid };
}

/** A request as HTTP for one side, with the references that side could not resolve. */
export interface HttpRequest {
  readonly method: string;
  /** path and query string */
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
  /** the JSON text of the body, or undefined */
  readonly body: string | undefined;
  readonly unresolved: readonly AnswerRef[];
  /** every string the request carries, references resolved (an answer repeating one names no id) */
  readonly strings: ReadonlySet<string>;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * Resolves a request's references against one side's answers and writes it as HTTP:
 * path parameters percent-encoded into the template, query parameters (a list as one
 * pair per item), headers, and the body as JSON.
 */
export function toHttp(request: LogicalRequest, answers: readonly (RecordedAnswer | undefined)[]): HttpRequest {
  const unresolved: AnswerRef[] = [];
  const params = resolveValue(request.params, answers, unresolved) as Record<string, unknown>;
  const body = request.body === undefined ? undefined : resolveValue(request.body, answers, unresolved);
  let path = request.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    const location = request.locations[name];
    if (location === "path") path = path.replace(`{${name}}`, encodeURIComponent(text(value)));
    else if (value === null || value === undefined) continue;
    else if (location === "query")
      for (const item of Array.isArray(value) ? value : [value]) query.append(name, text(item));
    else if (location === "header") headers[name.toLowerCase()] = text(value);
  }
  const search = query.toString();
  return {
    method: request.method,
    target: `${path}${search === "" ? "" : `?${search}`}`,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    unresolved,
    strings: stringsOf(body, stringsOf(params)),
  };
}
