// Generated from codegen/schema/extensions.schema.json by `npm run generate`; do not edit.
// The contract facts as the generator carries them (docs/extensions.md).

/**
 * The operation may answer with an accepted status and a `Location` pointing at an Operation resource; the SDK then polls `poll_operation` until the resource's status is a terminal state, and returns the result member of a succeeded one. The member names polling reads default (in the generator, never in the runtime) to the PowerContext Operation's.
 */
export type AsyncFact = {
    /**
     * The status of an accepted (still running) answer; a declared response of the operation.
     */
    readonly acceptedStatus: number;
    /**
     * operationId of the read that polls the Operation resource.
     */
    readonly pollOperation: string;
    /**
     * The member of a succeeded Operation holding the call's result.
     */
    readonly resultField: string;
    /**
     * The member of the accepted body naming the Operation, read when the answer has no `Location`.
     * Default: `"operation_id"`.
     */
    readonly operationIdField: string;
    /**
     * The member of the Operation holding its state.
     * Default: `"status"`.
     */
    readonly statusField: string;
    /**
     * The member of a failed Operation holding its bounded error.
     * Default: `"error"`.
     */
    readonly errorField: string;
    /**
     * The states that end polling, by outcome.
     */
    readonly terminalStates: {
        /**
         * States of an Operation whose work finished with a result.
         * Default: `["succeeded"]`.
         */
        readonly succeeded: readonly string[];
        /**
         * States of an Operation whose work failed.
         * Default: `["failed"]`.
         */
        readonly failed: readonly string[];
        /**
         * States of an Operation whose work was cancelled.
         * Default: `["cancelled"]`.
         */
        readonly cancelled: readonly string[];
    };
};

/**
 * How a `409` with the conflict code, after a send whose outcome was uncertain, is reconciled (docs/adr/0004-guarded-reconciliation.md): the SDK reads the resource, and the change it asked for holds only when the resource shows exactly that transition, its status in `holds_when.status` and its version the request's expected version + 1. Only for operations of retry class `guarded`.
 */
export type ReconcileFact = {
    /**
     * operationId of the read that returns the resource's current state.
     */
    readonly readOperation: string;
    /**
     * The request member naming the resource, passed on to the read.
     */
    readonly idParameter: string;
    /**
     * When the requested change holds.
     */
    readonly holdsWhen: {
        /**
         * The resource states in which the change holds.
         */
        readonly status: readonly string[];
    };
    /**
     * The member of the read resource holding its version.
     * Default: `"version"`.
     */
    readonly versionField: string;
    /**
     * The request member holding the version it expected.
     * Default: `"expected_version"`.
     */
    readonly expectedVersionField: string;
    /**
     * The member of the read resource compared with `holds_when.status`.
     * Default: `"status"`.
     */
    readonly statusField: string;
    /**
     * The `409` code that starts reconciliation; its registry class extends the runtime's `GuardedConflictError`.
     * Default: `"version_conflict"`.
     */
    readonly conflictCode: string;
};

/**
 * Cursor paging of a list, for `for await` iteration.
 */
export type PaginationFact = {
    /**
     * The request member carrying the cursor.
     */
    readonly cursorParameter: string;
    /**
     * The response member with the next page's cursor; empty or null on the last page.
     */
    readonly nextCursorField: string;
    /**
     * The response member holding the page's items.
     */
    readonly itemsField: string;
};

/**
 * A server older than the operation answers its route with this status and no error code (a 1.4.1 server has no Operation API). The SDK then raises `OperationNotServedError`, a `NotFoundError` whose message ends with `message`; the CLI prints it.
 */
export type NotServedFact = {
    /**
     * The status such a server answers, a declared response of the operation.
     */
    readonly status: 404;
    /**
     * The sentence the SDK's error and the CLI end with.
     */
    readonly message: string;
};

/**
 * One error code of the registry.
 */
export type ErrorCodeFact = {
    /**
     * The status the code arrives with.
     */
    readonly status: number;
    /**
     * False when no wait cures the error: the retry policy then does not send the request again (docs/retry-classes.md, "Transient error codes").
     */
    readonly transient: boolean;
    /**
     * The members of `error.details` a client may read for this code: their names (each typed `unknown`), or a map of name to the JSON schema that types it.
     */
    readonly details: readonly {
        /**
         * The member's name in `error.details`.
         */
        readonly name: string;
        /**
         * The member's schema, or null when the registry lists the name only.
         */
        readonly schema: {
            readonly [key: string]: unknown;
        } | null;
    }[];
    /**
     * The error class generated for the code (docs/adr/0014-generated-contract-errors.md): a PascalCase name ending in `Error`, none of the runtime's own classes, each class for one code.
     */
    readonly className: string | null;
};

/**
 * What a model rule checks: `rule` names the check, the other members are its arguments (each branch below describes its rules; members are read camelCased, `rule` as `kind`). `stage` and `answer` belong to `rule-binding`.
 */
export type RuleCheckFact = {
    readonly kind: "not-null" | "finite-numbers";
    /**
     * Left out: every property of the schema carrying the rule.
     */
    readonly members: readonly string[];
} | {
    readonly kind: "trim";
    readonly members: readonly string[];
    /**
     * Default: `"none"`.
     */
    readonly normalize: "none" | "nfc";
} | {
    readonly kind: "not-blank" | "after-now" | "zip-archive";
    readonly members: readonly string[];
} | {
    readonly kind: "no-outer-whitespace";
    readonly members: readonly string[];
    /**
     * Default: `"both"`.
     */
    readonly side: "both" | "end";
} | {
    readonly kind: "unique-items";
    readonly members: readonly string[];
    readonly by: readonly string[] | null;
    /**
     * Default: `"exact"`.
     */
    readonly compare: "exact" | "nfc-casefold";
} | {
    readonly kind: "relative-path";
    readonly members: readonly string[];
    readonly allowEmpty: boolean;
} | {
    readonly kind: "before";
    readonly from: string;
    readonly to: string;
} | {
    readonly kind: "span";
    readonly from: string;
    readonly to: string;
    /**
     * Default: `0`.
     */
    readonly min: number;
    readonly max: number;
} | {
    readonly kind: "required-when" | "forbidden-unless";
    readonly member: string;
    /**
     * Holds when the value at `path` (defaults applied; a missing step reads as null) is one of `in`, or none of `not-in` (exactly one of them is written).
     */
    readonly when: RuleConditionFact;
} | {
    readonly kind: "items-when";
    readonly member: string;
    /**
     * Holds when the value at `path` (defaults applied; a missing step reads as null) is one of `in`, or none of `not-in` (exactly one of them is written).
     */
    readonly when: RuleConditionFact;
    readonly min: number | null;
    readonly max: number | null;
} | {
    readonly kind: "constrain-when";
    /**
     * Holds when the value at `path` (defaults applied; a missing step reads as null) is one of `in`, or none of `not-in` (exactly one of them is written).
     */
    readonly when: RuleConditionFact;
    /**
     * Member names from the schema down; "[]" steps into every item of a list.
     */
    readonly path: readonly string[];
    readonly in: readonly (string | number | boolean | null)[] | null;
    readonly notIn: readonly (string | number | boolean | null)[] | null;
    readonly min: number | null;
    readonly pattern: string | null;
    readonly max: number | null;
} | {
    readonly kind: "one-of" | "none-of";
    /**
     * Member names from the schema down; "[]" steps into every item of a list.
     */
    readonly path: readonly string[];
    readonly in: readonly (string | number | boolean | null)[];
} | {
    readonly kind: "different";
    readonly paths: readonly (readonly string[])[];
} | {
    readonly kind: "same";
    readonly paths: readonly (readonly string[])[];
} | {
    readonly kind: "digest";
    readonly member: string;
    readonly of: readonly string[];
} | {
    readonly kind: "member-of";
    /**
     * Member names from the schema down; "[]" steps into every item of a list.
     */
    readonly path: readonly string[];
    /**
     * Member names from the schema down; "[]" steps into every item of a list.
     */
    readonly list: readonly string[];
} | {
    readonly kind: "max-sum";
    /**
     * Member names from the schema down; "[]" steps into every item of a list.
     */
    readonly path: readonly string[];
    readonly max: number;
} | {
    readonly kind: "max-bytes";
    readonly members: readonly string[];
    readonly max: number;
    /**
     * Default: `"none"`.
     */
    readonly normalize: "none" | "nfc-strip";
} | {
    readonly kind: "max-items-together";
    readonly members: readonly string[];
    readonly max: number;
} | {
    readonly kind: "excluded-categories";
    readonly members: readonly string[];
    readonly categories: readonly ("Cc" | "Cf" | "Cs" | "Co" | "Cn")[];
} | {
    readonly kind: "sort-items";
    readonly members: readonly string[];
    /**
     * Default: `"nfc-casefold"`.
     */
    readonly compare: "nfc-casefold";
} | {
    readonly kind: "null-as-absent";
    readonly members: readonly string[];
} | {
    readonly kind: "exclusive";
    readonly members: readonly string[];
};

/**
 * Never written in a spec: one step of the path from a request's root to a schema carrying model rules, as the generator finds it. A member name, `[]` for every item of a list, or a guard on the object reached: a member holding one of some values (`if`, `in`: the branches of a `oneOf` told apart by a member), or members all present (`has`: the required members of a branch nothing else tells apart).
 */
export type RuleStepFact = string | {
    readonly if: string;
    readonly in: readonly (string | number | boolean | null)[];
} | {
    readonly has: readonly string[];
};

/**
 * Holds when the value at `path` (defaults applied; a missing step reads as null) is one of `in`, or none of `not-in` (exactly one of them is written).
 */
export type RuleConditionFact = {
    /**
     * Member names from the schema down; "[]" steps into every item of a list.
     */
    readonly path: readonly string[];
    readonly in: readonly (string | number | boolean | null)[] | null;
    readonly notIn: readonly (string | number | boolean | null)[] | null;
};
