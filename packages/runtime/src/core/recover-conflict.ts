import { VersionConflictError } from "../errors.js";
import { reconcileVersionConflict } from "../retry/reconcile.js";
import { runOperation, type OperationResult } from "./run-operation.js";
import { descriptorFor, type ConflictCall } from "./runtime.js";

/**
 * The runtime's recovery for a failed call (DESIGN §4, guarded): a
 * `409 version_conflict` after an uncertain earlier attempt of a guarded
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
  if (!(error instanceof VersionConflictError) || !earlierUncertain || descriptor.reconcile === null) return undefined;
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
    reconciled: true,
    requestUrl: call.requestUrl,
  };
}
