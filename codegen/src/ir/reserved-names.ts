import { LintError, SpecError } from "../errors.js";
import type { OperationIr } from "./model.js";

/**
 * Names every JavaScript object already has (the members of `Object.prototype`,
 * listed here so the rule does not depend on the Node version). As a key of the
 * generated tables (`operations`, `validatorMap`, ...) `__proto__` would replace
 * the table's prototype and the others would shadow what `String(table)` or
 * `table.hasOwnProperty(...)` call; as a client method they would do the same to
 * the client.
 */
const OBJECT_MEMBERS = [
  "__proto__",
  "constructor",
  "toString",
  "toLocaleString",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
];

/**
 * Method names an operation may not take on the client:
 * - `then`: a client with a `then` method is a thenable, so `await client` (or
 *   returning the client from an async function) would call it and never resolve;
 * - the members of the generated base class (`call`, `submit`, `paginate`, `runtime`) and of
 *   the facade that extends it (`request`, `waitForOperation`, `baseUrl`, in
 *   packages/sdk/src/client.ts), which would override or hide the operation method.
 */
const CLIENT_MEMBERS = ["then", "call", "submit", "paginate", "runtime", "request", "waitForOperation", "baseUrl"];

const RESERVED_KEYS = new Set(OBJECT_MEMBERS);

/** True for a name that cannot be a key of a generated object literal (a member of `Object.prototype`). */
export function isReservedKey(name: string): boolean {
  return RESERVED_KEYS.has(name);
}
const RESERVED_METHODS = new Set([...OBJECT_MEMBERS, ...CLIENT_MEMBERS]);

/**
 * Refuses operationIds that would break the generated JavaScript objects: an
 * operationId used as a table key must not be a member of `Object.prototype`, and
 * no method derived from it (`<method>`, `submit<Type>`, `<method>All`) may be one
 * either, nor `then` or a member of the client classes. Refusing (rather than
 * renaming) keeps the method name predictable from the operationId
 * (docs/architecture.md, "What the generator refuses").
 *
 * @throws {LintError} with one `reserved_name` finding per offending operation,
 *   each at the pointer of its `operationId`
 */
export function checkReservedNames(operations: readonly OperationIr[]): void {
  const errors: SpecError[] = [];
  for (const op of operations) {
    const at = { pointer: `${op.pointer}/operationId` };
    if (RESERVED_KEYS.has(op.operationId)) {
      errors.push(
        new SpecError(
          "reserved_name",
          at,
          `operationId "${op.operationId}" is a member of every JavaScript object and cannot key the generated operation tables; rename the operation`,
        ),
      );
      continue;
    }
    const methods = [
      op.methodName,
      ...(op.async ? [`submit${op.typeName}`] : []),
      ...(op.pagination ? [`${op.methodName}All`] : []),
    ];
    const clash = methods.find((name) => RESERVED_METHODS.has(name));
    if (clash !== undefined) {
      const why =
        clash === "then"
          ? "would make the client a thenable (await on it would never resolve)"
          : OBJECT_MEMBERS.includes(clash)
            ? "is a member of every JavaScript object"
            : "is a member of the client classes";
      errors.push(
        new SpecError(
          "reserved_name",
          at,
          `operationId "${op.operationId}" becomes the client method ${clash}, which ${why}; rename the operation`,
        ),
      );
    }
  }
  if (errors.length > 0) throw new LintError(errors);
}
