import { GuardedConflictError } from "../guarded-conflict-error.js";
import { reconcileVersionConflict } from "../retry/reconcile.js";
import { runOperation, type OperationResult } from "./run-operation.js";
import { descriptorFor, type ConflictCall } from "./runtime.js";

/**
 * The runtime's recovery for a failed call (runtime README, "Guarded reconciliation"): a
 * guarded conflict (a {@link GuardedConflictError} whose code is the reconcile
 * descriptor's `conflictCode`) after an uncertain earlier attempt of a guarded
 * operation is reconciled by reading the resource named by
 * `x-powercontext-reconcile` within the call's deadline. Kept out of
 * `run-operation.ts` so that runtimes without an operation table (and the
 * bundles built on them) do not carry it.
 *
 * @returns the reconciled result, or undefined when the failure is not a
 *   reconcilable conflict (the caller then throws the original error).
 * @throws the conflict, with `current` set, when the requested state does not hold.
 */
export async function recoverVersionConflict(
  call: ConflictCall,
  error: unknown,
  earlierUncertain: boolean,
): Promise<OperationResult | undefined> {
  const { runtime, descriptor, context, deadlineAt } = call;
  const spec = descriptor.reconcile;
  if (!(error instanceof GuardedConflictError) || !earlierUncertain || spec === null) return undefined;
  if (spec.conflictCode !== undefined && error.code !== spec.conflictCode) return undefined;
  const resource = await reconcileVersionConflict({
    descriptor,
    request: (call.request ?? {}) as Record<string, unknown>,
    conflict: error,
    read: async (operationId, readRequest) =>
      (await runOperation(runtime, descriptorFor(runtime, operationId), readRequest, { ...context, deadlineAt })).data,
  });
  return {
    statusCode: descriptor.successStatus,
    data: resource,
    requestId: error.requestId,
    accepted: false,
    retryAfterMs: null,
    location: null,
    headers: new Headers(),
    attempts: 0,
    reconciled: true,
    requestUrl: call.requestUrl,
  };
}
