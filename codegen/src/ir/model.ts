import type { Json, LintProfile, RefLookup, RetryClass } from "./domain.js";
import type { OutputNames } from "./names.js";

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

/**
 * How a body is read or written: `json` (application/json and any `+json`),
 * `text` (`text/*`), `binary` (anything else), `none` (no content).
 */
export type MediaKind = "json" | "text" | "binary" | "none";

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

/** `x-powercontext-async`, camel-cased. */
export interface AsyncIr {
  readonly acceptedStatus: number;
  readonly pollOperation: string;
  readonly resultField: string;
  /** Member of the accepted body naming the operation (`operation_id_field`, default `operation_id`). */
  readonly operationIdField: string;
  /** Member of the polled resource holding its state (`status_field`, default `status`). */
  readonly statusField: string;
  /** Member of a failed resource holding its bounded error (`error_field`, default `error`). */
  readonly errorField: string;
  /** `terminal_states`, default `{ succeeded: [succeeded], failed: [failed], cancelled: [cancelled] }`. */
  readonly terminalStates: {
    readonly succeeded: readonly string[];
    readonly failed: readonly string[];
    readonly cancelled: readonly string[];
  };
}

/** One member of an error code's `details`. */
export interface ErrorDetailIr {
  readonly name: string;
  /** The member's schema, or null when the registry lists the name only. */
  readonly schema: Json | null;
}

/** One row of the document's `x-powercontext-error-codes` registry. */
export interface ErrorCodeIr {
  /** The envelope's `error.code`, such as `version_conflict`. */
  readonly code: string;
  /** The status the code arrives with. */
  readonly status: number;
  /** False when no wait cures the error: the retry policy does not re-send it. */
  readonly transient: boolean;
  /** Members of `error.details` a client may read for this code, in declaration order. */
  readonly details: readonly ErrorDetailIr[];
  /** Name of the error class generated for the code (`class`), or null for none. */
  readonly className: string | null;
  /** JSON pointer of the registry row. */
  readonly pointer: string;
}

/** The codes an operation declares for one error status (`x-powercontext-errors`). */
export interface OperationErrorCodesIr {
  readonly status: number;
  readonly codes: readonly string[];
}

/** `x-powercontext-reconcile`, camel-cased. */
export interface ReconcileIr {
  readonly readOperation: string;
  readonly idParameter: string;
  readonly holdsWhen: { readonly status: readonly string[] };
  /** Member of the read resource holding its version (`version_field`, default `version`). */
  readonly versionField: string;
  /** Request member holding the expected version (`expected_version_field`, default `expected_version`). */
  readonly expectedVersionField: string;
  /** Member of the read resource compared with `holds_when.status` (`status_field`, default `status`). */
  readonly statusField: string;
  /** The 409 code that starts reconciliation (`conflict_code`, default `version_conflict`). */
  readonly conflictCode: string;
}

/** `x-powercontext-pagination`, camel-cased. */
export interface PaginationIr {
  readonly cursorParameter: string;
  readonly nextCursorField: string;
  readonly itemsField: string;
}

/** `x-powercontext-not-served`: how a server without this operation answers it, and what the SDK says then. */
export interface NotServedIr {
  /** The status such a server answers (404), without an error code. */
  readonly status: number;
  /** The sentence the SDK's error and the CLI show, for example "this server has no Operation API ...". */
  readonly message: string;
}

/** A JSON scalar. */
export type JsonScalar = string | number | boolean | null;

/**
 * One row of `x-powercontext-refusals`: a refusal the server answers when every
 * condition of `when` holds (docs/architecture.md). The mock's simulator answers them
 * after the request is validated, before any lookup and before a missing precondition.
 */
export interface RefusalRuleIr {
  readonly status: number;
  /** A code of the registry with {@link status}. */
  readonly code: string;
  readonly message: string;
  /** `error.details`, or null. */
  readonly details: Json | null;
  readonly when: {
    /** Only while the server has (`on`) or has no (`off`) inference model; null: either. */
    readonly inference: "on" | "off" | null;
    /** Only when this request member is there and not null. */
    readonly present: string | null;
    /** Only when this request member is absent, null or an empty list. */
    readonly empty: string | null;
    /** Only when the Scope has this kind of work pending (`sources`: Sources past its Memory cursor). */
    readonly pending: "sources" | null;
    /** Only when each of these request members has this value (empty: no such condition). */
    readonly equals: Readonly<Record<string, JsonScalar>>;
    /** Only when each of these list members holds this value. */
    readonly includes: Readonly<Record<string, JsonScalar>>;
    /** Only when each of these members (dotted paths into the request) is there with none of these values. */
    readonly outside: Readonly<Record<string, readonly JsonScalar[]>>;
    /** Only when the request names a record the store does not hold. */
    readonly unknown: UnknownRecordIr | null;
  };
  /** The request member naming the Scope: the refusal comes only once that Scope is found (an unknown one is refused first). Null: before any lookup. */
  readonly scope: string | null;
}

/** A record a request names, for the `unknown` condition of a refusal. */
export interface UnknownRecordIr {
  /** A resource of `x-powercontext-resources`. */
  readonly resource: string;
  /** The dotted request path of the record's id; no value there, no condition. */
  readonly id: string;
  /** The collection keys, one per `within` member of the resource: a dotted request path, or a constant. */
  readonly within: readonly (string | { readonly value: JsonScalar })[];
}

/** `x-powercontext-media-from`: the request member whose value chooses the success media type. */
export interface MediaFromIr {
  /** A request member (parameter by wire name or body property). */
  readonly member: string;
  /** Member value -> a media type the primary success response declares. */
  readonly values: Readonly<Record<string, string>>;
}

/**
 * `x-powercontext-router`: how the server routes a request before any operation runs
 * (docs/architecture.md). The mock's HTTP server answers unknown paths, other methods
 * and trailing slashes from it.
 */
export interface RouterIr {
  /** operationIds in the order the server registers their routes; operations not listed come after. */
  readonly order: readonly string[];
  /** Path prefixes of the routes the server matches against the path as sent (percent-escapes kept). */
  readonly rawPathPrefixes: readonly string[];
}

/** A refusal the contract names: the status and the envelope's `error.code`. */
export interface RefusalIr {
  readonly status: number;
  readonly code: string;
  /** Fixed members of `error.details`, or null. */
  readonly details: Readonly<Record<string, JsonScalar>> | null;
}

/** Where one member of `error.details` takes its value from (`expected`/`provided`: the request's; `current`: the stored record's). */
export interface RefusalDetailIr {
  readonly name: string;
  readonly value: "expected" | "provided" | "current";
}

/**
 * One row of the document's `x-powercontext-resources` registry: how a stored
 * resource family is identified, versioned and refused. Member names are dotted
 * paths into the record (`artifact.artifact_id`).
 */
export interface ResourceIr {
  readonly name: string;
  /** The member naming a record, in records and (by default) in requests. */
  readonly id: string;
  /** Prefix of ids the server assigns (`<prefix>_<hex>`); null when the caller always names the record. */
  readonly prefix: string | null;
  /** Members that select the collection a record lives in, each with the resource it must name (null: any value). */
  readonly within: readonly { readonly member: string; readonly resource: string | null }[];
  /** A counter member: its start value on creation, +1 on every change. */
  readonly version: { readonly member: string; readonly start: number } | null;
  /** True when every version stays readable (revisions). */
  readonly history: boolean;
  /** The ETag the record is sent with: a template of `{member}` placeholders, sent quoted. */
  readonly etag: string | null;
  /** A member numbered 1, 2, 3, ... per collection at creation. */
  readonly sequence: string | null;
  /**
   * Members holding `sha256:<hex>` of other members: of one member's value
   * (`object: false`, a string as it is, anything else as canonical JSON), or of
   * the canonical JSON object of several members keyed by name (`object: true`);
   * `bare` leaves out the `sha256:` prefix. Computed in order, so a digest may
   * digest an earlier one.
   */
  readonly digests: readonly {
    readonly member: string;
    readonly of: readonly string[];
    readonly object: boolean;
    readonly bare: boolean;
  }[];
  /** Members a record has before any write (dotted paths to JSON scalars or lists of them): a new record starts from them, and a read of a record no write made yet answers them. */
  readonly initial: {
    readonly [member: string]: string | number | boolean | null | readonly (string | number | boolean | null)[];
  };
  /** Every operation whose request names one of these records must name an existing one (see {@link OperationIr.anchor}). */
  readonly anchor: boolean;
  /** A member set to the clock's time at creation. */
  readonly created: string | null;
  /** A member set to the clock's time at creation and at every change. */
  readonly updated: string | null;
  /** The member lists are ordered by (ascending); null: the id. */
  readonly order: string | null;
  /** The answer for an id no record has. */
  readonly notFound: RefusalIr;
  /** JSON pointer of the registry row. */
  readonly pointer: string;
}

/** What an operation does to a resource of the registry (`x-powercontext-resource`). */
export type ResourceAction = "create" | "read" | "list" | "change" | "put" | "remove" | "revision" | "revisions";

/** `x-powercontext-resource` of an operation. */
export interface OperationResourceIr {
  /** A resource of {@link ApiIr.resources}. */
  readonly name: string;
  readonly action: ResourceAction;
  /** Record member -> the request member carrying it, where the two differ (dotted paths). */
  readonly from: readonly { readonly member: string; readonly request: string }[];
  /** Optimistic concurrency on the version: the request member carrying the expected value and the refusal of a stale one. */
  readonly expect: {
    readonly request: string;
    readonly conflict: RefusalIr;
    readonly details: readonly RefusalDetailIr[];
    /** The value that expects no record yet (`put`); null when a record must exist. */
    readonly absent: number | null;
  } | null;
  /** Optimistic concurrency on the ETag through `If-Match`. */
  readonly ifMatch: {
    readonly stale: RefusalIr;
    readonly missing: RefusalIr | null;
    readonly details: readonly RefusalDetailIr[];
  } | null;
  /** Request members that must name a record of another resource (found in the same collection keys). */
  readonly requires: readonly { readonly request: string; readonly resource: string }[];
  /** A caller-chosen key that makes creation replayable; the same key with another request is refused. */
  readonly idempotency: { readonly request: string; readonly conflict: RefusalIr } | null;
  /** Creation under a caller-chosen id: the same content again is a replay, other content is refused. */
  readonly replay: { readonly conflict: RefusalIr } | null;
  /** Replaces the resource's `not_found` for this operation. */
  readonly notFound: RefusalIr | null;
  /** The answer to a cursor the list did not hand out for this request; null: the list starts over. */
  readonly badCursor: RefusalIr | null;
  /** A read of an id no record has answers the resource's fresh record (its identity, `initial` members and digests) instead of not found. */
  /**
   * A creation whose request member `member` holds one of the `ids` keys names its
   * record with that fixed id (a singleton, such as a Scope's one Profile Artifact):
   * a creation while the record exists is `conflict`.
   */
  readonly fixedId: {
    readonly member: string;
    readonly ids: { readonly [value: string]: string };
    readonly conflict: RefusalIr;
  } | null;
  readonly fresh: boolean;
  /** For a change: the request replaces the record's request members (what it leaves out takes its default, `body.defaults`) instead of merging over them. */
  readonly replace: boolean;
  /** For a list: the record member whose highest value when the first page is served bounds the list; later pages leave out records above it. */
  readonly bound: string | null;
  /** For a change: the record keeps its version (a decision on a Candidate is no new version of it). */
  readonly sameVersion: boolean;
  /** For `remove`: the response member that says whether a record was removed; with it an unknown id is not refused. */
  readonly flag: string | null;
  /** For a change: a record whose member holds one of these values is final, and a change of it is refused (before any precondition). */
  readonly terminal: {
    readonly member: string;
    readonly values: readonly JsonScalar[];
    readonly refusal: RefusalIr;
    /** Detail members of the refusal that take the record's value of `member` (`current`). */
    readonly details: readonly RefusalDetailIr[];
  } | null;
  /** Members the answer leaves out, unless the request sends a header with a value (a newer contract the client speaks). */
  readonly omit: {
    readonly members: readonly string[];
    readonly unlessHeader: { readonly name: string; readonly value: string } | null;
  } | null;
  /** For a list: `opaque` cursors bound to the request, or `last_id` (the page's last id as text; any text pages after it). */
  readonly cursor: "opaque" | "last_id";
  /** Members set at the write: `now` the clock's time, `caller` the caller's Principal. */
  readonly stamp: readonly { readonly member: string; readonly value: "now" | "caller" }[];
  /** List filters: record member -> request member, with the request member's default. */
  readonly filters: readonly FilterIr[];
  /** Members set to a constant by the operation. */
  readonly set: Readonly<Record<string, JsonScalar>>;
  /** JSON pointer, inside the success body (or inside each listed item), of where the record sits; "" for the body itself. */
  readonly recordAt: string;
  /** The member of a list response holding the items (default: the pagination's `items_field`). */
  readonly items: string | null;
  /** The request member carrying a page cursor and the response member with the next one (from `x-powercontext-pagination`). */
  readonly page: { readonly cursor: string; readonly nextCursor: string } | null;
  /** Request members the operation reads as controls, never stored. */
  readonly controls: readonly string[];
  /** The request member carrying the page size and its default, for a list. */
  readonly limit: { readonly request: string; readonly default: number } | null;
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
  readonly anchor: { readonly resource: string; readonly requests: readonly string[] } | null;
  /** Where the component schemas with model rules sit in the flat request object, in walk order; empty for most operations. */
  readonly ruleSites: readonly RuleSiteIr[];
  /** `x-powercontext-rule-answer`: how runtime-rule issues answer (default `standalone`). */
  readonly ruleIssues: RuleIssuesIr;
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
  | { readonly kind: "refusal"; readonly status: number; readonly code: string; readonly details: Json | null };

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
  /** When the condition holds, every value at `path` is in `in` (not in it, with `negate`) and within `min`..`max`. */
  | {
      readonly kind: "constrain-when";
      readonly when: RuleCondition;
      readonly path: readonly string[];
      readonly in: readonly RuleScalar[] | null;
      readonly negate: boolean;
      readonly min: number | null;
      readonly max: number | null;
    }
  /** Every value present at `path` is one of `in` (`one-of`) or none of them (`none-of`). */
  | { readonly kind: "one-of" | "none-of"; readonly path: readonly string[]; readonly in: readonly RuleScalar[] }
  /** Values present at both paths differ. */
  | { readonly kind: "different"; readonly paths: readonly (readonly string[])[] }
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
  readonly at: readonly (string | { readonly if: string; readonly in: readonly RuleScalar[] })[];
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

/**
 * One filter of a resource list: a record is kept when the request gives no value
 * for `request` (nor a default), or when the record's `member` (dotted; `name[]`
 * for any item of a list) matches it: is `equal` to it (or in it, for a list), or
 * `contains` it as a substring (case-sensitive), or equals it after NFC and case
 * folding (`folded`, as the release matches tags). A filter with `when` applies only
 * while each of those request members has that value (or one of those values).
 */
export interface FilterIr {
  readonly member: string;
  readonly request: string;
  readonly default: unknown;
  readonly match: "equal" | "contains" | "folded";
  readonly when: Readonly<Record<string, RuleScalar | readonly RuleScalar[]>>;
}

/** The intermediate representation: the only input of the emitters. */
export interface ApiIr {
  /** The spec's file name, the SHA-256 of its bytes, and the lint profile it was read with. */
  readonly source: { readonly fileName: string; readonly sha256: string; readonly lint: LintProfile };
  readonly generator: { readonly name: string; readonly version: string };
  readonly title: string;
  readonly apiVersion: string;
  /** The document as read (references kept), Schema Objects in the loader's one form. */
  readonly document: Json;
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
  /** Names of `components.securitySchemes`. */
  readonly securitySchemes: readonly string[];
  /** Names the output is written with (generator options). */
  readonly names: OutputNames;
  /** The response header carrying the server's request id (`x-powercontext-request-id-header` on the document, else `X-PowerContext-Request-ID`). */
  readonly requestIdHeader: string;
  /** The document names the request-id header once (`x-powercontext-request-id-header`), so responses need not repeat it. */
  readonly requestIdHeaderDeclared: boolean;
}
