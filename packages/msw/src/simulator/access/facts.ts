import { contractAccess } from "../../generated/access.js";
import type {
  AccessAfterEntryFact,
  AccessArtifactTargetFact,
  AccessCaseFact,
  AccessCheckFact,
  AccessFamilyFact,
  AccessLookupFact,
  AccessOwnerFact,
  AccessPolicyFact,
  AccessRefFact,
  AccessRefusalFact,
  AccessResolversFact,
  AccessRoleFact,
} from "../../contract/generated/access-facts.js";

/**
 * The access facts of the contract as the simulator reads them: `x-powercontext-access-policy`,
 * `-resolvers`, `-after` and `-owner` as the spec writes them, typed by
 * `contract/generated/access-facts.ts` (generated from `codegen/schema/extensions.schema.json`,
 * `access-*`, which defines each member; docs/architecture.md, "Access"), and
 * {@link accessFacts}, the generated data assigned to them, so a fact this reader cannot
 * read does not compile.
 */

/** A JSON scalar. */
export type Scalar = string | number | boolean | null;

/** Where a target member comes from: a payload path (read as a request value), `{ text }` (a non-empty string), `{ value }`, or `$` (the item of `each`). */
export type Ref = AccessRefFact;

/** An Artifact target: by `id`, or by a reference object at `ref` whose `family` must be the constant family. */
export type ArtifactTargetFact = AccessArtifactTargetFact;

/** One check of a resolver case or an after-access entry. */
export type CheckFact = AccessCheckFact;

/** What a payload member must be. */
export type Requirement = NonNullable<AccessCaseFact["require"]>[string];

/** One case of a resolver. */
export type CaseFact = AccessCaseFact;

/** A role: the kind of resource it is bound on, its actions there, and its actions on that resource's children. */
export type RoleFact = AccessRoleFact;

/** An Artifact family's access profile. */
export type FamilyFact = AccessFamilyFact;

/** A status and an error code. */
export type RefusalFact = AccessRefusalFact;

/** `x-powercontext-access-policy`. */
export type PolicyFact = AccessPolicyFact;

/** A record an after-access entry looks up. */
export type LookupFact = AccessLookupFact;

/** One entry of `x-powercontext-access-after`. */
export type AfterFact = AccessAfterEntryFact;

/** Every access fact of the contract. */
export interface AccessFacts {
  readonly policy: PolicyFact;
  readonly resolvers: AccessResolversFact;
  readonly after: { readonly [operationId: string]: readonly AfterFact[] };
  readonly owners: { readonly [operationId: string]: AccessOwnerFact };
}

/** The contract's access facts (generated from `openapi.yaml`). */
export const accessFacts: AccessFacts = contractAccess;
