import type { SimOperation } from "../contract/operation-table.js";
import type { Principal } from "./principals.js";
import type { JsonRecord } from "../members.js";
import type { WriteCause } from "../resources/writer.js";
import type { SimRequest } from "../types.js";
import { type AccessControl, accessRefusal } from "./decide.js";
import { accessFacts } from "./facts.js";
import { accessPayload } from "./payload.js";
import { AccessInvalid, casesOf, resolveChecks } from "./resolve.js";
import { validateTarget } from "./targets.js";

/**
 * The release's access layer, one stage of the simulator's pipeline for every
 * operation with `x-powercontext-access`: the access payload ({@link accessPayload}),
 * the checks its resolver gives ({@link resolveChecks}), every target validated
 * ({@link validateTarget}) before any is decided, then each decided
 * ({@link AccessControl.require}). Any fault before the decisions is the policy's
 * `invalid` refusal (`422 invalid_access_request`, details null); a check not
 * allowed its `denied` (`403 forbidden`, details null).
 *
 * @returns the access payload, which the checks after the access layer read too
 * @throws SimError `invalid` or `denied`
 */
export function authorize(
  op: SimOperation,
  request: SimRequest,
  principal: Principal,
  control: AccessControl,
  cause?: WriteCause,
): JsonRecord {
  if (op.access === null) throw new Error("authorize needs an operation with an access rule");
  let payload: JsonRecord;
  let checks: ReturnType<typeof resolveChecks>;
  try {
    payload = accessPayload(op, request);
    checks = resolveChecks(casesOf(op.access), payload);
    for (const check of checks) validateTarget(check);
  } catch (error) {
    if (error instanceof AccessInvalid) throw accessRefusal(accessFacts.policy.refusals.invalid);
    throw error;
  }
  control.require(principal, checks, cause);
  return payload;
}
