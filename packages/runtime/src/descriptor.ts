/**
 * Structural types of the generated operation table and validator map
 * (docs/architecture.md, "Generated modules"). The runtime declares them itself
 * so that it never imports code generated from a spec; the generated descriptors
 * are assignable to these shapes. The contract facts among them (asynchronous
 * answers, reconciliation, paging, servers without an operation, error codes) take
 * their types from `generated/facts.ts`, which the generator writes from its
 * extension schema (docs/extensions.md), the one description of those facts.
 */

import type { AsyncFact, ErrorCodeFact, NotServedFact, PaginationFact, ReconcileFact } from "./generated/facts.js";

// The contract facts the descriptors carry, typed once from the generator's extension schema (docs/extensions.md).
export type { AsyncFact, ErrorCodeFact, NotServedFact, PaginationFact, ReconcileFact } from "./generated/facts.js";

/** Retry class of an operation, from `x-powercontext-retry-class` (runtime README, "Retries"). */
export type RetryClass = "safe" | "replay" | "guarded" | "never";

/** HTTP method of an operation. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** The wire names of an operation resource that polling reads (from `x-powercontext-async`). */
export type OperationResourceFields = Pick<
  AsyncFact,
  "operationIdField" | "statusField" | "errorField" | "terminalStates"
>;

/**
 * `x-powercontext-async`: the operation may answer with an accepted status and a
 * Location. The generator writes every member; a hand-written row may leave out
 * the wire names of {@link OperationResourceFields}, which then default to the
 * PowerContext Operation's.
 */
export type AsyncDescriptor = Pick<AsyncFact, "acceptedStatus" | "pollOperation" | "resultField"> &
  Partial<OperationResourceFields>;

/**
 * `x-powercontext-reconcile`: how a guarded conflict is reconciled, with the wire
 * names it reads. A hand-written row may leave out the wire names; without
 * `conflictCode`, any error of the generated conflict class starts reconciliation.
 */
export type ReconcileDescriptor = Pick<ReconcileFact, "readOperation" | "idParameter" | "holdsWhen"> &
  Partial<Pick<ReconcileFact, "versionField" | "expectedVersionField" | "statusField" | "conflictCode">>;

/** `x-powercontext-pagination`: cursor paging of a list operation. */
export type PaginationDescriptor = PaginationFact;

/** How a body is read: JSON, text (`text/*`), bytes, or no content. */
export type MediaKind = "json" | "text" | "binary" | "none";

/**
 * The media types one status declares (as the spec writes them: `text/markdown`,
 * or a range such as `text/*`), each with how a body of that type is read;
 * empty for a status declared without content.
 */
export type DeclaredMedia = { readonly [mediaType: string]: Exclude<MediaKind, "none"> };

/** OpenAPI `style` and `explode` of a parameter. */
export interface ParameterStyle {
  /** The OpenAPI `style` of the parameter. */
  readonly style: "form" | "simple" | "spaceDelimited" | "pipeDelimited" | "deepObject" | "label" | "matrix";
  /** The OpenAPI `explode` of the parameter. */
  readonly explode: boolean;
}

/** How a server that predates an operation answers it (`x-powercontext-not-served`). */
export type NotServed = NotServedFact;

/** What the retry policy knows about one error code (a row of `x-powercontext-error-codes`). */
export type ErrorCodeInfo = Pick<ErrorCodeFact, "status" | "transient">;

/**
 * Error codes by the envelope's `error.code`. The generator writes one table
 * for the whole spec and every descriptor points at it, so a bundle carries it
 * once whatever the number of operations it calls.
 */
export type ErrorCodeTable = { readonly [code: string]: ErrorCodeInfo | undefined };

/**
 * One row of the operation table: what the runtime needs to call the
 * operation, and nothing else (an app's bundle carries the rows it uses).
 * Descriptive facts are elsewhere: schema names and permissions in
 * `operations.json` of `@powercontext/types`, summaries in the TSDoc of the
 * generated methods and types. The generator writes each row without the
 * members equal to their defaults (`OperationRow`) and adds them back when the
 * module loads, so a generated descriptor has every required member; a
 * hand-written row may leave out the members marked optional and gets the
 * defaults named on each.
 */
export interface OperationDescriptor {
  /** Wire operationId, such as `flush_memory`. */
  readonly operationId: string;
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
  /** Header parameters by wire name (sent as request headers). Default none. */
  readonly headerParameters?: readonly string[];
  /** Cookie parameters by wire name (sent in one `Cookie` header). Default none. */
  readonly cookieParameters?: readonly string[];
  /** Parameters whose style differs from their location's default (`form` + explode for query and cookie, `simple` for headers). */
  readonly parameterStyles?: { readonly [name: string]: ParameterStyle };
  /**
   * Writes the parameters listed above: the runtime's `writeParameters`, which
   * the generator sets on every row that lists a parameter and on no other, so
   * that an app calling only operations without parameters bundles no parameter
   * serialization (docs/adr/0022-parameter-writer-per-descriptor.md). Required
   * when the row lists a parameter (a request is refused otherwise); default none.
   */
  readonly writeParameters?: ParameterWriter;
  /** The primary success status: the lowest declared 2xx besides the accepted one. */
  readonly successStatus: number;
  /** Every declared 2xx, the accepted status included. Default `[successStatus]` plus the accepted status. */
  readonly successStatuses?: readonly number[];
  /** The declared 304, or null (default): a 304 is then an error like any undeclared status. */
  readonly notModifiedStatus?: number | null;
  /**
   * The media types each outcome status declares, with how each is read. An
   * answer is read by the declared type its `Content-Type` names; one of a
   * type its status does not declare is an `InvalidResponseError`. A status
   * not listed declares `application/json` alone (default), so the generator
   * lists only statuses that differ (text, binary, several types, no content).
   */
  readonly responseMedia?: { readonly [status: number]: DeclaredMedia };
  /**
   * Reads an answer of a status listed in `responseMedia`: the runtime's
   * `readResponseMedia`, which the generator sets on every row with
   * `responseMedia` and on no other, so that an app calling only operations that
   * answer JSON bundles no media matching or charset decoding
   * (docs/adr/0034-media-reader-per-descriptor.md). Required when the row has
   * `responseMedia` (a request is refused otherwise); default none.
   */
  readonly readMedia?: MediaReader;
  /** The `Accept` header. Default `application/json`. */
  readonly accept?: string;
  /** The call resolves to `{ status, body, headers }` rather than the body (several outcomes declared). Default false. */
  readonly keyedResult?: boolean;
  /**
   * Set when servers that predate the operation answer it with `status` (404)
   * and no error code (`x-powercontext-not-served`): such an answer becomes an
   * `OperationNotServedError` whose message ends with `message`. Default none.
   */
  readonly notServed?: NotServed | null;
  /** The response header carrying the server's request id (declared once in the spec). Without it, `requestId` is null. */
  readonly requestIdHeader?: string;
  /** Error statuses the contract declares. */
  readonly errorStatuses: readonly number[];
  /**
   * Error codes that stop a retry (the generated `retryStopCodes`, one table shared
   * by every descriptor): a retryable status whose code this table marks
   * non-transient is not re-sent. Default none: every retryable status is re-sent
   * whatever its code.
   */
  readonly errorCodes?: ErrorCodeTable;
  /** `x-powercontext-retry-class`: what may be re-sent, and when. */
  readonly retryClass: RetryClass;
  /** Set when the operation may answer asynchronously. */
  readonly async: AsyncDescriptor | null;
  /** Set for guarded operations whose conflicts can be reconciled. */
  readonly reconcile: ReconcileDescriptor | null;
  /** Set for cursor-paged list operations. */
  readonly pagination: PaginationDescriptor | null;
}

/** What a {@link MediaReader} read: JSON text, still to parse and validate, or the outcome's value itself. */
export type MediaBody =
  | {
      /** The body, decoded as UTF-8, of an answer read as JSON. */
      readonly json: string;
    }
  | {
      /** A string for text (decoded in its charset), a Uint8Array for binary, undefined for no content. */
      readonly value: unknown;
    };

/**
 * The answer a {@link MediaReader} reads: what it needs of the transport port's
 * `TransportResponse` (its headers, its body chunk by chunk, releasing it unread).
 */
export interface BodySource {
  /** The header fields. */
  readonly headers: {
    /** The value of header `name` (lower case), or null when absent. */
    get(name: string): string | null;
  };
  /** The next chunk of the body, decoded from its `content-encoding`, or null at its end. */
  read(): Promise<Uint8Array | null>;
  /** Stops reading and releases the connection; harmless after the end or a failure. */
  cancel(): void;
}

/** What a {@link MediaReader} is given besides the answer. */
export interface MediaReading {
  /** The status and request id, for the errors it throws. */
  readonly context: {
    /** The answer's HTTP status. */
    readonly statusCode: number;
    /** The answer's request id header, or null. */
    readonly requestId: string | null;
  };
  /** The body cap in bytes (the client's `maxResponseBytes`). */
  readonly maxBytes: number;
  /** Removes the secrets from a text of the answer before an error quotes it. */
  readonly clean: (text: string) => string;
}

/**
 * Reads the body of an outcome status by the media types it declares
 * (`declared`, from the row's `responseMedia`) and the answer's `Content-Type`.
 * Rejects with an `InvalidResponseError` for a type the status does not declare,
 * and for a body over the cap or not valid in its charset; any other rejection is
 * taken for a failure of the transport while reading (a `TransportError`, which
 * the retry policy may re-send), as `BodySource.read` rejects. Resolving to
 * anything but an object is the answer's `InvalidResponseError`, never re-sent.
 */
export type MediaReader = (response: BodySource, declared: DeclaredMedia, reading: MediaReading) => Promise<MediaBody>;

/** The parameters of one request as {@link ParameterWriter} writes them. */
export interface WrittenParameters {
  /** The path with its parameters filled in, without the query string. */
  readonly path: string;
  /** Encoded `name=value` pairs of the query string, in order. */
  readonly query: readonly string[];
  /** Header fields from header parameters: lower-cased name and value. */
  readonly headers: readonly (readonly [name: string, value: string])[];
  /** The `Cookie` header from cookie parameters, or null when none is sent. */
  readonly cookie: string | null;
}

/**
 * Takes a descriptor's parameters out of the flat request object `fields`
 * (deleting each one it reads) and writes them; what is left is the body.
 */
export type ParameterWriter = (descriptor: OperationDescriptor, fields: Record<string, unknown>) => WrittenParameters;

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
