import { contractOperations, type ContractOperation, type ContractOperationId } from "../../generated/contract.js";

/**
 * The simulator's view of the operations of `openapi.yaml`: the generated
 * contract table (`src/generated/contract.ts`, written by the codegen emitter
 * `msw-contract`) plus the few facts derived from it. Nothing here restates
 * a method, a path, a permission or a status: they all come from the spec.
 */

/** What the simulator knows of one operation (the generated {@link ContractOperation}). */
export type SimOperation = ContractOperation;

/** Wire name of an operation the simulator serves. */
export type SimOperationId = ContractOperationId;

/** The operations of the contract, keyed by wire `operationId`. */
export const simOperations: { readonly [K in SimOperationId]: SimOperation } = contractOperations;

/** Every operationId the simulator serves, sorted. */
export const simOperationIds = Object.keys(simOperations) as SimOperationId[];

/** True when `id` names an operation of the contract. */
export function isSimOperationId(id: string): id is SimOperationId {
  return Object.prototype.hasOwnProperty.call(simOperations, id);
}

/**
 * True when some security alternative names a scheme. The simulator always
 * runs with authentication on, so such an operation answers an anonymous
 * caller 401 even when the spec also lists the anonymous alternative (`{}`)
 * that the released server accepts only with authentication disabled.
 */
export function requiresCredentials(op: SimOperation): boolean {
  return op.security.some((alternative) => alternative.length > 0);
}

/** Every status the contract declares for the operation, ascending. */
export function declaredStatuses(op: SimOperation): number[] {
  return op.responses.map((r) => r.status);
}

/** True when the operation declares `status` with the error envelope as its body. */
export function declaresEnvelope(op: SimOperation, status: number): boolean {
  return op.responses.some((r) => r.status === status && r.envelope);
}

/**
 * The status a contract error of `status` is sent with on `op`: `status` itself
 * when the operation declares it with the envelope; otherwise, for a client
 * error, `422`, then `400`, then the lowest other declared envelope 4xx (not
 * 401/403); for a server error `500`, then `503`. So a refusal never leaves the
 * statuses the spec lists (the released contract omits 422 on a few operations
 * whose server still validates the body). Null when nothing fits.
 */
export function declaredErrorStatus(op: SimOperation, status: number): number | null {
  if (declaresEnvelope(op, status)) return status;
  const envelopes = op.responses.filter((r) => r.envelope).map((r) => r.status);
  const preferred = status < 500 ? [422, 400, ...envelopes.filter((s) => s < 500 && s !== 401 && s !== 403)] : [500, 503];
  return preferred.find((s) => envelopes.includes(s)) ?? null;
}
