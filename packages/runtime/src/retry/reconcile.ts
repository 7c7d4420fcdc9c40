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
 * Reconciles a `409 version_conflict` that followed a re-send whose earlier
 * attempt had an unknown outcome (DESIGN §4, guarded): reads the resource
 * named by `x-powercontext-reconcile`; when its `status` is one of
 * `holdsWhen.status` and its `version` is greater than the request's
 * `expected_version`, the earlier attempt took effect and the resource is
 * returned marked `reconciled: true`.
 *
 * @throws the conflict, with `current` set to the resource read, when the
 *   requested state does not hold; the conflict unchanged when the operation
 *   has no reconcile descriptor or the read fails.
 */
export async function reconcileVersionConflict(input: ReconcileInput): Promise<Reconciled<Record<string, unknown>>> {
  const spec = input.descriptor.reconcile;
  if (spec === null) throw input.conflict;
  const id = input.request[spec.idParameter];
  let resource: unknown;
  try {
    resource = await input.read(spec.readOperation, { [spec.idParameter]: id });
  } catch {
    throw input.conflict;
  }
  input.conflict.current = resource;
  const status = field(resource, "status");
  const version = field(resource, "version");
  const expected = input.request[EXPECTED_VERSION_FIELD];
  const holds =
    typeof status === "string" &&
    spec.holdsWhen.status.includes(status) &&
    typeof version === "number" &&
    typeof expected === "number" &&
    version > expected;
  if (!holds) throw input.conflict;
  return { ...(resource as Record<string, unknown>), reconciled: true };
}
