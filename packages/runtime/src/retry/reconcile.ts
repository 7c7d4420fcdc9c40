import type { OperationDescriptor } from "../descriptor.js";
import { VersionConflictError } from "../errors.js";

/** Request field carrying the optimistic-concurrency version (DESIGN §3). */
export const EXPECTED_VERSION_FIELD = "expected_version";

/** A resource returned by reconciliation instead of the original response. */
export type Reconciled<T> = T & { reconciled: true };

/** Inputs of {@link reconcileVersionConflict}. */
export interface ReconcileInput {
  /** The guarded operation whose re-send got the conflict. */
  descriptor: OperationDescriptor;
  /** The flat request object of that call. */
  request: Record<string, unknown>;
  conflict: VersionConflictError;
  /** Runs `descriptor.reconcile.readOperation` with the given request and resolves to its body. */
  read: (operationId: string, request: Record<string, unknown>) => Promise<unknown>;
}

function field(resource: unknown, name: string): unknown {
  return typeof resource === "object" && resource !== null ? (resource as Record<string, unknown>)[name] : undefined;
}

/**
 * True when `resource` shows exactly the transition the call asked for and
 * nothing after it: its `status` is one of `holdsWhen.status` (the state the
 * transition produces) and its `version` is exactly `expected_version + 1`
 * (every change bumps the version by one, so one change happened since the
 * version the call named, and it led to the requested state).
 */
export function showsRequestedTransition(resource: unknown, holdsWhen: readonly string[], expectedVersion: unknown): boolean {
  const status = field(resource, "status");
  const version = field(resource, "version");
  return (
    typeof status === "string" &&
    holdsWhen.includes(status) &&
    typeof version === "number" &&
    typeof expectedVersion === "number" &&
    version === expectedVersion + 1
  );
}

/**
 * Reconciles a `409 version_conflict` that followed a re-send whose earlier
 * attempt had an unknown outcome (DESIGN §4, guarded): reads the resource
 * named by `x-powercontext-reconcile` and returns it, marked
 * `reconciled: true`, only when it shows the requested transition and no
 * later one ({@link showsRequestedTransition}). A resource that moved on
 * (for example `succeeded` at version 6 after a retry that expected 1) proves
 * nothing about the lost attempt: it may have taken effect, or someone else's
 * request may have.
 *
 * @throws the conflict otherwise, with `outcomeUnknown` set and `current` set
 *   to the resource read (null when the read failed); the conflict unchanged
 *   when the operation has no reconcile descriptor.
 */
export async function reconcileVersionConflict(input: ReconcileInput): Promise<Reconciled<Record<string, unknown>>> {
  const spec = input.descriptor.reconcile;
  if (spec === null) throw input.conflict;
  const id = input.request[spec.idParameter];
  let resource: unknown = null;
  try {
    resource = await input.read(spec.readOperation, { [spec.idParameter]: id });
  } catch {
    throw input.conflict.withUnknownOutcome(null);
  }
  if (!showsRequestedTransition(resource, spec.holdsWhen.status, input.request[EXPECTED_VERSION_FIELD])) {
    throw input.conflict.withUnknownOutcome(resource);
  }
  input.conflict.current = resource;
  return { ...(resource as Record<string, unknown>), reconciled: true };
}
