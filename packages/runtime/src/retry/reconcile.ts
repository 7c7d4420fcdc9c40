import type { OperationDescriptor } from "../descriptor.js";
import type { GuardedConflictError } from "../guarded-conflict-error.js";

/** A resource returned by reconciliation instead of the original response. */
export type Reconciled<T> = T & {
  /** Always true: the value was read after a conflict rather than returned by the call. */
  reconciled: true;
};

/** Inputs of {@link reconcileVersionConflict}. */
interface ReconcileInput {
  /** The guarded operation whose re-send got the conflict. */
  descriptor: OperationDescriptor;
  /** The flat request object of that call. */
  request: Record<string, unknown>;
  /** The conflict the re-send got. */
  conflict: GuardedConflictError;
  /** Runs `descriptor.reconcile.readOperation` with the given request and resolves to its body. */
  read: (operationId: string, request: Record<string, unknown>) => Promise<unknown>;
}

function field(resource: unknown, name: string): unknown {
  return typeof resource === "object" && resource !== null ? (resource as Record<string, unknown>)[name] : undefined;
}

/** The wire names a reconciliation reads, from `x-powercontext-reconcile`. */
export interface TransitionFields {
  /** Member of the read resource compared with the requested states. */
  readonly statusField: string;
  /** Member of the read resource holding its version. */
  readonly versionField: string;
}

/**
 * True when `resource` shows exactly the transition the call asked for and
 * nothing after it: its status member is one of `holdsWhen` (the state the
 * transition produces) and its version member is exactly
 * `expectedVersion + 1` (every change bumps the version by one, so one change
 * happened since the version the call named, and it led to the requested
 * state).
 */
export function showsRequestedTransition(
  resource: unknown,
  holdsWhen: readonly string[],
  expectedVersion: unknown,
  fields: TransitionFields,
): boolean {
  const status = field(resource, fields.statusField);
  const version = field(resource, fields.versionField);
  return (
    typeof status === "string" &&
    holdsWhen.includes(status) &&
    typeof version === "number" &&
    typeof expectedVersion === "number" &&
    version === expectedVersion + 1
  );
}

/**
 * Reconciles a guarded conflict (the descriptor's conflict code) that followed a re-send whose earlier
 * attempt had an unknown outcome (runtime README, "Guarded reconciliation"): reads the resource
 * named by `x-powercontext-reconcile` and returns it, marked
 * `reconciled: true`, only when it shows the requested transition and no
 * later one ({@link showsRequestedTransition}; the status, version and
 * expected-version member names come from the descriptor). A resource that
 * moved on (for example `succeeded` at version 6 after a retry that expected
 * 1) proves nothing about the lost attempt: it may have taken effect, or
 * someone else's request may have.
 *
 * @throws the conflict otherwise, with `outcomeUnknown` set and `current` set
 *   to the resource read (null when the read failed); the conflict unchanged
 *   when the operation has no reconcile descriptor.
 */
export async function reconcileVersionConflict(input: ReconcileInput): Promise<Reconciled<Record<string, unknown>>> {
  const spec = input.descriptor.reconcile;
  if (spec === null) throw input.conflict;
  const id = input.request[spec.idParameter];
  // The wire names come from the spec (x-powercontext-reconcile); without them nothing can be shown to hold.
  const { statusField, versionField, expectedVersionField } = spec;
  const fields = statusField !== undefined && versionField !== undefined ? { statusField, versionField } : undefined;
  let resource: unknown = null;
  try {
    resource = await input.read(spec.readOperation, { [spec.idParameter]: id });
  } catch {
    throw input.conflict.withUnknownOutcome(null, fields);
  }
  const expected = expectedVersionField === undefined ? undefined : input.request[expectedVersionField];
  if (fields === undefined || !showsRequestedTransition(resource, spec.holdsWhen.status, expected, fields)) {
    throw input.conflict.withUnknownOutcome(resource, fields);
  }
  input.conflict.current = resource;
  return { ...(resource as Record<string, unknown>), reconciled: true };
}
