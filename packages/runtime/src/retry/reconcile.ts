import type { OperationDescriptor, ReconcileDescriptor } from "../descriptor.js";
import { VersionConflictError } from "../errors.js";

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
 * nothing after it: its status member (`statusField`) is one of
 * `holdsWhen.status` (the state the transition produces) and its version member
 * (`versionField`) is exactly the request's expected version
 * (`expectedVersionField`) + 1 (every change bumps the version by one, so one
 * change happened since the version the call named, and it led to the requested
 * state). The member names come from the descriptor (`x-powercontext-reconcile`);
 * without them nothing can be shown.
 */
export function showsRequestedTransition(resource: unknown, spec: ReconcileDescriptor, request: Record<string, unknown>): boolean {
  if (spec.statusField === undefined || spec.versionField === undefined || spec.expectedVersionField === undefined) return false;
  const status = field(resource, spec.statusField);
  const version = field(resource, spec.versionField);
  const expectedVersion = request[spec.expectedVersionField];
  return (
    typeof status === "string" &&
    spec.holdsWhen.status.includes(status) &&
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
  if (!showsRequestedTransition(resource, spec, input.request)) {
    throw input.conflict.withUnknownOutcome(resource);
  }
  input.conflict.current = resource;
  return { ...(resource as Record<string, unknown>), reconciled: true };
}
