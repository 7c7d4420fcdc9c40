import type { OperationDescriptor } from "./descriptor.js";

/**
 * The members of {@link OperationDescriptor} a generated row may leave out,
 * with their defaults: no path or query parameters (`[]`), no asynchronous
 * answer, no reconciliation, no paging (null). The generated operation table
 * adds them, so every descriptor it exports has every required member.
 */
type DefaultedMember = "pathParameters" | "queryParameters" | "async" | "reconcile" | "pagination";

/**
 * A row of the operation table as the generator writes it: an
 * {@link OperationDescriptor} without the members equal to their defaults
 * (the parameter lists, `async`, `reconcile`, `pagination`), so that a bundle of the whole table does not
 * spell `pathParameters: []` and `async: null` on every row.
 */
export type OperationRow = Omit<OperationDescriptor, DefaultedMember> &
  Partial<Pick<OperationDescriptor, DefaultedMember>>;
