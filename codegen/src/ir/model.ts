import type { Json, LintProfile, MediaKind, RefLookup, RetryClass } from "../domain/types.js";
import type { OutputNames } from "./names.js";
import type {
  AnchorRecordsFact,
  AsyncFact,
  ErrorCodeFact,
  ErrorCodesFact,
  MediaFromFact,
  NotServedFact,
  PaginationFact,
  ReconcileFact,
  RefusalDetailsFact,
  RefusalFact,
  RefusalRuleFact,
  ResourcesFact,
  ResourceUseFact,
  RouterFact,
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
   * `x-powercontext-rule-answer`'s `branches`: the parameter whose value chooses the body's
   * `oneOf` branch, and that value per branch schema name; null when the branches tell
   * themselves apart.
   */
  readonly ruleBranches: { readonly parameter: string; readonly schemas: Readonly<Record<string, string>> } | null;
  readonly tags: readonly string[];
  /** The operation's own `security`, else the document's; null when neither declares one. */
  readonly security: SecurityIr | null;
}

/**
 * The condition of a conditional rule: the value at `path` (member names from the model
 * down, defaults applied; a missing step reads as null) is one of `in`, or, with
 * `negate`, none of them.
 */
export interface RuleCondition {
  readonly path: readonly string[];
  readonly in: readonly (string | number | boolean | null)[];
  readonly negate: boolean;
}

/** A constant a rule compares with. */
export type RuleScalar = string | number | boolean | null;

/**
 * How the server answers a request breaking a runtime rule (docs/architecture.md,
 * "Model rules"): `issue` is `422 invalid_request` with one `details.errors` issue of
 * `type` at `loc` (null: the member path from the schema carrying the rule; `object`: the
 * object carrying it), `opaque`
 * the same without details, `field` the same with `{ field, reason }`, `refusal` the
 * status, code and details given.
 */
export type RuleAnswerIr =
  | { readonly kind: "issue"; readonly type: string; readonly loc: readonly (string | number)[] | "object" | null }
  | { readonly kind: "opaque" }
  | { readonly kind: "field"; readonly field: string; readonly reason: string }
  | {
      readonly kind: "refusal";
      readonly status: number;
      readonly code: string;
      readonly details: Json | null;
      /** The release's access layer refuses it: before any lookup. */
      readonly access: boolean;
    };

/**
 * Who applies a rule: `wire` rules are checked by the release's request models (so by
 * the SDK's request validators, the Python models and the mock's access-stage check);
 * `runtime` rules are checked by the release after its request model, so only the mock
 * applies them, answering with `answer`.
 */
export interface RuleBindingIr {
  readonly stage: "wire" | "runtime";
  /** The answer of a runtime rule (an `issue` of type `value_error` at the member path by default); null for wire rules. */
  readonly answer: RuleAnswerIr | null;
}

/**
 * What a rule checks (`x-powercontext-rules`, and the release's
 * `x-powercontext-exclusive-fields`); docs/architecture.md ("Model rules") defines each.
 * `trim` applies before the schema is checked, every other rule after. "Present" means
 * the member is in the object; "whitespace" is what Python's `str.strip()` removes. A
 * member of `members` may end with `[]` (each item of a list), `{}` (each key of a map)
 * or `{*}` (each value of a map); a path steps into every item of a list with `[]`.
 */
export type ModelRuleCheckIr =
  /** Present string members lose leading and trailing whitespace (after NFC, with `normalize`) before validation. */
  | { readonly kind: "trim"; readonly members: readonly string[]; readonly normalize?: boolean }
  /** The server keeps a present list member ordered by its items' NFC case-folded keys, compared as UTF-8 bytes. */
  | { readonly kind: "sort-items"; readonly members: readonly string[] }
  /** A present member is not null (leave it out instead). */
  | { readonly kind: "not-null"; readonly members: readonly string[] }
  /** No number at any depth of a present member is NaN or infinite. */
  | { readonly kind: "finite-numbers"; readonly members: readonly string[] }
  /** A present string member is not whitespace only. */
  | { readonly kind: "not-blank"; readonly members: readonly string[] }
  /** A present date-time member is later than the server's clock. */
  | { readonly kind: "after-now"; readonly members: readonly string[] }
  | { readonly kind: "zip-archive"; readonly members: readonly string[] }
  /** A present string equals itself without surrounding whitespace (`end`: trailing only). */
  | { readonly kind: "no-outer-whitespace"; readonly members: readonly string[]; readonly side: "both" | "end" }
  /**
   * A present array member holds no item twice: compared whole, or on the `by` members of
   * object items; `nfc-casefold` compares strings after NFC and case folding.
   */
  | {
      readonly kind: "unique-items";
      readonly members: readonly string[];
      readonly by: readonly string[] | null;
      readonly compare: "exact" | "nfc-casefold";
    }
  /**
   * A present string member (or each string of an array member) is a repository-relative
   * path: `/`-separated segments, none empty, `.` or `..`; no `\`, `:`, NUL or lone
   * surrogate. `allowEmpty`: the empty string (the root) is accepted.
   */
  | { readonly kind: "relative-path"; readonly members: readonly string[]; readonly allowEmpty: boolean }
  /** `min <= to - from <= max` when both integer members are present. */
  | { readonly kind: "span"; readonly from: string; readonly to: string; readonly min: number; readonly max: number }
  /** When both members are present date-times, `from` is an instant earlier than `to`. */
  | { readonly kind: "before"; readonly from: string; readonly to: string }
  /** When the condition holds, `member` is present and not null. */
  | { readonly kind: "required-when"; readonly member: string; readonly when: RuleCondition }
  /** When the condition does not hold, `member` is absent or null. */
  | { readonly kind: "forbidden-unless"; readonly member: string; readonly when: RuleCondition }
  /** When the condition holds, the list `member` holds between `min` and `max` items (absent: none). */
  | {
      readonly kind: "items-when";
      readonly member: string;
      readonly when: RuleCondition;
      readonly min: number | null;
      readonly max: number | null;
    }
  /**
   * When the condition holds, every value at `path` is in `in` (not in it, with `negate`),
   * a number within `min`..`max`, and a string matching `pattern`.
   */
  | {
      readonly kind: "constrain-when";
      readonly when: RuleCondition;
      readonly path: readonly string[];
      readonly in: readonly RuleScalar[] | null;
      readonly negate: boolean;
      readonly min: number | null;
      readonly max: number | null;
      readonly pattern: string | null;
    }
  /** Every value present at `path` is one of `in` (`one-of`) or none of them (`none-of`). */
  | { readonly kind: "one-of" | "none-of"; readonly path: readonly string[]; readonly in: readonly RuleScalar[] }
  /** Values present at both paths differ. */
  | { readonly kind: "different"; readonly paths: readonly (readonly string[])[] }
  /** The values at both paths are equal as JSON (a missing one reads as null). */
  | { readonly kind: "same"; readonly paths: readonly (readonly string[])[] }
  /** A present string member is `sha256:<hex>` of the canonical JSON of the `of` members (runtime only). */
  | { readonly kind: "digest"; readonly member: string; readonly of: readonly string[] }
  /** A value present at `path` equals one item of the list at `list`. */
  | { readonly kind: "member-of"; readonly path: readonly string[]; readonly list: readonly string[] }
  /** The numbers at `path` add up to at most `max`. */
  | { readonly kind: "max-sum"; readonly path: readonly string[]; readonly max: number }
  /** A present string is at most `max` UTF-8 bytes (after NFC and strip, with `normalize`). */
  | {
      readonly kind: "max-bytes";
      readonly members: readonly string[];
      readonly max: number;
      readonly normalize: boolean;
    }
  /** The present array members together hold at most `max` items. */
  | { readonly kind: "max-items-together"; readonly members: readonly string[]; readonly max: number }
  /** No character of a present string is of one of these Unicode general categories. */
  | {
      readonly kind: "excluded-categories";
      readonly members: readonly string[];
      readonly categories: readonly string[];
    }
  /** Exactly one of `members` is present, and it is not null. */
  | { readonly kind: "exclusive"; readonly members: readonly string[] };

/** A model rule: what it checks, and who applies it with which answer. */
export type ModelRuleIr = ModelRuleCheckIr & RuleBindingIr;

/**
 * Where a component schema with rules sits in an operation's flat request object: the
 * steps from the root (member names, `[]` for every item of a list, and `{ if, in }`
 * guards that go on only when the object's member `if` holds one of `in`, for the
 * branches of a `oneOf`), and the schema whose rules apply there.
 */
export interface RuleSiteIr {
  readonly at: readonly (
    | string
    | { readonly if: string; readonly in: readonly RuleScalar[] }
    | { readonly has: readonly string[] }
  )[];
  readonly schema: string;
}

/**
 * How the runtime rules reached from an operation's request answer
 * (`x-powercontext-rule-answer`): `standalone` issues keep the rule's own `loc` (the
 * release validates that part on its own), `body` issues are located by their path
 * from the request root (the release validates the whole body), `opaque` turns every
 * issue into `422 invalid_request` without details (the release catches the
 * validation error), `{ field, reason }` into `{ field, reason }` details (the release
 * validates that part as a whole and names it).
 */
export type RuleIssuesIr =
  | "standalone"
  | "body"
  | "opaque"
  /** Every issue becomes `422 invalid_request` `{ field, reason }`; `{member}` in `reason` is that request member's value. */
  | { readonly field: string; readonly reason: string };

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
}
