/**
 * The runtime's one generic contract error: the conflict a guarded operation
 * meets when the state it names has moved. The generator derives the class of a
 * spec's reconcile conflict code (the code `x-powercontext-reconcile` names,
 * `version_conflict` by default) from it, so that the reconciler, which cannot
 * import generated code, finds that error by this class and records what it
 * read on it (docs/adr/0014-generated-contract-errors.md).
 */
import { declareErrorClass } from "./error-brand.js";
import { ConflictError } from "./errors.js";

/** The wire names of the resource read by reconciliation, from the operation's reconcile descriptor. */
export interface ResourceStateFields {
  /** Member holding the resource's state. */
  readonly statusField: string;
  /** Member holding the resource's version. */
  readonly versionField: string;
}

/** A 409 that reconciliation can follow up: the base of the generated class of the reconcile conflict code. */
export class GuardedConflictError extends ConflictError {
  static {
    declareErrorClass(GuardedConflictError, "GuardedConflictError");
  }
  /** The resource as read by reconciliation, or null when it was not read. */
  declare current: unknown;
  /**
   * True when an earlier attempt of this call got no answer (a lost response,
   * a timeout, a gateway 502/504) and the resource read afterwards does not
   * show that this call's change, and only it, took effect: whether the lost
   * attempt was applied is unknown. Read `current` before acting again.
   */
  declare outcomeUnknown: boolean;

  constructor(init: ConstructorParameters<typeof ConflictError>[0]) {
    super(init);
    this.current = null;
    this.outcomeUnknown = false;
  }

  /**
   * Marks the conflict as following an earlier attempt whose outcome is
   * unknown, records the resource read (null when it could not be read) and
   * says so in the message, with the resource's state and version when
   * `fields` names them. Returns this error.
   */
  withUnknownOutcome(current: unknown, fields?: ResourceStateFields): this {
    this.current = current;
    this.outcomeUnknown = true;
    const member = (name: string | undefined): unknown =>
      name !== undefined && typeof current === "object" && current !== null
        ? (current as Record<string, unknown>)[name]
        : undefined;
    const status = member(fields?.statusField);
    const version = member(fields?.versionField);
    const now =
      typeof status === "string" && typeof version === "number"
        ? `; the resource is now ${status} at version ${version}`
        : "";
    this.message = `${this.message} (an earlier attempt of this call got no answer and its outcome is unknown${now})`;
    return this;
  }
}
