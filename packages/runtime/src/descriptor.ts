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

/** The wire names of an operation resource that polling reads (from `x-powercontext-async`). */
export interface OperationResourceFields {
  /** Member of the accepted body naming the operation, when the response has no Location. */
  readonly operationIdField: string;
  /** Member holding the operation's state. */
  readonly statusField: string;
  /** Member holding a failed operation's bounded error (`{ category, code }`). */
  readonly errorField: string;
  /** Terminal states by outcome. */
  readonly terminalStates: { readonly succeeded: readonly string[]; readonly failed: readonly string[]; readonly cancelled: readonly string[] };
}

/** `x-powercontext-async`: the operation may answer with an accepted status and a Location. */
export interface AsyncDescriptor extends Partial<OperationResourceFields> {
  readonly acceptedStatus: number;
  readonly pollOperation: string;
  readonly resultField: string;
}

/** `x-powercontext-reconcile`: how a guarded conflict is reconciled, with the wire names it reads. */
export interface ReconcileDescriptor {
  readonly readOperation: string;
  readonly idParameter: string;
  readonly holdsWhen: { readonly status: readonly string[] };
  /** Member of the read resource holding its version. */
  readonly versionField?: string;
  /** Member of the request holding the version it expected. */
  readonly expectedVersionField?: string;
  /** Member of the read resource compared with `holdsWhen.status`. */
  readonly statusField?: string;
}

/** `x-powercontext-pagination`: cursor paging of a list operation. */
export interface PaginationDescriptor {
  readonly cursorParameter: string;
  readonly nextCursorField: string;
  readonly itemsField: string;
}

/** How a body is read: JSON, text (`text/*`), bytes, or no content. */
export type MediaKind = "json" | "text" | "binary" | "none";

/** OpenAPI `style` and `explode` of a parameter. */
export interface ParameterStyle {
  readonly style: "form" | "simple" | "spaceDelimited" | "pipeDelimited" | "deepObject" | "label" | "matrix";
  readonly explode: boolean;
}

/**
 * One row of the operation table. The members marked optional are always
 * written by the generator; a hand-written row may leave them out and gets the
 * defaults named on each.
 */
export interface OperationDescriptor {
  readonly operationId: string;
  readonly methodName: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly requestLocation: "body" | "query" | "path" | null;
  readonly pathParameters: readonly string[];
  readonly queryParameters: readonly string[];
  /** Header parameters by wire name (sent as request headers). Default none. */
  readonly headerParameters?: readonly string[];
  /** Cookie parameters by wire name (sent in one `Cookie` header). Default none. */
  readonly cookieParameters?: readonly string[];
  /** Parameters whose style differs from their location's default (`form` + explode for query and cookie, `simple` for headers). */
  readonly parameterStyles?: { readonly [name: string]: ParameterStyle };
  /** The primary success status: the lowest declared 2xx besides the accepted one. */
  readonly successStatus: number;
  /** Every declared 2xx, the accepted status included. Default `[successStatus]` plus the accepted status. */
  readonly successStatuses?: readonly number[];
  /** The declared 304, or null (default): a 304 is then an error like any undeclared status. */
  readonly notModifiedStatus?: number | null;
  /** Body kind per declared status; a status not listed is read as JSON. */
  readonly responseKinds?: { readonly [status: number]: MediaKind };
  /** The `Accept` header. Default `application/json`. */
  readonly accept?: string;
  /** The call resolves to `{ status, body, headers }` rather than the body (several outcomes declared). Default false. */
  readonly keyedResult?: boolean;
  /** The response header carrying the server's request id (declared once in the spec). Without it, `requestId` is null. */
  readonly requestIdHeader?: string;
  readonly errorStatuses: readonly number[];
  readonly scope: boolean;
  readonly retryClass: RetryClass;
  readonly permission: string | null;
  readonly summary: string;
  readonly requestSchema: string | null;
  readonly responseSchema: string | null;
  readonly async: AsyncDescriptor | null;
  readonly reconcile: ReconcileDescriptor | null;
  readonly pagination: PaginationDescriptor | null;
}

/** One issue reported by a validator (the subset of ajv's `ErrorObject` the SDK reads). */
export interface ValidationIssue {
  readonly instancePath?: string;
  readonly message?: string;
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
  errors?: readonly ValidationIssue[] | null;
}

/** Validators of one operation: the request, and each declared response status. */
export interface OperationValidators {
  readonly request?: Validator;
  readonly responses: { readonly [status: number]: Validator | undefined };
}

/** Validators keyed by operationId (the generated `validator-map.ts`). */
export type ValidatorMap = { readonly [operationId: string]: OperationValidators | undefined };

/** Operation descriptors keyed by operationId (the generated `operations.ts`). */
export type OperationTable = { readonly [operationId: string]: OperationDescriptor | undefined };
