/**
 * The shape of the mock's generated contract (`src/generated/contract.ts`, and the
 * route table `routes.ts`): what the simulator knows of each operation, all of it
 * from `openapi.yaml`. The generator
 * writes the contract as data that satisfies these types; the contract facts it
 * carries (refusals, resources, paging, media choice) are typed by
 * `generated/facts.ts`, which is generated from the generator's extension schema
 * (docs/extensions.md), so nothing here restates an extension's shape.
 */
import type { ValidateFunction } from "@powercontext/sdk/validators";
import type { RuleSite } from "@powercontext/runtime/rules";
import type {
  AnchorRecordsFact,
  MediaFromFact,
  ModelRuleFact,
  PaginationFact,
  RefusalDetailsFact,
  RefusalFact,
  RefusalRuleFact,
  ResourcesFact,
  ResourceUseFact,
  RuleBindingFact,
  RuleIssuesFact,
} from "./generated/facts.js";

/** How a parameter's wire string is read before validation. */
export type WireType = "string" | "integer" | "number" | "boolean" | "array";

/** One parameter of an operation. */
export interface ContractParameter {
  readonly name: string;
  readonly required: boolean;
  /** The JSON type the wire string is read as (arrays: repeated query keys). */
  readonly type: WireType;
  /** For arrays, the type of each item. */
  readonly items?: WireType;
}

/** `x-powercontext-access` of an operation: a permission on the Scope a request member names, on the server, or a named resolver. */
export type ContractAccess =
  | { readonly action: string; readonly resource: "scope"; readonly scopeIdFrom: string }
  | { readonly action: string; readonly resource: "server" }
  | { readonly resolver: string };

/** One declared response: its status and how its body is written. */
export interface ContractResponse {
  readonly status: number;
  readonly kind: "json" | "text" | "binary" | "none";
  readonly mediaType: string | null;
  /** The body is the error envelope (`ErrorResponse`). */
  readonly envelope: boolean;
  /** Headers the response must carry. */
  readonly requiredHeaders: readonly string[];
  /** Every header the response declares. */
  readonly headers: readonly string[];
  /** The schema of every header the response declares, by name (the request id header left out). */
  readonly headerSchemas: { readonly [name: string]: unknown };
}

/** What the simulator knows of one operation. */
export interface ContractOperation {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** OpenAPI path template, e.g. `/v1/operations/{operation_id}`. */
  readonly path: string;
  /** Security alternatives (scheme names each); an empty alternative admits anonymous callers. */
  readonly security: readonly (readonly string[])[];
  readonly access: ContractAccess | null;
  readonly parameters: {
    readonly path: readonly ContractParameter[];
    readonly query: readonly ContractParameter[];
    readonly header: readonly ContractParameter[];
  };
  /** Null without a request body; otherwise whether it is required. */
  readonly body: {
    readonly required: boolean;
    /** What each optional body member is when left out (its default, or null when nullable), by member path (`outer.inner` inside a nested object). */
    readonly defaults: { readonly [member: string]: unknown };
  } | null;
  /** Every declared response, by ascending status. */
  readonly responses: readonly ContractResponse[];
  /** Declared 2xx statuses, ascending; the first is the plain success. */
  readonly successStatuses: readonly number[];
  /** The accepted (background) status of an asynchronous operation, else null. */
  readonly acceptedStatus: number | null;
  /** Validates the flat request object (parameters by wire name plus body members). */
  readonly requestValidator: ValidateFunction | null;
  /** Validators and response-schema keys of the JSON success bodies, by status. */
  readonly successBodies: {
    readonly [status: number]: { readonly validate: ValidateFunction; readonly schema: string };
  };
  /** `x-powercontext-refusals`, in order. */
  readonly refusals: readonly ContractRefusalRule[];
  /** `x-powercontext-media-from`, or null. */
  readonly mediaFrom: MediaFromFact | null;
  /** `x-powercontext-answer`: success-answer members that are facts of the contract (values read from it; `instance` ids the server draws once). */
  readonly answer: readonly ContractAnswerMember[];
  /** `x-powercontext-exclude-unset`: the success answer leaves out the optional members the server did not set. */
  readonly excludeUnset: boolean;
  /**
   * `x-powercontext-query-model`: the query parameters whose value (or, with `items`, each
   * item) the operation's request model checks after the framework; empty for most operations.
   */
  readonly queryModel: readonly { readonly name: string; readonly items: boolean }[];
  /** `x-powercontext-pagination`; null for no list. */
  readonly pagination: PaginationFact | null;
  /** The stored resource the operation works on (`x-powercontext-resource`), or null. */
  readonly resource: ContractResourceUse | null;
  /** The anchor resource's records the request names, which must exist; null for none. */
  readonly anchor: AnchorRecordsFact | null;
  /** The model rules the flat request reaches (`x-powercontext-rules`), where they sit, with their stage and answer. */
  readonly rules: readonly RuleSite<ContractRule>[];
  /** `x-powercontext-rule-answer`: how the issues of runtime rules answer on this operation. */
  readonly ruleIssues: RuleIssuesFact;
  /** `x-powercontext-rule-answer`'s `after: access`: the runtime rules are checked once the checks after access have passed. */
  readonly rulesAfterAccess: boolean;
  /**
   * `x-powercontext-rule-answer`'s `first`: the member choosing the body branches whose
   * runtime rules the handler checks before any lookup (each issue at its rule's own
   * `loc`), and its values; null for none.
   */
  readonly rulesFirst: { readonly member: string; readonly in: readonly string[] } | null;
  /**
   * `x-powercontext-rule-answer`'s `branches`: the parameter choosing the body's `oneOf`
   * branch, the validator of each branch's body and the refusals of its `refusals`; null
   * when the branches tell themselves apart.
   */
  readonly bodyBranches: {
    readonly parameter: string;
    readonly validators: { readonly [value: string]: ValidateFunction };
    /** The refusal, by the parameter's value, when that branch's model refuses the body (else the rule answer). */
    readonly refusals: { readonly [value: string]: { readonly status: number; readonly code: string } };
  } | null;
}

/** One member of `x-powercontext-answer`: its path in the body and its value, the kind of id the server draws once, or a member left out. */
export interface ContractAnswerMember {
  readonly member: string;
  readonly value: unknown;
  readonly instance: "uuid" | null;
  /** Left out, unless the request carries `unlessHeader`'s header with its value. */
  readonly omit: { readonly unlessHeader: { readonly name: string; readonly value: string } | null } | null;
}

/** How the server answers a request breaking a runtime rule (docs/architecture.md, "Model rules"). */
export type ContractRuleAnswer = NonNullable<RuleBindingFact["answer"]>;

/** A model rule with who applies it: `wire` rules the release's request model, `runtime` rules the server after it. */
export type ContractRule = ModelRuleFact;

/** A refusal the server answers when every condition of `when` holds (`x-powercontext-refusals`). */
export type ContractRefusalRule = RefusalRuleFact;

/** A refusal: the status and the envelope's `error.code`. */
export type ContractRefusal = RefusalFact;

/** A member of `error.details` and where its value comes from. */
export type ContractRefusalDetail = RefusalDetailsFact[number];

/** A JSON scalar. */
export type ContractScalar = string | number | boolean | null;

/** One stored resource family (a row of `x-powercontext-resources`), with its name. */
export type ContractResource = ResourcesFact[number];

/** What an operation does to a resource (`x-powercontext-resource`). */
export type ContractResourceUse = ResourceUseFact;

/** One route of the server (`generated/routes.ts`, from `x-powercontext-router`). */
export interface ContractRoute {
  readonly operationId: string;
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** OpenAPI path template, e.g. `/v1/scopes/{scope_id}`. */
  readonly path: string;
  /** The server matches it against the path as sent, percent-escapes kept (so never redirects a trailing slash to it). */
  readonly rawPath: boolean;
}

/** How the server answers before an operation runs (`x-powercontext-router`). */
export interface ContractRouterAnswers {
  /** Paths it serves without a credential (exact, as decoded). */
  readonly publicPaths: readonly string[];
  /** Path prefixes (ending in `/`) under which it serves without a credential. */
  readonly publicPrefixes: readonly string[];
  /** Its framework's bodies for an unknown path and a method the path does not take; null: the error envelope. */
  readonly frameworkBodies: { readonly notFound: object; readonly methodNotAllowed: object } | null;
}
