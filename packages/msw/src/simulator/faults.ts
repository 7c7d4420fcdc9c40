import { declaresEnvelope, simOperations, type SimOperationId } from "./contract/operation-table.js";

/**
 * Transport-level faults for scenarios and retry tests: injected on the next
 * N requests matching an operation filter, consumed in the order they were
 * added. A status fault only matches operations whose contract declares that
 * status with the error envelope, so every injected answer stays valid
 * against `openapi.yaml`.
 */
export type FaultAction =
  /** Answer normally, after `ms` milliseconds. */
  | { readonly type: "delay"; readonly ms: number }
  /** Drop the connection; `before` leaves state untouched, `after` applies the request first (a lost response). */
  | { readonly type: "reset"; readonly when: "before" | "after" }
  /** Answer 429 `rate_limited` or 503 `unavailable` with `Retry-After` (seconds, default 1); no state change. */
  | { readonly type: "status"; readonly status: 429 | 503; readonly retryAfterS?: number }
  /** Apply the request, then send a truncated, unparseable JSON body with the real status. */
  | { readonly type: "malformed" };

/** One injected fault. */
export interface FaultRule {
  /** Operations it applies to; all when omitted. */
  readonly operationId?: SimOperationId | readonly SimOperationId[];
  /** How many matching requests it affects. Default 1. */
  readonly times?: number;
  readonly action: FaultAction;
}

interface ArmedRule {
  readonly ids: readonly SimOperationId[] | null;
  remaining: number;
  readonly action: FaultAction;
}

/** The queue of armed faults. */
export class FaultInjector {
  readonly #rules: ArmedRule[] = [];

  /**
   * Arms a fault.
   * @throws RangeError when `times` is not a positive integer, or a status fault names an
   *   operation whose contract does not declare that status
   */
  inject(rule: FaultRule): void {
    const times = rule.times ?? 1;
    if (!Number.isInteger(times) || times < 1) throw new RangeError("a fault needs times >= 1");
    const ids =
      rule.operationId === undefined
        ? null
        : typeof rule.operationId === "string"
          ? [rule.operationId]
          : [...rule.operationId];
    const action = rule.action;
    if (action.type === "status" && ids) {
      const undeclared = ids.filter((id) => !declares(id, action.status));
      if (undeclared.length > 0) throw new RangeError(`${undeclared.join(", ")} does not declare ${action.status}`);
    }
    this.#rules.push({ ids, remaining: times, action });
  }

  /** Consumes and returns the first armed fault matching `operationId`, or null. */
  take(operationId: SimOperationId): FaultAction | null {
    const rule = this.#rules.find((r) => r.remaining > 0 && matches(r, operationId));
    if (!rule) return null;
    rule.remaining -= 1;
    if (rule.remaining === 0) this.#rules.splice(this.#rules.indexOf(rule), 1);
    return rule.action;
  }

  /** Number of fault uses still armed. */
  pending(): number {
    return this.#rules.reduce((sum, r) => sum + r.remaining, 0);
  }

  /** Disarms every fault. */
  clear(): void {
    this.#rules.length = 0;
  }
}

/** True when the contract declares `status` for `id` with the error envelope as its body. */
function declares(id: SimOperationId, status: number): boolean {
  return declaresEnvelope(simOperations[id], status);
}

function matches(rule: ArmedRule, id: SimOperationId): boolean {
  if (rule.ids && !rule.ids.includes(id)) return false;
  return rule.action.type !== "status" || declares(id, rule.action.status);
}
