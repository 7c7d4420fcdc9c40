import { accessFacts } from "../../src/simulator/access/facts.js";
import { deref, type Json } from "../../../../codegen/src/load/walk-operations.js";
import { loadContractValidators } from "../../../../test/support/contract-validators.js";
import { simOperations, type SimOperationId } from "../../src/simulator/contract/operation-table.js";

/**
 * Validates simulator answers against `openapi.yaml`: the body schema declared
 * for the operation and status, and the headers the response declares as required.
 */
const contract = await loadContractValidators();

/** The parsed `openapi.yaml`, references kept. */
export const spec = contract.document as {
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json>; headers: Record<string, Json> };
};

/**
 * Problems with one answer, empty when it honours the contract.
 * @param headers response headers (any case)
 */
export function contractProblems(
  operationId: string,
  status: number,
  headers: Record<string, string>,
  body: unknown,
): string[] {
  if (contract.operation(operationId) === undefined) throw new Error(`no operation ${operationId}`);
  const response = contract.response(operationId, status);
  if (!response) return releaseRefusal(status, body) ? [] : [`${operationId} does not declare ${status}`];
  const problems: string[] = [];
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  if (!lower["x-powercontext-request-id"]) problems.push("missing X-PowerContext-Request-ID");
  for (const [name, header] of Object.entries((response.object.headers ?? {}) as Json)) {
    const resolved = deref(header, contract.lookup) as Json | undefined;
    if (resolved?.required && lower[name.toLowerCase()] === undefined) problems.push(`missing required header ${name}`);
  }
  const { validate } = response;
  if (!validate) {
    if (body !== null && body !== undefined) problems.push("body on a response without content");
    return problems;
  }
  if (!validate(body))
    problems.push(...(validate.errors ?? []).map((e) => `${operationId} ${status} body${e.instancePath} ${e.message}`));
  return problems;
}

const registry = ((contract.document as Json)["x-powercontext-error-codes"] ?? {}) as Record<
  string,
  { status: number }
>;

/**
 * True for a refusal the released server sends whether the operation declares
 * its status or not (an unknown Scope's 404, the access layer's 422, a 428):
 * the exact error envelope, with a code the registry knows at that status.
 */
function releaseRefusal(status: number, body: unknown): boolean {
  const error = (body as { error?: Record<string, unknown> } | null)?.error;
  if (typeof error !== "object" || error === null || Object.keys(body as object).length !== 1) return false;
  const members = Object.keys(error).sort().join(",");
  const details = error.details;
  if (
    members !== "code,details,message" ||
    typeof error.message !== "string" ||
    (details !== null && typeof details !== "object")
  )
    return false;
  return (
    typeof error.code === "string" && Object.hasOwn(registry, error.code) && registry[error.code]?.status === status
  );
}

/**
 * True when the answer is one of the operation's `x-powercontext-refusals` (status
 * and code), or, for an operation with an access rule, one of the access layer's
 * (`x-powercontext-access-policy.refusals`): the release refuses the request there, so
 * a success is not expected.
 */
export function contractRefusal(operationId: string, status: number, body: unknown): boolean {
  const op = simOperations[operationId as SimOperationId];
  const code = (body as { error?: { code?: unknown } } | null)?.error?.code;
  // An operation with an access rule may answer the access layer's refusals (x-powercontext-access-policy).
  const access = op.access === null ? [] : Object.values(accessFacts.policy.refusals);
  return [...op.refusals, ...access].some((rule) => rule.status === status && rule.code === code);
}
