import type { OperationDescriptor, OperationTable } from "../descriptor.js";

/**
 * The operation table of `rows`, keyed by each row's `operationId`, in the
 * order JavaScript holds an object's keys (integer-like ids first, then the
 * rows' order). The generated module lists the rows instead of writing each
 * operationId a second time as a key (in a browser bundle of the whole client
 * that costs about 0.4 kB after gzip), as {@link validatorsByOperation} does
 * for the validators.
 *
 * @throws Error when two rows name the same operation (rows of different
 *   generations of the spec mixed by hand).
 */
export function operationsById(rows: readonly OperationDescriptor[]): OperationTable {
  const ids = new Set<string>();
  for (const { operationId } of rows) {
    if (ids.has(operationId)) throw new Error(`two operation rows for ${operationId}: regenerate the client`);
    ids.add(operationId);
  }
  // Own data properties whatever the id (`__proto__` too), as entries define them.
  return Object.fromEntries(rows.map((row) => [row.operationId, row]));
}
