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
export function sampledRequest(operationId: SimOperationId): SimRequest {
  const op = simOperations[operationId];
  const key = schemas.perOperation.get(operationId)?.request ?? null;
  if (key === null) return {};
  let refused: SimRequest | undefined;
  for (let variant = 0; variant < 16; variant += 1) {
    const flat = aimAtS1(sampleValue(key, { random: new SeededRandom(variant + 1), variant }, definitions));
    const request = split(operationId, flat);
    if (op.requestValidator !== null && !op.requestValidator(flatRequest(op, request))) continue;
    // A request breaking a model rule is not valid either.
    if (firstBreach(flatRequest(op, request), op.rules) !== null) continue;
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
  stored: () => true,
};

function refusedByContract(op: SimOperation, request: SimRequest): boolean {
  try {
    checkRefusals(op, flatRequest(op, request), MODEL_PRESENT, "handler");
    checkRefusals(op, flatRequest(op, request), MODEL_PRESENT, "service");
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
