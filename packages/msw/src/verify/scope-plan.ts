// Where `powercontext-mock verify` writes: in Scopes of its own. The run starts by
// creating one Scope on each side, named `verify-<seed>-0`; every later request whose
// operation acts on a Scope (`scope-id-from` in the contract) is pointed at it, and every
// Scope a random request creates is named with the same prefix. Only answers to requests
// that create something offer their ids to later requests, so no id of the server's
// other data (a Scope another team made, found in a list) is ever written to.
// In read-only mode nothing is created: scoped requests name the Scope
// `verify-<seed>-none`, which exists on neither side.
import type { OperationFacts } from "./operation-facts.js";
import { isObject, pointerStep } from "./random/contract.js";
import { AnswerRef, idKind } from "./random/identity.js";
import type { Answer } from "./random/judge.js";
import type { Drawn, LogicalRequest, Slot } from "./random/requests.js";

/** How one run keeps to its own Scopes. */
export interface ScopePlan {
  /** `verify-<seed>-`: the start of the name of everything the run creates */
  readonly prefix: string;
  /** the request creating the run's own Scope, sent first; null in read-only mode */
  readonly setup: Slot | null;
  /** the request to send for a drawn one (see the file's comment) */
  prepare(drawn: Drawn, index: number): LogicalRequest;
  /** whether an answer may offer its ids to later requests: 2xx answers to requests that create */
  feeds(request: LogicalRequest, answer: Answer): boolean;
}

const creates = (facts: OperationFacts) => facts.operation.successStatuses.some((s) => s === 201 || s === 202);

/** True when the request's fault sits at one of `pointers` of `part` (the valid request is then used). */
function faultAt(request: LogicalRequest, part: "params" | "body", pointers: readonly string[]): boolean {
  return request.fault !== null && request.fault.part === part && pointers.includes(request.fault.pointer);
}

/**
 * The plan of a run.
 *
 * @param facts the contract's operation facts, by operationId
 * @param scopeCreate the operation creating a Scope (undefined when the contract has none)
 * @param readOnly true when the run creates nothing
 */
export function scopePlan(
  seed: number,
  facts: ReadonlyMap<string, OperationFacts>,
  scopeCreate: OperationFacts | undefined,
  readOnly: boolean,
): ScopePlan {
  const prefix = `verify-${seed}-`;
  const setup = readOnly || scopeCreate === undefined ? null : { operation: scopeCreate.operation, k: -1 };

  /**
   * The create request of a Scope with every plain string member named
   * `verify-<seed>-<index>`; the run's own Scope (index 0) with its required members only.
   */
  const named = (drawn: Drawn, index: number): LogicalRequest => {
    const name = `${prefix}${index}`;
    const plain = (member: string, value: unknown) => typeof value === "string" && idKind(member) === null;
    const pointers = isObject(drawn.valid.body) ? Object.keys(drawn.valid.body).map((m) => `/${pointerStep(m)}`) : [];
    const base = index === 0 || faultAt(drawn.request, "body", pointers) ? drawn.valid : drawn.request;
    if (!isObject(base.body)) return base;
    const kept = Object.entries(base.body).filter(
      ([member]) => index !== 0 || scopeCreate?.requiredBody.includes(member),
    );
    const body = Object.fromEntries(kept.map(([member, value]) => [member, plain(member, value) ? name : value]));
    return { ...base, body };
  };

  /** The request with its Scope member pointed at the run's own Scope. */
  const pinned = (drawn: Drawn, member: string): LogicalRequest => {
    const pointer = `/${pointerStep(member)}`;
    const inParams = Object.hasOwn(drawn.request.locations, member);
    // a fault at the member, or at the object holding it (a member left out, a body of another type), goes
    const base = faultAt(drawn.request, inParams ? "params" : "body", ["", pointer]) ? drawn.valid : drawn.request;
    const fallback = `${prefix}none`;
    const value =
      setup === null ? fallback : new AnswerRef(0, `/${pointerStep(idKind(member) ?? member)}`, "scope_id", fallback);
    if (inParams) return { ...base, params: { ...base.params, [member]: value } };
    return isObject(base.body) ? { ...base, body: { ...base.body, [member]: value } } : base;
  };

  return {
    prefix,
    setup,
    prepare(drawn, index) {
      const fact = facts.get(drawn.request.operation);
      if (fact === undefined) return drawn.request;
      if (fact === scopeCreate) return named(drawn, index);
      return fact.scopeMember === null ? drawn.request : pinned(drawn, fact.scopeMember);
    },
    feeds(request, answer) {
      const fact = facts.get(request.operation);
      return fact !== undefined && creates(fact) && answer.status >= 200 && answer.status < 300;
    },
  };
}
