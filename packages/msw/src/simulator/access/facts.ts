import { contractAccess } from "../../generated/access.js";

/**
 * The access facts of the contract as the simulator reads them: the types of
 * `x-powercontext-access-policy`, `-resolvers`, `-after` and `-owner`
 * (`codegen/schema/extensions.schema.json`, `access-*`, defines each member; docs/architecture.md,
 * "Access"), and {@link accessFacts}, the generated data assigned to them, so a fact
 * this reader cannot read does not compile.
 */

/** A JSON scalar. */
export type Scalar = string | number | boolean | null;

/** Where a target member comes from: a payload path (read as a request value), `{ text }` (a non-empty string), `{ value }`, or `$` (the item of `each`). */
export type Ref = string | { readonly value: string } | { readonly text: string };

/** An Artifact target: by `id`, or by a reference object at `ref` whose `family` must be the constant family. */
export interface ArtifactTargetFact {
  readonly scope: Ref;
  readonly family: Ref;
  readonly id?: Ref;
  readonly entry?: Ref;
  readonly ref?: string;
}

/** One check of a resolver case or an after-access entry. */
export interface CheckFact {
  readonly action: string;
  readonly server?: true;
  readonly scope?: Ref;
  readonly artifact?: ArtifactTargetFact;
  readonly if?: string;
  readonly unless?: string;
  readonly each?: string;
  readonly if_any_null?: string;
}

/** What a payload member must be. */
export type Requirement = "present" | "object" | "text" | "non_empty_list" | "text_list" | readonly Scalar[];

/** One case of a resolver. */
export interface CaseFact {
  readonly when?: { readonly [path: string]: readonly Scalar[] };
  readonly require?: { readonly [path: string]: Requirement };
  readonly checks?: readonly CheckFact[];
  readonly non_empty?: boolean;
}

/** A role: the kind of resource it is bound on, its actions there, and its actions on that resource's children. */
export interface RoleFact {
  readonly on: "server" | "scope" | "artifact";
  readonly actions: readonly string[];
  readonly children: readonly string[];
  /** How many such bindings a resource may have; default `many_per_resource`. */
  readonly cardinality?: "one_per_resource" | "many_per_resource";
  /** The subject types it may be bound to; default group, service and user. */
  readonly subjects?: readonly ("user" | "service" | "group")[];
  readonly system?: boolean;
}

/** An Artifact family's access profile. */
export interface FamilyFact {
  readonly selector: "forbidden" | "memory_entry";
  /** The actions it is shared for. */
  readonly actions: readonly string[];
  /** The actions that change one of its Artifacts. */
  readonly mutations: readonly string[];
  readonly grantable: readonly string[];
}

/** A status and an error code. */
export interface RefusalFact {
  readonly status: number;
  readonly code: string;
}

/** `x-powercontext-access-policy`. */
export interface PolicyFact {
  readonly deployment: string;
  readonly self_action: string;
  readonly ids: {
    readonly scope: number;
    readonly family: number;
    readonly artifact: number;
    readonly entry: number;
    readonly deployment: number;
  };
  readonly whitespace: readonly number[];
  readonly actions: { readonly server: readonly string[]; readonly scope: readonly string[] };
  readonly roles: { readonly [role: string]: RoleFact };
  readonly owner_role: string;
  readonly families: { readonly [family: string]: FamilyFact };
  /** The action every Artifact target takes besides its family's. */
  readonly share_action: string;
  readonly artifact_resource: string;
  readonly owned: readonly string[];
  readonly static_principal?: {
    readonly principal: { readonly type: "user" | "service"; readonly id: string; readonly description: string };
    readonly server_roles: readonly string[];
    readonly scope_preset: readonly string[];
    readonly preset_reason: string;
  };
  /** The reason code of a decision. */
  readonly reasons: { readonly self: string; readonly binding: string; readonly owner: string; readonly none: string };
  /** What the server says of its access control. */
  readonly report: { readonly mode: string; readonly capabilities: { readonly [name: string]: boolean | number } };
  readonly refusals: { readonly invalid: RefusalFact; readonly denied: RefusalFact };
}

/** A record an after-access entry looks up. */
export interface LookupFact {
  readonly resource: string;
  readonly id: Ref;
  readonly within: readonly Ref[];
  readonly missing?: "refuse" | "skip" | "only";
  readonly not_found?: RefusalFact;
}

/** One entry of `x-powercontext-access-after`. */
export interface AfterFact {
  readonly stage?: "scope" | "domain";
  readonly when?: { readonly [path: string]: readonly Scalar[] };
  readonly each?: string;
  readonly lookup?: LookupFact;
  readonly owner?: true;
  readonly checks?: readonly CheckFact[];
  readonly any?: readonly CheckFact[];
  readonly grantable?: { readonly role: string; readonly resource: string };
  readonly future?: string;
  readonly denied?: RefusalFact;
}

/** Every access fact of the contract. */
export interface AccessFacts {
  readonly policy: PolicyFact;
  readonly resolvers: { readonly [name: string]: readonly CaseFact[] };
  readonly after: { readonly [operationId: string]: readonly AfterFact[] };
  readonly owners: { readonly [operationId: string]: { readonly inherit: string } };
}

/** The contract's access facts (generated from `openapi.yaml`). */
export const accessFacts: AccessFacts = contractAccess;
