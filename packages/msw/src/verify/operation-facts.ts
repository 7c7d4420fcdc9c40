// What `powercontext-mock verify` reads from the contract about each operation, from
// its `x-powercontext-*` extensions (docs/extensions.md), never from its name:
//
// - whether it has side effects: the retry class `safe` (or, without a class, a GET or
//   HEAD) changes nothing, everything else may;
// - which member names the Scope it acts on (`x-powercontext-access` resource
//   `scope-id-from`), so verify points it at a Scope of its own;
// - which resource it creates, lists or removes (`x-powercontext-resource`), so verify
//   finds the operations that create and remove a Scope.
import { type Contract, isObject, type OperationSpec, type Schema } from "./random/contract.js";

/** The facts of one operation. */
export interface OperationFacts {
  readonly operation: OperationSpec;
  /** true when the operation changes nothing on the server */
  readonly readOnly: boolean;
  /** the body's required top-level members (empty without a body) */
  readonly requiredBody: readonly string[];
  /** the parameter or top-level body member naming the Scope it acts on, or null */
  readonly scopeMember: string | null;
  /** `x-powercontext-resource`'s name and action, or null */
  readonly resource: { readonly name: string; readonly action: string } | null;
}

/** The resource name the contract gives a Scope (`x-powercontext-access` resource type). */
const SCOPE = "scope";

function node(contract: Contract, operation: OperationSpec): Schema {
  const paths = isObject(contract.document.paths) ? contract.document.paths : {};
  const item = contract.deref(paths[operation.path]);
  const found = item[operation.method.toLowerCase()];
  return isObject(found) ? found : {};
}

/** The facts of every operation of the contract, by operationId. */
export function operationFacts(contract: Contract): Map<string, OperationFacts> {
  const facts = new Map<string, OperationFacts>();
  for (const operation of contract.operations) {
    const raw = node(contract, operation);
    const retryClass = raw["x-powercontext-retry-class"];
    const readOnly =
      typeof retryClass === "string"
        ? retryClass === "safe"
        : operation.method === "GET" || operation.method === "HEAD";
    const access = raw["x-powercontext-access"];
    const target = isObject(access) && isObject(access.resource) ? access.resource : {};
    const from = target["scope-id-from"];
    const member = target.type === SCOPE && typeof from === "string" ? from : null;
    const body = contract.resolve(operation.body ?? {});
    const bodyMembers = body.properties;
    const known =
      member !== null &&
      (operation.parameters.some((p) => p.name === member) ||
        (isObject(bodyMembers) && Object.hasOwn(bodyMembers, member)));
    const resource = raw["x-powercontext-resource"];
    facts.set(operation.operationId, {
      operation,
      readOnly,
      requiredBody: Array.isArray(body.required) ? body.required.map(String) : [],
      scopeMember: known ? member : null,
      resource:
        isObject(resource) && typeof resource.name === "string" && typeof resource.action === "string"
          ? { name: resource.name, action: resource.action }
          : null,
    });
  }
  return facts;
}

/** The operation that does `action` to a Scope (`create`, `delete`), or undefined when the contract has none. */
export function scopeOperation(facts: ReadonlyMap<string, OperationFacts>, action: string): OperationFacts | undefined {
  return [...facts.values()].find((f) => f.resource?.name === SCOPE && f.resource.action === action);
}
