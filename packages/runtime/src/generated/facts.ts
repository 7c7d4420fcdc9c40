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
