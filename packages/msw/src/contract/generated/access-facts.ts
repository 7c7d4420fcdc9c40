// Generated from codegen/schema/extensions.schema.json by `npm run generate`; do not edit.
// The contract facts as the spec writes them (docs/extensions.md).

/**
 * x-powercontext-access-policy (document): the server's actions, roles, Artifact family profiles, id rules, owned resources, static principal and the access layer's refusals.
 */
export type AccessPolicyFact = {
    /**
     * The id of the deployment, the server resource's key.
     */
    readonly deployment: string;
    /**
     * The action every authenticated caller holds on itself.
     */
    readonly self_action: string;
    /**
     * How long each kind of id may be.
     */
    readonly ids: AccessIdLimitsFact;
    /**
     * The code points an id may not start or end with (Python's whitespace), as the server strips them.
     */
    readonly whitespace: readonly number[];
    /**
     * The actions on the server and on a Scope.
     */
    readonly actions: {
        readonly server: readonly string[];
        readonly scope: readonly string[];
    };
    /**
     * Every role by name: where it is bound and what it grants.
     */
    readonly roles: {
        readonly [key: string]: AccessRoleFact;
    };
    /**
     * The role the owner of an Artifact holds on it, a relation no binding grants.
     */
    readonly owner_role: string;
    /**
     * The Artifact families the access layer knows, each with its actions, mutations and grantable roles.
     */
    readonly families: {
        readonly [key: string]: AccessFamilyFact;
    };
    /**
     * The resource of x-powercontext-resources that holds the Artifacts owners are kept for.
     */
    readonly artifact_resource: string;
    /**
     * The resources of x-powercontext-resources whose records remember the principal that created them.
     */
    readonly owned: readonly string[];
    /**
     * The principal the server's one static bearer token stands for, its server roles and the Scope roles written on each Scope it uses.
     */
    readonly static_principal?: {
        readonly principal: {
            readonly type: "user" | "service";
            readonly id: string;
            readonly description: string;
        };
        readonly server_roles: readonly string[];
        readonly scope_preset: readonly string[];
        readonly preset_reason: string;
    };
    /**
     * The refusal of an invalid target (`invalid`), of a denied check (`denied`) and of a listing the access layer cannot filter safely (`unavailable`).
     */
    readonly refusals: {
        /**
         * A refusal: its status and a code of x-powercontext-error-codes with that status.
         */
        readonly invalid: AccessRefusalFact;
        /**
         * A refusal: its status and a code of x-powercontext-error-codes with that status.
         */
        readonly denied: AccessRefusalFact;
        /**
         * A refusal: its status and a code of x-powercontext-error-codes with that status.
         */
        readonly unavailable: AccessRefusalFact;
    };
    /**
     * How a listing of Artifacts finds those of a family in a Scope a parent binding covers: the family's current heads that have an owner (`heads`), or none (`none`). A listing without a family walks every `heads` family; a family without an entry is refused (`invalid`) once a parent binding covers a Scope.
     */
    readonly discovery: {
        readonly [key: string]: "heads" | "none";
    };
    /**
     * The action every Artifact target takes besides its family's.
     */
    readonly share_action: string;
    /**
     * The reason code of a decision: the self action, a binding, the owner relation, nothing.
     */
    readonly reasons: {
        readonly self: string;
        readonly binding: string;
        readonly owner: string;
        readonly none: string;
    };
    /**
     * What the server says of its access control.
     */
    readonly report: {
        readonly mode: string;
        readonly capabilities: {
            readonly [key: string]: boolean | number;
        };
    };
};

/**
 * x-powercontext-access-resolvers (document): every resolver an operation's x-powercontext-access names, as cases.
 */
export type AccessResolversFact = {
    readonly [key: string]: readonly AccessCaseFact[];
};

/**
 * x-powercontext-access-after (operation): the checks the server makes after its access layer, in order.
 */
export type AccessAfterFact = readonly AccessAfterEntryFact[];

/**
 * x-powercontext-access-owner (operation): the records the operation creates are owned by the owner of the record of `inherit` it changes (an approved Candidate's result belongs to its proposer), not by the caller.
 */
export type AccessOwnerFact = {
    /**
     * The resource of x-powercontext-resources whose changed record's owner owns what the operation creates.
     */
    readonly inherit: string;
};

export type AccessIdLimitsFact = {
    /**
     * The most code points a Scope id may have.
     */
    readonly scope: number;
    /**
     * The most code points a family name may have.
     */
    readonly family: number;
    /**
     * The most code points an Artifact id may have.
     */
    readonly artifact: number;
    /**
     * The most code points a Memory entry id may have.
     */
    readonly entry: number;
    /**
     * The most code points a deployment id may have.
     */
    readonly deployment: number;
};

export type AccessRoleFact = {
    /**
     * The kind of resource the role is bound on.
     */
    readonly on: "server" | "scope" | "artifact";
    /**
     * The actions the role grants on its resource.
     */
    readonly actions: readonly string[];
    /**
     * The actions it grants on the resource's children (a Scope's Artifacts, the server's Scopes).
     */
    readonly children: readonly string[];
    /**
     * Granted by the server itself, never by a binding.
     */
    readonly system?: boolean;
    /**
     * How many such bindings a resource may have (default many_per_resource).
     */
    readonly cardinality?: "one_per_resource" | "many_per_resource";
    /**
     * The subject types it may be bound to (default group, service, user).
     */
    readonly subjects?: readonly ("user" | "service" | "group")[];
};

export type AccessFamilyFact = {
    /**
     * What a target of the family may select inside an Artifact: nothing (`forbidden`) or one Memory entry (`memory_entry`).
     */
    readonly selector: "forbidden" | "memory_entry";
    /**
     * The actions the family is shared for.
     */
    readonly actions: readonly string[];
    /**
     * The actions that change an Artifact of the family.
     */
    readonly mutations: readonly string[];
    /**
     * The Artifact roles a binding may grant on an Artifact of the family.
     */
    readonly grantable: readonly string[];
};

/**
 * A refusal: its status and a code of x-powercontext-error-codes with that status.
 */
export type AccessRefusalFact = {
    /**
     * The HTTP status of the refusal (400-599).
     */
    readonly status: number;
    /**
     * A code of x-powercontext-error-codes with that status.
     */
    readonly code: string;
};

/**
 * One case of a resolver. When `when` holds (or without it) `require` applies; with `checks` the resolution ends with them (`non_empty`: they may not come out empty), without them the next case follows.
 */
export type AccessCaseFact = {
    /**
     * Holds when each member is readable as a request value and is one of its values.
     */
    readonly when?: {
        readonly [key: string]: readonly (string | number | boolean | null)[];
    };
    /**
     * What each payload member must be for the request to be valid (else the policy's `invalid` refusal).
     */
    readonly require?: {
        readonly [key: string]: "present" | "object" | "text" | "non_empty_list" | "text_list" | readonly (string | number | boolean | null)[];
    };
    /**
     * The checks the resolution ends with, when the case applies.
     */
    readonly checks?: readonly AccessCheckFact[];
    /**
     * The checks may not come out empty (every `each` list has an item).
     */
    readonly non_empty?: boolean;
};

/**
 * One check the server makes once the Scope is found (`stage: scope`, default) or where its domain module decides (`stage: domain`). With `each`, one per item (`$`), every lookup before any check. `lookup`: the record must exist; `owner`: the caller must own it; `checks`: each must be allowed; `any`: one must be; `grantable`: the role at `role` may be bound on the resource at `resource`; `future`: the time at that path, when given, is later than now; `caller`: the text at that path is the caller's Principal id; `invalid`: the request is refused wherever `when` holds (a value the server's provider cannot take). A refused check is the policy's `denied` (or the entry's own `denied`), a refused role, time or caller, and `invalid`, its `invalid`. At the `domain` stage `$record` is what the domain module hands over (null: nothing found).
 */
export type AccessAfterEntryFact = {
    /**
     * When the entry is checked: once the Scope is found (`scope`, default) or where the domain decides (`domain`).
     */
    readonly stage?: "scope" | "domain";
    /**
     * Holds when each member is readable as a request value and is one of its values.
     */
    readonly when?: {
        readonly [key: string]: readonly (string | number | boolean | null)[];
    };
    /**
     * A list in the payload (`a.b[]`: each item) or a member of each item (`a.b[].c`).
     */
    readonly each?: string;
    /**
     * A record the request names, looked up in the store: the resource (x-powercontext-resources), its id and collection keys. Not there: `refuse` (default) with `not_found` (default: the resource's own), or `skip` this entry. `only`: the entry applies only when the record is not there: its checks first, then the refusal.
     */
    readonly lookup?: AccessLookupFact;
    /**
     * The caller must own the record the lookup found.
     */
    readonly owner?: true;
    /**
     * Checks that must all be allowed.
     */
    readonly checks?: readonly AccessCheckFact[];
    /**
     * Checks of which one must be allowed.
     */
    readonly any?: readonly AccessCheckFact[];
    /**
     * The role a binding grants (payload path) must be grantable on the resource it names (payload path).
     */
    readonly grantable?: {
        /**
         * A dotted path into the access payload (the request as the server's access layer reads it).
         */
        readonly role: string;
        /**
         * A dotted path into the access payload (the request as the server's access layer reads it).
         */
        readonly resource: string;
    };
    /**
     * A dotted path into the access payload (the request as the server's access layer reads it).
     */
    readonly future?: string;
    /**
     * A dotted path into the access payload (the request as the server's access layer reads it).
     */
    readonly caller?: string;
    /**
     * The request is refused as the policy's `invalid` wherever `when` holds: a value the server's provider cannot take (a group subject where it holds none).
     */
    readonly invalid?: true;
    /**
     * A refusal: its status and a code of x-powercontext-error-codes with that status.
     */
    readonly denied?: AccessRefusalFact;
};

/**
 * One check: an action on the server, a Scope or an Artifact. `if`: only when the member is an object; `unless`: only when it is not; `each`: one check per item (`$`), null items left out, the others non-empty strings, each once; `if_any_null`: only when some item (an object) has the member absent or null.
 */
export type AccessCheckFact = {
    /**
     * An action, role, family or resolver name.
     */
    readonly action: string;
    /**
     * The check is on the server itself.
     */
    readonly server?: true;
    /**
     * Where a target's member comes from: a path read as the server reads a request value (absent, null or empty: invalid; a number or boolean as its text), `{ text: path }` (a non-empty string, else invalid), `{ value: constant }`, or `$` and its members inside `each`.
     */
    readonly scope?: AccessRefFact;
    /**
     * An Artifact target: its Scope, family and id, and for the memory family the entry. With `ref`, the object at that path names it: its `family` must be the (constant) family, its `artifact_id` is the id.
     */
    readonly artifact?: AccessArtifactTargetFact;
    /**
     * A payload path, `$` (the current item of `each`), `$.<path>` (a member of it) or `$record.<path>` (a member of the record a lookup found).
     */
    readonly if?: string;
    /**
     * A payload path, `$` (the current item of `each`), `$.<path>` (a member of it) or `$record.<path>` (a member of the record a lookup found).
     */
    readonly unless?: string;
    /**
     * A list in the payload (`a.b[]`: each item) or a member of each item (`a.b[].c`).
     */
    readonly each?: string;
    /**
     * A list in the payload (`a.b[]`: each item) or a member of each item (`a.b[].c`).
     */
    readonly if_any_null?: string;
};

/**
 * A record the request names, looked up in the store: the resource (x-powercontext-resources), its id and collection keys. Not there: `refuse` (default) with `not_found` (default: the resource's own), or `skip` this entry. `only`: the entry applies only when the record is not there: its checks first, then the refusal.
 */
export type AccessLookupFact = {
    /**
     * A resource of x-powercontext-resources.
     */
    readonly resource: string;
    /**
     * Where a target's member comes from: a path read as the server reads a request value (absent, null or empty: invalid; a number or boolean as its text), `{ text: path }` (a non-empty string, else invalid), `{ value: constant }`, or `$` and its members inside `each`.
     */
    readonly id: AccessRefFact;
    /**
     * The record's collection keys, one per `within` member of the resource.
     */
    readonly within: readonly AccessRefFact[];
    /**
     * What happens when the record is not there: `refuse` (default), `skip` the entry, or apply it `only` then.
     */
    readonly missing?: "refuse" | "skip" | "only";
    /**
     * A refusal: its status and a code of x-powercontext-error-codes with that status.
     */
    readonly not_found?: AccessRefusalFact;
};

/**
 * Where a target's member comes from: a path read as the server reads a request value (absent, null or empty: invalid; a number or boolean as its text), `{ text: path }` (a non-empty string, else invalid), `{ value: constant }`, or `$` and its members inside `each`.
 */
export type AccessRefFact = string | {
    readonly value: string;
} | {
    /**
     * A payload path, `$` (the current item of `each`), `$.<path>` (a member of it) or `$record.<path>` (a member of the record a lookup found).
     */
    readonly text: string;
};

/**
 * An Artifact target: its Scope, family and id, and for the memory family the entry. With `ref`, the object at that path names it: its `family` must be the (constant) family, its `artifact_id` is the id.
 */
export type AccessArtifactTargetFact = {
    /**
     * Where a target's member comes from: a path read as the server reads a request value (absent, null or empty: invalid; a number or boolean as its text), `{ text: path }` (a non-empty string, else invalid), `{ value: constant }`, or `$` and its members inside `each`.
     */
    readonly scope: AccessRefFact;
    /**
     * Where a target's member comes from: a path read as the server reads a request value (absent, null or empty: invalid; a number or boolean as its text), `{ text: path }` (a non-empty string, else invalid), `{ value: constant }`, or `$` and its members inside `each`.
     */
    readonly family: AccessRefFact;
    /**
     * Where a target's member comes from: a path read as the server reads a request value (absent, null or empty: invalid; a number or boolean as its text), `{ text: path }` (a non-empty string, else invalid), `{ value: constant }`, or `$` and its members inside `each`.
     */
    readonly id?: AccessRefFact;
    /**
     * Where a target's member comes from: a path read as the server reads a request value (absent, null or empty: invalid; a number or boolean as its text), `{ text: path }` (a non-empty string, else invalid), `{ value: constant }`, or `$` and its members inside `each`.
     */
    readonly entry?: AccessRefFact;
    /**
     * A dotted path into the access payload (the request as the server's access layer reads it).
     */
    readonly ref?: string;
};
