import { contractOperations, contractPrincipalSchemes, type ContractOperationId } from "../../generated/contract.js";
import type { ContractOperation } from "../../contract/types.js";

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
  return Object.hasOwn(simOperations, id);
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

/**
 * True when the operation's credential names a principal: some security
 * alternative names a scheme of the document's own `security`. An operation
 * secured only by another scheme (a remote Skill receiver's target credential)
 * carries a credential that its domain checks, not the principal registry.
 */
export function authenticatesPrincipal(op: SimOperation): boolean {
  return op.security.some((alternative) => alternative.some((scheme) => contractPrincipalSchemes.includes(scheme)));
}

/** Every status the contract declares for the operation, ascending. */
export function declaredStatuses(op: SimOperation): number[] {
  return op.responses.map((r) => r.status);
}

/** True when the operation declares `status` with the error envelope as its body. */
export function declaresEnvelope(op: SimOperation, status: number): boolean {
  return op.responses.some((r) => r.status === status && r.envelope);
}
