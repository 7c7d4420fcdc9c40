import { validatorSchemas } from "../../../../codegen/src/emit/validator-code/schemas.js";
import { buildIr } from "../../../../codegen/src/ir/build-ir.js";
import { DEFAULT_NAMES } from "../../../../codegen/src/ir/names.js";
import { loadSpec } from "../../../../codegen/src/load/load-spec.js";
import { CONTRACT_PATH } from "../../../../test/support/contract-validators.js";
import { simOperations, type SimOperation, type SimOperationId } from "../../src/simulator/contract/operation-table.js";
import { firstBreach } from "@powercontext/runtime/rules";
import { checkRefusals, type RefusalFacts } from "../../src/simulator/contract/refusals.js";
import { flatRequest } from "../../src/simulator/contract/request-check.js";
import { SeededRandom } from "../../src/simulator/random.js";
import { sampleValue, type Definitions } from "../../src/simulator/responder/sample.js";
import type { SimRequest } from "../../src/simulator/types.js";

/**
 * A valid request for any operation, built from its request schema in
 * `openapi.yaml` (through the generator's own conversion) with the
 * simulator's sampler, aimed at scope `s1`, and checked with the operation's
 * generated request validator, so the sweep reaches each operation's success
 * path rather than its 422.
 */
const ir = buildIr(await loadSpec(CONTRACT_PATH), "strict", DEFAULT_NAMES);
const schemas = validatorSchemas(ir);
const definitions: Definitions = new Proxy(
  {},
  { get: (_, key) => (typeof key === "string" ? schemas.definition(key) : undefined) },
);

/**
 * A request of `operationId` that its request validator accepts and, where one exists,
 * that none of the contract's refusals (`x-powercontext-refusals`, with a model present)
 * turns away: a `family` other than the legacy `memory`, say.
 * @throws Error when none is found
 */
export function sampledRequest(operationId: SimOperationId, first = 0): SimRequest {
  const op = simOperations[operationId];
  const key = schemas.perOperation.get(operationId)?.request ?? null;
  if (key === null) return {};
  let refused: SimRequest | undefined;
  for (let variant = first; variant < first + 16; variant += 1) {
    const flat = aimAtS1(sampleValue(key, { random: new SeededRandom(variant + 1), variant }, definitions));
    const request = split(operationId, flat);
    if (op.requestValidator !== null && !op.requestValidator(flatRequest(op, request))) continue;
    // A request breaking a model rule is not valid either: what a sample breaks is mended where it can be.
    if (!mended(op, request)) continue;
    if (!refusedByContract(op, request)) return request;
    refused ??= request;
  }
  if (refused !== undefined) return refused;
  throw new Error(`no valid request sampled for ${operationId}: ${JSON.stringify(op.requestValidator?.errors)}`);
}

const MODEL_PRESENT: RefusalFacts = {
  inference: "on",
  requireScope: () => undefined,
  pending: () => false,
  // Every record the request names is held, with none of the members a refusal asks about.
  find: () => ({}),
  record: () => undefined,
};

function refusedByContract(op: SimOperation, request: SimRequest): boolean {
  try {
    checkRefusals(op, flatRequest(op, request), MODEL_PRESENT, request.headers, "handler");
    checkRefusals(op, flatRequest(op, request), MODEL_PRESENT, request.headers, "service");
    return false;
  } catch {
    return true;
  }
}

function aimAtS1(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const out = { ...(value as Record<string, unknown>) };
  if (typeof out.scope_id === "string") out.scope_id = "s1";
  return out;
}

/** Splits a flat request object into path, query, header parameters and the body. */
function split(operationId: SimOperationId, flat: unknown): SimRequest {
  const op = simOperations[operationId];
  const names = [...op.parameters.path, ...op.parameters.query, ...op.parameters.header];
  if (names.length === 0) return { body: flat };
  const rest: Record<string, unknown> = { ...(flat as Record<string, unknown>) };
  const take = (list: readonly { name: string }[]) => {
    const out: Record<string, string> = {};
    for (const { name } of list) {
      if (rest[name] === undefined) continue;
      out[name] = String(Array.isArray(rest[name]) ? (rest[name] as unknown[])[0] : rest[name]);
      delete rest[name];
    }
    return out;
  };
  const params = take(op.parameters.path);
  const query = take(op.parameters.query);
  const headers = take(op.parameters.header);
  return { params, query, headers, ...(op.body === null ? {} : { body: rest }) };
}

/** Mends, in place, the model rules the request breaks (up to 32 mends); true when none is left broken. */
function mended(op: SimOperation, request: SimRequest): boolean {
  for (let round = 0; round < 32; round += 1) {
    const flat = flatRequest(op, request);
    const breach = firstBreach(flat, op.rules);
    if (breach === null) return true;
    let object: unknown = request.body;
    // The object the rule is on, in the body (a flat request of a body-only operation is the body itself).
    for (const step of breach.at) object = (object as Record<string | number, unknown>)?.[step];
    if (typeof object !== "object" || object === null || !mend(breach.rule, object as Record<string, unknown>))
      return false;
    if (op.requestValidator !== null && !op.requestValidator(flatRequest(op, request))) return false;
  }
  return false;
}

function setAt(object: Record<string, unknown>, path: readonly string[], value: unknown): boolean {
  if (path.includes("[]")) {
    const at = path.indexOf("[]");
    const list = path.slice(0, at).reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], object);
    if (!Array.isArray(list)) return false;
    return list.every((item) => setAt(item as Record<string, unknown>, path.slice(at + 1), value));
  }
  let node = object;
  for (const step of path.slice(0, -1)) {
    if (typeof node[step] !== "object" || node[step] === null) return false;
    node = node[step] as Record<string, unknown>;
  }
  node[path[path.length - 1] as string] = value;
  return true;
}

function mend(rule: SimOperation["rules"][number]["rules"][number], object: Record<string, unknown>): boolean {
  const property = (m: string) => m.replace(/(\[\]|\{\}|\{\*\})$/, "");
  switch (rule.kind) {
    case "one-of":
      return setAt(object, rule.path, rule.in[0]);
    case "constrain-when":
      return rule.in !== null
        ? setAt(object, rule.path, rule.in[0])
        : rule.max !== null && setAt(object, rule.path, rule.max);
    case "no-outer-whitespace":
    case "not-blank":
      for (const m of rule.members) {
        const value = object[property(m)];
        if (typeof value === "string") object[property(m)] = value.trim() === "" ? "x" : value.trim();
        if (Array.isArray(value)) object[property(m)] = value.map((v) => (typeof v === "string" ? v.trim() || "x" : v));
      }
      return true;
    case "unique-items":
      for (const m of rule.members) if (Array.isArray(object[m])) object[m] = (object[m] as unknown[]).slice(0, 1);
      return true;
    case "forbidden-unless":
      delete object[rule.member];
      return true;
    case "items-when":
      if (rule.max === 0) {
        object[rule.member] = [];
        return true;
      }
      return false;
    default:
      return false;
  }
}
