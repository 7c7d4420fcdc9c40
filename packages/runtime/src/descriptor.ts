/**
 * Structural types of the generated operation table and validator map
 * (docs/architecture.md, "Generated modules"). The runtime declares them itself
 * so that it never imports generated code; the generated descriptors are
 * assignable to these shapes.
 */

/** Retry class of an operation, from `x-powercontext-retry-class` (DESIGN §4). */
export type RetryClass = "safe" | "replay" | "guarded" | "never";

/** HTTP method of an operation. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** `x-powercontext-async`: the operation may answer with an accepted status and a Location. */
export interface AsyncDescriptor {
  /** The status of an accepted (still running) answer, for example 202. */
  readonly acceptedStatus: number;
  /** operationId of the read that polls the Operation (`get_operation`). */
  readonly pollOperation: string;
  /** Field of the succeeded Operation that holds the call's result. */
  readonly resultField: string;
}

/** `x-powercontext-reconcile`: how a guarded `409 version_conflict` is reconciled. */
export interface ReconcileDescriptor {
  /** operationId of the read that returns the resource's current state. */
  readonly readOperation: string;
  /** Request field naming the resource, passed on to the read. */
  readonly idParameter: string;
  /** The requested change holds when the read resource's `status` is one of these. */
  readonly holdsWhen: {
    /** Resource statuses in which the change holds, such as `succeeded`. */
    readonly status: readonly string[];
  };
}

/** `x-powercontext-pagination`: cursor paging of a list operation. */
export interface PaginationDescriptor {
  /** Request parameter that carries the cursor. */
  readonly cursorParameter: string;
  /** Response field with the next page's cursor; empty or null on the last page. */
  readonly nextCursorField: string;
  /** Response field holding the page's items. */
  readonly itemsField: string;
}

/** One row of the operation table. */
export interface OperationDescriptor {
  /** Wire operationId, such as `flush_memory`. */
  readonly operationId: string;
  /** camelCase client method name, such as `flushMemory`. */
  readonly methodName: string;
  /** HTTP method. */
  readonly method: HttpMethod;
  /** Path template, such as `/v1/operations/{operation_id}`. */
  readonly path: string;
  /** Where the request's fields go; null when the operation takes none. */
  readonly requestLocation: "body" | "query" | "path" | null;
  /** Wire names of the path parameters. */
  readonly pathParameters: readonly string[];
  /** Wire names of the query parameters. */
  readonly queryParameters: readonly string[];
  /** The one status that is success. */
  readonly successStatus: number;
  /** Error statuses the contract declares. */
  readonly errorStatuses: readonly number[];
  /** True when the operation acts within one scope (`scope_id`). */
  readonly scope: boolean;
  /** `x-powercontext-retry-class`: what may be re-sent, and when. */
  readonly retryClass: RetryClass;
  /** Permission the server requires, such as `scope.write`; null for none. */
  readonly permission: string | null;
  /** The spec's one-line summary. */
  readonly summary: string;
  /** Name of the request body's schema, or null. */
  readonly requestSchema: string | null;
  /** Name of the success body's schema, or null. */
  readonly responseSchema: string | null;
  /** Set when the operation may answer asynchronously. */
  readonly async: AsyncDescriptor | null;
  /** Set for guarded operations whose conflicts can be reconciled. */
  readonly reconcile: ReconcileDescriptor | null;
  /** Set for cursor-paged list operations. */
  readonly pagination: PaginationDescriptor | null;
}

/** One issue reported by a validator (the subset of ajv's `ErrorObject` the SDK reads). */
export interface ValidationIssue {
  /** JSON pointer of the offending value, `""` for the root. */
  readonly instancePath?: string;
  /** What is wrong, in words. */
  readonly message?: string;
  /** The schema keyword that failed, such as `type`. */
  readonly keyword?: string;
}

/**
 * A compiled validator: ajv standalone code has this shape. Response
 * validators are also given the JSON text the value was parsed from; the
 * generated ones use it to refuse a number written with a fraction or
 * exponent (`3.0`, `3e0`) where the schema says `type: integer`, as a strict
 * decoder does. A validator that ignores the text accepts such numbers.
 */
export interface Validator {
  (data: unknown, text?: string): boolean;
  /** Issues of the last call that returned false; null after a success. */
  errors?: readonly ValidationIssue[] | null;
}

/** Validators of one operation: the request, and each declared response status. */
export interface OperationValidators {
  /** Validates the flat request object; absent when the operation takes none. */
  readonly request?: Validator;
  /** Validators of the declared response bodies, by status. */
  readonly responses: { readonly [status: number]: Validator | undefined };
}

/** Validators keyed by operationId (the generated `validator-map.ts`). */
export type ValidatorMap = { readonly [operationId: string]: OperationValidators | undefined };

/** Operation descriptors keyed by operationId (the generated `operations.ts`). */
export type OperationTable = { readonly [operationId: string]: OperationDescriptor | undefined };
