import type { LintProfile, RetryClass } from "../load/lint.js";
import type { RefLookup } from "../load/resolve-refs.js";
import type { Json } from "../load/walk-operations.js";

/** HTTP methods the client supports (upper case, as on the wire). */
export type IrMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A path or query parameter. */
export interface ParameterIr {
  readonly name: string;
  readonly in: "path" | "query";
  readonly required: boolean;
  /** The parameter's schema as written (may be a `$ref`). */
  readonly schema: Json;
  readonly description: string | null;
}

/** A JSON request body. */
export interface RequestBodyIr {
  /** Component name when the body schema is `#/components/schemas/<name>`. */
  readonly schemaName: string | null;
  readonly schema: Json;
  readonly required: boolean;
  /** Top-level property names of the body (through `$ref` and `allOf`). */
  readonly propertyNames: readonly string[];
}

/** One declared response. */
export interface ResponseIr {
  readonly status: number;
  readonly description: string;
  /** The JSON body schema, or null for a response without content. */
  readonly schema: Json | null;
  readonly schemaName: string | null;
}

/** `x-powercontext-async`, camel-cased. */
export interface AsyncIr {
  readonly acceptedStatus: number;
  readonly pollOperation: string;
  readonly resultField: string;
}

/** `x-powercontext-reconcile`, camel-cased. */
export interface ReconcileIr {
  readonly readOperation: string;
  readonly idParameter: string;
  readonly holdsWhen: { readonly status: readonly string[] };
}

/** `x-powercontext-pagination`, camel-cased. */
export interface PaginationIr {
  readonly cursorParameter: string;
  readonly nextCursorField: string;
  readonly itemsField: string;
}

/** Everything an emitter needs to know about one operation. */
export interface OperationIr {
  readonly operationId: string;
  /** camelCase client method, e.g. `flushMemory`. */
  readonly methodName: string;
  /** PascalCase of the operationId, e.g. `FlushMemory`. */
  readonly typeName: string;
  readonly method: IrMethod;
  readonly path: string;
  readonly summary: string;
  readonly description: string;
  readonly deprecated: boolean;
  /** JSON pointer of the operation object. */
  readonly pointer: string;
  readonly pathParameters: readonly ParameterIr[];
  readonly queryParameters: readonly ParameterIr[];
  readonly requestBody: RequestBodyIr | null;
  /** Where the request goes, in the upstream Python SDK's terms. */
  readonly requestLocation: "body" | "query" | "path" | null;
  /** Upstream request type name: the body's component name, else `<TypeName>Request`; null without a request. */
  readonly requestTypeName: string | null;
  /** True when some parameter or the body is required (the method's request argument is then required). */
  readonly requestRequired: boolean;
  /** Every declared response, by ascending status. */
  readonly responses: readonly ResponseIr[];
  readonly success: ResponseIr;
  readonly accepted: ResponseIr | null;
  /** 4xx and 5xx statuses, ascending. */
  readonly errorStatuses: readonly number[];
  readonly retryClass: RetryClass;
  /** True when the retry class came from the lint profile's default, not the spec. */
  readonly retryClassDefaulted: boolean;
  readonly permission: string | null;
  /** The request carries `scope_id` (body property or parameter). */
  readonly scope: boolean;
  readonly async: AsyncIr | null;
  readonly reconcile: ReconcileIr | null;
  readonly pagination: PaginationIr | null;
}

/** A component schema. */
export interface SchemaIr {
  readonly name: string;
  readonly schema: Json;
}

/** The intermediate representation: the only input of the emitters. */
export interface ApiIr {
  /** The spec's file name, the SHA-256 of its bytes, and the lint profile it was read with. */
  readonly source: { readonly fileName: string; readonly sha256: string; readonly lint: LintProfile };
  readonly generator: { readonly name: string; readonly version: string };
  readonly title: string;
  readonly apiVersion: string;
  /** The document as read (references kept), for openapi-typescript. */
  readonly document: Json;
  readonly lookup: RefLookup;
  /** Sorted by operationId. */
  readonly operations: readonly OperationIr[];
  /** Sorted by name. */
  readonly schemas: readonly SchemaIr[];
  /** Some schema uses readOnly or writeOnly: types carry read/write markers. */
  readonly readWriteMarkers: boolean;
}
