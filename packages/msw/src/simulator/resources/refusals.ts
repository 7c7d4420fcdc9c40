import type { ContractRefusal, ContractRefusalDetail } from "../../contract/types.js";
import { SimError } from "../errors.js";

/**
 * Contract refusals as {@link SimError}s: the status and code the resource
 * facts name, `error.details` from the refusal's fixed members plus the
 * members that take the request's or the record's value. Messages are fixed
 * phrases per status; they never echo a request value.
 */

const MESSAGES: Readonly<Record<number, string>> = {
  400: "The request is invalid.",
  403: "The Principal is not authorized for this operation.",
  404: "The requested value was not found.",
  409: "The request conflicts with the current state.",
  412: "The precondition does not match the current state.",
  428: "The request needs a precondition.",
};

/** Messages of codes that name what was not there (the Scope the domain modules refuse with the same words). */
const CODE_MESSAGES: Readonly<Record<string, string>> = {
  scope_not_found: "The requested Scope was not found.",
};

/** The values a refusal's `details` may name. */
export interface RefusalValues {
  /** The version or ETag the request expected. */
  readonly expected?: unknown;
  /** The ETag the request sent. */
  readonly provided?: unknown;
  /** The stored record's version or ETag. */
  readonly current?: unknown;
}

/** The error for `refusal`, with its details filled from `values`. */
export function refuse(
  refusal: ContractRefusal,
  named: readonly ContractRefusalDetail[] = [],
  values: RefusalValues = {},
): SimError {
  const details: Record<string, unknown> = { ...(refusal.details ?? {}) };
  for (const { name, value } of named) details[name] = values[value] ?? null;
  const message = CODE_MESSAGES[refusal.code] ?? MESSAGES[refusal.status] ?? "The request cannot be completed.";
  return new SimError(refusal.status, refusal.code, message, Object.keys(details).length === 0 ? null : details);
}
