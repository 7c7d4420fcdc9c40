import { contractResources } from "../../generated/contract.js";
import type { ContractResource } from "../../contract/types.js";
import type { Principal } from "./principals.js";
import type { JsonRecord } from "../members.js";
import { refuse } from "../resources/refusals.js";
import type { ResourceStore } from "../resources/store.js";
import type { WriteCause } from "../resources/writer.js";
import { type AccessControl, accessRefusal } from "./decide.js";
import { type AfterFact, type CheckFact, type LookupFact, accessFacts } from "./facts.js";
import {
  AccessInvalid,
  type Check,
  type ReadContext,
  expandCheck,
  listItems,
  refText,
  valueAt,
  whenHolds,
} from "./resolve.js";
import { validateTarget } from "./targets.js";

/**
 * The checks the release makes after its access layer (`x-powercontext-access-after`
 * of an operation), at their stage: `scope` once the Scope the request names is found,
 * `domain` where a domain module asks ({@link AfterAccess.check}). Each entry, for
 * every item of its `each` (or once): its `lookup` (the record must exist, else the
 * refusal; `missing: skip` leaves the entry out), every lookup before any decision;
 * then, where `when` holds: `owner` (the caller owns the record), `checks` (each
 * allowed), `any` (one allowed), `grantable` (the role may be bound on the resource),
 * `future` (the time is later than now), `caller` (the request names the caller's
 * Principal id there), `invalid` (refused wherever `when` holds). Names no operation: everything comes from the facts.
 */

const policy = accessFacts.policy;

/** A read context with what a lookup found: the record and its key, or that it is absent. */
type Found = ReadContext & { readonly key?: readonly [string, readonly string[], string]; readonly absent?: boolean };

/** What the stage reads. */
export interface AfterDeps {
  readonly control: AccessControl;
  readonly store: ResourceStore;
  readonly now: () => number;
}

/** The request whose checks run: its operation, payload, caller and cause. */
interface Current {
  readonly operationId: string;
  readonly payload: JsonRecord;
  readonly principal: Principal;
  readonly cause: WriteCause | undefined;
}

/** The after-access checks of the simulator. */
export class AfterAccess {
  #current: Current | null = null;

  constructor(private readonly deps: AfterDeps) {}

  /**
   * Starts a request once its Scope is found: runs its `scope` entries and keeps
   * it for {@link domain}.
   * @throws SimError as {@link check}
   */
  begin(operationId: string, payload: JsonRecord, principal: Principal, cause?: WriteCause): void {
    this.#current = { operationId, payload, principal, cause };
    this.check(operationId, "scope", payload, principal, cause);
  }

  /** Ends the request (its `domain` entries are no longer asked for). */
  end(): void {
    this.#current = null;
  }

  /**
   * Runs the current request's `domain` entries: a domain module asks at the point
   * where the release's domain decides (after its own checks of the request), handing
   * over what it found (`$record` of the entries; null for nothing). No request with a
   * principal: nothing.
   * @throws SimError as {@link check}
   */
  domain(record: JsonRecord | null = null): void {
    const current = this.#current;
    if (current !== null)
      this.check(current.operationId, "domain", current.payload, current.principal, current.cause, record);
  }

  /**
   * Runs the entries of `operationId` at `stage` for `principal` on `payload`.
   * @throws SimError a lookup's refusal, the policy's `denied` or `invalid`
   */
  check(
    operationId: string,
    stage: "scope" | "domain",
    payload: JsonRecord,
    principal: Principal,
    cause?: WriteCause,
    record: JsonRecord | null = null,
  ): void {
    const entries = Object.hasOwn(accessFacts.after, operationId) ? accessFacts.after[operationId] : undefined;
    for (const entry of entries ?? []) {
      if ((entry.stage ?? "scope") !== stage) continue;
      const items = entry.each === undefined ? [undefined] : listItems(entry.each, { payload });
      const contexts = items.map((item) => this.#lookup(entry.lookup, { payload, item, record }));
      for (const context of contexts) {
        if (context === null || !whenHolds(entry.when, context)) continue;
        this.#decide(entry, context, principal, cause);
        if (context.absent === true && entry.lookup !== undefined)
          missing(entry.lookup, contractResources[entry.lookup.resource] as ContractResource);
      }
    }
  }

  /**
   * The context with the record `lookup` names, null to skip the entry (`skip` and no
   * such record; `only` and a record that is there). With `only` and no record, the
   * context is marked `absent`: the entry's checks run, then its refusal.
   * @throws SimError the not-found refusal
   */
  #lookup(lookup: LookupFact | undefined, context: ReadContext): Found | null {
    if (lookup === undefined) return context;
    const resource = contractResources[lookup.resource] as ContractResource;
    let record: JsonRecord | undefined;
    let key: [string, string[], string] | undefined;
    try {
      const id = refText(lookup.id, context);
      const keys = lookup.within.map((ref) => refText(ref, context));
      record = this.deps.store.find(resource.name, keys, id)?.current;
      key = [resource.name, keys, id];
    } catch (error) {
      if (!(error instanceof AccessInvalid)) throw error;
    }
    const mode = lookup.missing ?? "refuse";
    if (record !== undefined) return mode === "only" ? null : { ...context, record, key };
    if (mode === "skip") return null;
    if (mode === "only") return { ...context, absent: true };
    return missing(lookup, resource);
  }

  #decide(entry: AfterFact, context: Found, principal: Principal, cause?: WriteCause): void {
    const { control } = this.deps;
    const denied = () => accessRefusal(entry.denied ?? policy.refusals.denied);
    if (entry.owner === true) {
      const key = context.key;
      if (key === undefined || !control.owns(principal, key[0], key[1], key[2])) throw denied();
    }
    if (entry.checks !== undefined)
      for (const check of checksOf(entry.checks, context)) if (!control.allows(principal, check, cause)) throw denied();
    if (entry.any !== undefined) {
      const checks = checksOf(entry.any, context);
      // One allowed as it stands is enough (the audit records that one); a preset is written only when none is.
      const standing = checks.find((check) => control.explain(principal, check).allowed);
      const allowed =
        standing !== undefined
          ? control.allows(principal, standing, cause)
          : checks.some((check) => control.allows(principal, check, cause));
      if (!allowed) throw denied();
    }
    if (
      entry.grantable !== undefined &&
      !grantable(valueAt(context, entry.grantable.role), valueAt(context, entry.grantable.resource))
    )
      throw accessRefusal(policy.refusals.invalid);
    if (entry.future !== undefined) {
      const at = valueAt(context, entry.future);
      if (typeof at === "string" && !(Date.parse(at) > this.deps.now())) throw accessRefusal(policy.refusals.invalid);
    }
    if (entry.caller !== undefined && valueAt(context, entry.caller) !== principal.ref.id)
      throw accessRefusal(policy.refusals.invalid);
    if (entry.invalid === true) throw accessRefusal(policy.refusals.invalid);
  }
}

function missing(lookup: LookupFact, resource: ContractResource): never {
  throw refuse(lookup.not_found === undefined ? resource.notFound : { ...lookup.not_found, details: null });
}

/** The checks of `facts` in `context`, every target valid. @throws SimError the policy's `invalid` */
function checksOf(facts: readonly CheckFact[], context: ReadContext): Check[] {
  try {
    const checks = facts.flatMap((fact) => expandCheck(fact, context));
    for (const check of checks) validateTarget(check);
    return checks;
  } catch (error) {
    if (error instanceof AccessInvalid) throw accessRefusal(policy.refusals.invalid);
    throw error;
  }
}

/** True when `role` may be bound on `resource` (an Access API resource): the role is on its kind, and an Artifact's family grants it. */
function grantable(role: unknown, resource: unknown): boolean {
  const fact = typeof role === "string" && Object.hasOwn(policy.roles, role) ? policy.roles[role] : undefined;
  const r = resource as JsonRecord | null;
  if (fact === undefined || fact.system === true || r === null || typeof r !== "object" || fact.on !== r.type)
    return false;
  if (r.type !== "artifact") return true;
  const family = String((r.identity as JsonRecord | undefined)?.family);
  return (
    Object.hasOwn(policy.families, family) && (policy.families[family]?.grantable.includes(role as string) ?? false)
  );
}
