import type { Json, LintProfile, MediaKind, RefLookup, RetryClass } from "../domain/types.js";
import type { OutputNames } from "./names.js";
import type {
  AnchorRecordsFact,
  AsyncFact,
  ErrorCodeFact,
  ErrorCodesFact,
  MediaFromFact,
  ModelRuleFact,
  NotServedFact,
  PaginationFact,
  ReconcileFact,
  RefusalDetailsFact,
  RefusalFact,
  RefusalRuleFact,
  ResourcesFact,
  ResourceUseFact,
  RouterFact,
  RuleBindingFact,
  RuleCheckFact,
  RuleConditionFact,
  RuleIssuesFact,
  RuleStepFact,
  UnknownRecordFact,
} from "../facts/generated/fact-types.js";

/** HTTP methods the client supports (upper case, as on the wire). */
export type IrMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Where a parameter travels (OpenAPI `in`). */
export type ParameterLocation = "path" | "query" | "header" | "cookie";

/** How a parameter value is serialised (OpenAPI `style`), defaults filled in per location. */
export type ParameterStyle = "simple" | "label" | "matrix" | "form" | "spaceDelimited" | "pipeDelimited" | "deepObject";

/** A path, query, header or cookie parameter. */
export interface ParameterIr {
  readonly name: string;
  readonly in: ParameterLocation;
  /** Always true for path parameters. */
  readonly required: boolean;
  /** The parameter's schema as written (may be a `$ref`). */
  readonly schema: Json;
  readonly description: string | null;
  /** The declared style, or the location's default (`form` for query and cookie, `simple` for path and header). */
  readonly style: ParameterStyle;
  /** The declared explode, or the style's default (true for `form`, false otherwise). */
  readonly explode: boolean;
  /** JSON pointer of the parameter object. */
  readonly pointer: string;
}

/** One entry of `x-powercontext-query-model`: a query parameter whose value (or, with `items`, each item) the request model checks. */
export interface QueryModelIr {
  readonly name: string;
  readonly items: boolean;
}

/** An operation's parameters grouped by location, each group in declaration order. */
export interface ParametersIr {
  readonly path: readonly ParameterIr[];
  readonly query: readonly ParameterIr[];
  readonly header: readonly ParameterIr[];
  readonly cookie: readonly ParameterIr[];
}

/** How a body is read or written (`domain/types.ts`). */
export type { MediaKind } from "../domain/types.js";

/** One media type of a request or response body. */
export interface MediaIr {
  readonly mediaType: string;
  readonly kind: Exclude<MediaKind, "none">;
  /** The schema as written, or null when the media type declares none. */
  readonly schema: Json | null;
}

/** A response header the spec declares. */
export interface HeaderIr {
  /** As written in the spec (HTTP header names are case-insensitive). */
  readonly name: string;
  readonly required: boolean;
  readonly schema: Json | null;
}

/** Security requirements, as in OpenAPI: alternatives (any one suffices) of scheme name -> scopes. */
export type SecurityIr = readonly { readonly [scheme: string]: readonly string[] }[];

/** `x-powercontext-access` of an operation (the release's access rule). */
export type AccessIr =
  | { readonly kind: "action"; readonly action: string; readonly resource: string; readonly scopeIdFrom: string | null }
  | { readonly kind: "resolver"; readonly resolver: string };

/** A JSON request body. */
export interface RequestBodyIr {
  /** Component name when the body schema is `#/components/schemas/<name>`. */
  readonly schemaName: string | null;
  readonly schema: Json;
  readonly required: boolean;
  /** The request media type (JSON). */
  readonly mediaType: string;
  /** Top-level property names of the body (through `$ref` and `allOf`). */
  readonly propertyNames: readonly string[];
  /** What each optional member is when left out, by member path (`outer.inner` inside a nested object): its `default`, or null when nullable (`request-defaults.ts`). */
  readonly defaults: Readonly<Record<string, unknown>>;
}

/** One declared response. */
export interface ResponseIr {
  readonly status: number;
  readonly description: string;
  /** The JSON body schema, or null when the response has no JSON content. */
  readonly schema: Json | null;
  /** Component name of {@link schema} when it is a `$ref` to one. */
  readonly schemaName: string | null;
  /** The kind of the preferred media type (JSON first, then text, then binary), `none` without content. */
  readonly kind: MediaKind;
  /** The preferred media type, or null without content. */
  readonly mediaType: string | null;
  /** Every declared media type, in declaration order. */
  readonly media: readonly MediaIr[];
  /** Declared response headers. */
  readonly headers: readonly HeaderIr[];
  /** `x-powercontext-error-envelope: false` on this response. */
  readonly envelopeWaived: boolean;
  /** JSON pointer of the response object (inside the operation). */
  readonly pointer: string;
}

/** `x-powercontext-async` (docs/extensions.md, `async`). */
export type AsyncIr = AsyncFact;

/** One member of an error code's `details`: its name and its schema, or null when the registry lists the name only. */
export type ErrorDetailIr = ErrorCodeFact["details"][number];

/** One row of the document's `x-powercontext-error-codes` registry, with its JSON pointer. */
export type ErrorCodeIr = ErrorCodesFact[number] & {
  /** JSON pointer of the registry row. */
  readonly pointer: string;
};

/** The codes an operation declares for one error status (`x-powercontext-errors`). */
export interface OperationErrorCodesIr {
  readonly status: number;
  readonly codes: readonly string[];
}

/** `x-powercontext-reconcile` (docs/extensions.md, `reconcile`). */
export type ReconcileIr = ReconcileFact;

/** `x-powercontext-pagination` (docs/extensions.md, `pagination`). */
export type PaginationIr = PaginationFact;

/** `x-powercontext-not-served`: how a server without this operation answers it, and what the SDK says then. */
export type NotServedIr = NotServedFact;

/** A JSON scalar. */
export type JsonScalar = string | number | boolean | null;

/** One row of `x-powercontext-refusals` (docs/extensions.md, `refusal-rule`). */
export type RefusalRuleIr = RefusalRuleFact;

/** A record a request names, for the `unknown` condition of a refusal. */
export type UnknownRecordIr = UnknownRecordFact;

/** `x-powercontext-media-from`: the request member whose value chooses the success media type. */
export type MediaFromIr = MediaFromFact;

/**
 * One member of `x-powercontext-answer`: its path in the success body (`a.b`) and
 * its value, read from the contract; or, with `instance`, the kind of id the
 * server draws once; or, with `omit`, a member left out (`value` null for both).
 */
export interface AnswerMemberIr {
  readonly member: string;
  readonly value: unknown;
  readonly instance: "uuid" | null;
  /** The member is left out; kept when the request carries `unlessHeader`'s header with its value. */
  readonly omit: { readonly unlessHeader: { readonly name: string; readonly value: string } | null } | null;
}

/** `x-powercontext-router`: how the server routes a request before any operation runs. */
export type RouterIr = RouterFact;

/**
 * The access facts of a document, as validated data: the policy and the resolvers as
 * written (snake_case members, the language of `codegen/schema/extensions.schema.json`, `access-*`),
 * and the operations' after-access checks and owner rules by operationId. The simulator
 * reads them as they are; nothing here is renamed.
 */
export interface AccessFactsIr {
  readonly policy: Json;
  readonly resolvers: Json;
  /** `x-powercontext-access-after` by operationId (operations without it left out). */
  readonly after: Readonly<Record<string, readonly Json[]>>;
  /** `x-powercontext-access-owner` by operationId. */
  readonly owners: Readonly<Record<string, Json>>;
}

/** A refusal the contract names: the status and the envelope's `error.code`. */
export type RefusalIr = RefusalFact;

/** Where one member of `error.details` takes its value from (`expected`/`provided`: the request's; `current`: the stored record's). */
export type RefusalDetailIr = RefusalDetailsFact[number];

/** One row of the document's `x-powercontext-resources` registry (docs/extensions.md, `resource`), with its name and JSON pointer. */
export type ResourceIr = ResourcesFact[number] & {
  /** JSON pointer of the registry row. */
  readonly pointer: string;
};

/** What an operation does to a resource of the registry (`x-powercontext-resource`). */
export type ResourceAction = ResourceUseFact["action"];

/** `x-powercontext-resource` of an operation (docs/extensions.md, `resource-use`). */
export type OperationResourceIr = ResourceUseFact;

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
  /** The operation object as written (references kept), for facts the IR does not model (the Python layer's). */
  readonly operationObject: Json;
  readonly pathParameters: readonly ParameterIr[];
  readonly queryParameters: readonly ParameterIr[];
  /** Every parameter by location (path and query also appear above). */
  readonly parameters: ParametersIr;
  readonly requestBody: RequestBodyIr | null;
  /** Where the request goes, in the upstream Python SDK's terms. */
  readonly requestLocation: "body" | "query" | "path" | null;
  /** Upstream request type name: the body's component name, else `<TypeName>Request`; null without a request. */
  readonly requestTypeName: string | null;
  /** True when some parameter or the body is required (the method's request argument is then required). */
  readonly requestRequired: boolean;
  /** Every declared response, by ascending status. */
  readonly responses: readonly ResponseIr[];
  /** The primary success response: the lowest 2xx other than the accepted status. */
  readonly success: ResponseIr;
  /** Every declared 2xx other than the accepted status, ascending (at least one). */
  readonly successResponses: readonly ResponseIr[];
  /** Every declared 2xx status, the accepted one included, ascending. */
  readonly successStatuses: readonly number[];
  /** A declared 304: an outcome of conditional requests, never an error. */
  readonly notModified: ResponseIr | null;
  readonly accepted: ResponseIr | null;
  /** 4xx and 5xx statuses, ascending. */
  readonly errorStatuses: readonly number[];
  /** `x-powercontext-errors`: the codes the operation declares per error status, by ascending status. */
  readonly errorCodes: readonly OperationErrorCodesIr[];
  readonly retryClass: RetryClass;
  /** True when the retry class came from the lint profile's default, not the spec. */
  readonly retryClassDefaulted: boolean;
  /** The permission the server checks: `action` of `x-powercontext-access` (else `x-powercontext-permission`), or null. */
  readonly permission: string | null;
  /** How the server decides access, from `x-powercontext-access`: the permission and what it is checked on, or the named resolver; null without the extension. */
  readonly access: AccessIr | null;
  /** The request carries the member naming the Scope (`x-powercontext-scope-field`, default `scope_id`), as a body property or parameter. */
  readonly scope: boolean;
  readonly async: AsyncIr | null;
  readonly reconcile: ReconcileIr | null;
  readonly pagination: PaginationIr | null;
  /** Set when servers that predate the operation answer it with a bare status (`x-powercontext-not-served`). */
  readonly notServed: NotServedIr | null;
  /** `x-powercontext-refusals`: refusals the server answers under conditions, in order; empty without. */
  readonly refusals: readonly RefusalRuleIr[];
  /** `x-powercontext-media-from`: which request member chooses the success media type, or null. */
  readonly mediaFrom: MediaFromIr | null;
  /** `x-powercontext-answer`: the success answer's members that are facts of the contract, with their values; empty without. */
  readonly answer: readonly AnswerMemberIr[];
  /** `x-powercontext-exclude-unset`: the success answer leaves out the optional members the server did not set (false without). */
  readonly excludeUnset: boolean;
  /** `x-powercontext-query-model`: the query parameters (or their items) the operation's request model checks; empty without. */
  readonly queryModel: readonly QueryModelIr[];
  /** The stored resource the operation creates, reads, lists, changes or removes (`x-powercontext-resource`), or null. */
  readonly resource: OperationResourceIr | null;
  /**
   * The anchor resource's records the request names, which must exist before the
   * operation runs: request member paths (`[]` after a list member), from
   * `x-powercontext-anchor`, else the access rule's `scope-id-from` when its
   * resource type is the anchor, else the anchor's id member at the top; null when
   * the document has no anchor, the request names none, or the operation says
   * `x-powercontext-anchor: false`.
   */
  readonly anchor: AnchorRecordsFact | null;
  /** Where the component schemas with model rules sit in the flat request object, in walk order; empty for most operations. */
  readonly ruleSites: readonly RuleSiteIr[];
  /** `x-powercontext-rule-answer`: how runtime-rule issues answer (default `standalone`). */
  readonly ruleIssues: RuleIssuesIr;
  /** `x-powercontext-rule-answer`'s `after: access`: the runtime rules are checked once the checks after access have passed. */
  readonly rulesAfterAccess: boolean;
  /**
   * `x-powercontext-rule-answer`'s `first`: the member choosing the body branches whose
   * runtime rules the handler checks before any lookup, each issue at its rule's own
   * `loc`, and its values; null for none.
   */
  readonly rulesFirst: { readonly member: string; readonly in: readonly string[] } | null;
  /**
   * `x-powercontext-rule-answer`'s `branches`: the parameter whose value chooses the body's
   * `oneOf` branch, and that value per branch schema name; null when the branches tell
   * themselves apart.
   */
  readonly ruleBranches: {
    readonly parameter: string;
    readonly schemas: Readonly<Record<string, string>>;
    /** The answer, by the parameter's value, when that branch's model refuses the body; empty for the rule answer. */
    readonly refusals: Readonly<Record<string, { readonly status: number; readonly code: string }>>;
  } | null;
  readonly tags: readonly string[];
  /** The operation's own `security`, else the document's; null when neither declares one. */
  readonly security: SecurityIr | null;
}

/** The condition of a conditional rule (`rule-condition` of the extension schema). */
export type RuleCondition = RuleConditionFact;

/** A constant a rule compares with. */
export type RuleScalar = string | number | boolean | null;

/** How the server answers a request breaking a runtime rule (`rule-binding`'s `answer`, as read). */
export type RuleAnswerIr = NonNullable<RuleBindingFact["answer"]>;

/** Who applies a rule (`rule-binding`): `wire` rules the release's request model, `runtime` rules the server after it. */
export type RuleBindingIr = RuleBindingFact;

/** What a rule checks (`rule-check`: `x-powercontext-rules`, and the release's `x-powercontext-exclusive-fields`). */
export type ModelRuleCheckIr = RuleCheckFact;

/** A model rule: what it checks, and who applies it with which answer. */
export type ModelRuleIr = ModelRuleFact;

/**
 * Where a component schema with rules sits in an operation's flat request object: the
 * steps from the root (`rule-step`), and the schema whose rules apply there.
 */
export interface RuleSiteIr {
  readonly at: readonly RuleStepFact[];
  readonly schema: string;
}

/** How the runtime rules reached from an operation's request answer (`rule-issues`). */
export type RuleIssuesIr = RuleIssuesFact;

/** A component schema. */
export interface SchemaIr {
  readonly name: string;
  readonly schema: Json;
  /** Its model rules, in declaration order (the exclusive-fields rule last); empty for most schemas. */
  readonly rules: readonly ModelRuleIr[];
}

/** One filter of a resource list (docs/extensions.md, `filter`). */
export type FilterIr = ResourceUseFact["filters"][number];

/** The intermediate representation: the only input of the emitters. */
export interface ApiIr {
  /** The spec's file name, the SHA-256 of its bytes, and the lint profile it was read with. */
  readonly source: { readonly fileName: string; readonly sha256: string; readonly lint: LintProfile };
  readonly generator: { readonly name: string; readonly version: string };
  readonly title: string;
  readonly apiVersion: string;
  /** The document as read (references kept), Schema Objects in the loader's one form. */
  readonly document: Json;
  /** The document exactly as written (before the loader's one form): what targets hand on as the contract itself (the Python layer's `schema.py`, the mock's served document). */
  readonly written: Json;
  readonly lookup: RefLookup;
  /** Sorted by operationId. */
  readonly operations: readonly OperationIr[];
  /** Sorted by name. */
  readonly schemas: readonly SchemaIr[];
  /** Some schema uses readOnly or writeOnly: such schemas get a request type and a response type. */
  readonly readWriteMarkers: boolean;
  /** The document's `openapi` version string, e.g. `3.0.3` or `3.1.0`. */
  readonly openapiVersion: string;
  /** The document's top-level `security`, or null. */
  readonly security: SecurityIr | null;
  /** `x-powercontext-error-codes`: every error code the document knows, sorted by code. */
  readonly errorCodes: readonly ErrorCodeIr[];
  /** `x-powercontext-router` of the document, or null. */
  readonly router: RouterIr | null;
  /** `x-powercontext-resources`: the stored resource families, sorted by name. */
  readonly resources: readonly ResourceIr[];
  /** The access model (`x-powercontext-access-policy`, `-resolvers`, `-after`, `-owner`), or null. */
  readonly accessFacts: AccessFactsIr | null;
  /** Names of `components.securitySchemes`. */
  readonly securitySchemes: readonly string[];
  /** Names the output is written with (generator options). */
  readonly names: OutputNames;
  /** The response header carrying the server's request id (`x-powercontext-request-id-header` on the document, else `X-PowerContext-Request-ID`). */
  readonly requestIdHeader: string;
  /** The document names the request-id header once (`x-powercontext-request-id-header`), so responses need not repeat it. */
  readonly requestIdHeaderDeclared: boolean;
  /** Headers the clients send on every request unless the caller sets the same one (`x-powercontext-client-headers`); empty for none. */
  readonly clientHeaders: Readonly<Record<string, string>>;
}
