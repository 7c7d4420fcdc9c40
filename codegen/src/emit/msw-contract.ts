import type { Json, RefLookup } from "../ir/domain.js";
import type { ApiIr, OperationIr, ParameterIr, ResourceIr } from "../ir/model.js";
import { propertyKey, tsString } from "./ts/syntax.js";
import { banner } from "./banner.js";
import { validatorSchemas, type ValidatorSchemas } from "./validator-code/schemas.js";
import { ruleSiteData } from "./rule-tables.js";

/** Where the contract layer imports the validators from: the SDK's generated module, the one copy. */
export const SDK_VALIDATORS = "@powercontext/sdk/validators";

/** The simulator's contract modules, as text. */
export interface MswContractModules {
  /** `contract.ts`: per operation, everything the simulator checks and answers with. */
  readonly contract: string;
  /** `response-schemas.ts`: the draft-07 schemas of every success body, for the deterministic responder. */
  readonly responseSchemas: string;
}

/**
 * Emits the contract layer of `@powercontext/msw` from the IR: per operation its
 * method, path, security alternatives, `x-powercontext-access`, declared statuses
 * with their media kinds, the statuses whose body is the error envelope, the
 * parameters by location with the type a wire string is read as, the request body
 * rule, and the names of its generated request and response validators (the
 * SDK's validators module, {@link SDK_VALIDATORS}: the mock package has no copy). The response-schema module
 * holds, by validator key, every schema a success body reaches, so the responder
 * can build a valid body without the spec file.
 *
 * @param schemas - the IR's validator schemas, shared with `emitValidators` in one run
 */
export function emitMswContract(ir: ApiIr, schemas: ValidatorSchemas = validatorSchemas(ir)): MswContractModules {
  let out = banner(ir);
  out += `import * as validators from ${tsString(SDK_VALIDATORS)};\nimport type { ValidateFunction } from ${tsString(SDK_VALIDATORS)};\nimport type { Rule, RuleSite } from ${tsString(`${ir.names.runtimePackage}/rules`)};\n\n`;
  out += HEADER;
  out += `/** The operations of the contract, keyed by operationId, sorted. */\nexport const contractOperations = {\n`;
  const roots: string[] = [];
  for (const op of ir.operations) {
    const names = schemas.perOperation.get(op.operationId) ?? { request: null, responses: [] };
    roots.push(...names.responses.map(([, key]) => key));
    out += `  ${propertyKey(op.operationId)}: ${operationLiteral(op, names, ir)},\n`;
  }
  out += `} as const satisfies Record<string, ContractOperation>;\n\n`;
  out += `/** Every operationId of the contract. */\nexport type ContractOperationId = keyof typeof contractOperations;\n\n`;
  // The document's own security names the schemes of the deployment's principals; an
  // operation secured by other schemes only carries a credential its domain checks.
  const principalSchemes = [...new Set((ir.security ?? []).flatMap((alternative) => Object.keys(alternative)))].sort();
  out += `/** The security schemes of the document's own \`security\`: the credentials that name a principal. */\n`;
  out += `export const contractPrincipalSchemes: readonly string[] = [${principalSchemes.map(tsString).join(", ")}];\n\n`;
  out += `/** The stored resource families (\`x-powercontext-resources\`), keyed by name. */\nexport const contractResources: { readonly [name: string]: ContractResource } = {\n`;
  for (const resource of ir.resources) out += `  ${propertyKey(resource.name)}: ${resourceLiteral(resource)},\n`;
  out += `};\n`;
  return { contract: out, responseSchemas: responseSchemasModule(ir, roots, schemas.definition) };
}

const HEADER = `/** How a parameter's wire string is read before validation. */
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

/** \`x-powercontext-access\` of an operation. */
export type ContractAccess =
  | { readonly action: string; readonly resource: "scope"; readonly scopeIdFrom: string }
  | { readonly action: string; readonly resource: "server" }
  | { readonly resolver: string };

/** One declared response: its status and how its body is written. */
export interface ContractResponse {
  readonly status: number;
  readonly kind: "json" | "text" | "binary" | "none";
  readonly mediaType: string | null;
  /** The body is the error envelope (\`ErrorResponse\`). */
  readonly envelope: boolean;
  /** Headers the response must carry. */
  readonly requiredHeaders: readonly string[];
  /** Every header the response declares. */
  readonly headers: readonly string[];
  /** The schema of every header the response declares, by name (the request id header left out). */
  readonly headerSchemas: { readonly [name: string]: unknown };
}

/** A refusal the server answers when every condition of \`when\` holds (\`x-powercontext-refusals\`). */
export interface ContractRefusalRule {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly details: { readonly [member: string]: unknown } | null;
  readonly when: {
    /** Only while the server has (\`on\`) or has no (\`off\`) inference model; null: either. */
    readonly inference: "on" | "off" | null;
    /** Only when this request member is there and not null. */
    readonly present: string | null;
    /** Only when this request member is absent, null or an empty list. */
    readonly empty: string | null;
    /** Only when the Scope has this work pending (\`sources\`: Sources past its Memory cursor). */
    readonly pending: "sources" | null;
    /** Only when each of these request members has this value (an absent member has the value null). */
    readonly equals: { readonly [member: string]: string | number | boolean | null };
    /** Only when each of these list members holds this value. */
    readonly includes: { readonly [member: string]: string | number | boolean | null };
    /** Only when each of these members (dotted paths) is there with none of these values. */
    readonly outside: { readonly [path: string]: readonly (string | number | boolean | null)[] };
    /** Only when the request names a record of \`resource\` the store does not hold: its id at the dotted path \`id\`, its collection keys from \`within\` (a path, or a constant). */
    readonly unknown: {
      readonly resource: string;
      readonly id: string;
      readonly within: readonly (string | { readonly value: string | number | boolean | null })[];
    } | null;
  };
  /** The request member naming the Scope: refused only once that Scope is found. Null: before any lookup. */
  readonly scope: string | null;
}

/** What the simulator knows of one operation, all of it from \`openapi.yaml\`. */
export interface ContractOperation {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** OpenAPI path template, e.g. \`/v1/operations/{operation_id}\`. */
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
    /** What each optional body member is when left out (its default, or null when nullable), by member path (\`outer.inner\` inside a nested object). */
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
  readonly successBodies: { readonly [status: number]: { readonly validate: ValidateFunction; readonly schema: string } };
  /** \`x-powercontext-refusals\`, in order. */
  readonly refusals: readonly ContractRefusalRule[];
  /** \`x-powercontext-media-from\`: the request member whose value chooses the success media type, or null. */
  readonly mediaFrom: { readonly member: string; readonly values: { readonly [value: string]: string } } | null;
  /** \`x-powercontext-exclude-unset\`: the success answer leaves out the optional members the server did not set. */
  readonly excludeUnset: boolean;
  /** \`x-powercontext-pagination\`: the request member carrying a page cursor, the response members with the next one and with the items; null for no list. */
  readonly pagination: { readonly cursorParameter: string; readonly nextCursorField: string; readonly itemsField: string } | null;
  /** The stored resource the operation works on (\`x-powercontext-resource\`), or null. */
  readonly resource: ContractResourceUse | null;
  /** The anchor resource's records the request names (member paths, \`[]\` after a list), which must exist; null for none. */
  readonly anchor: { readonly resource: string; readonly requests: readonly string[] } | null;
  /** The model rules the flat request reaches (\`x-powercontext-rules\`), where they sit, with their stage and answer. */
  readonly rules: readonly RuleSite<ContractRule>[];
  /** \`x-powercontext-rule-answer\`: how the issues of runtime rules answer on this operation. */
  readonly ruleIssues: "standalone" | "body" | "opaque" | { readonly field: string; readonly reason: string };
}

/** How the server answers a request breaking a runtime rule (docs/architecture.md, "Model rules"). */
export type ContractRuleAnswer =
  | { readonly kind: "issue"; readonly type: string; readonly loc: readonly (string | number)[] | "object" | null }
  | { readonly kind: "opaque" }
  | { readonly kind: "field"; readonly field: string; readonly reason: string }
  | { readonly kind: "refusal"; readonly status: number; readonly code: string; readonly details: { readonly [name: string]: unknown } | null };

/** A model rule with who applies it: \`wire\` rules the release's request model, \`runtime\` rules the server after it. */
export type ContractRule = Rule & { readonly stage: "wire" | "runtime"; readonly answer: ContractRuleAnswer | null };

/** A refusal: the status and the envelope's \`error.code\`. */
export interface ContractRefusal {
  readonly status: number;
  readonly code: string;
  /** Fixed members of \`error.details\`, or null. */
  readonly details: { readonly [name: string]: ContractScalar } | null;
}

/** A member of \`error.details\` and where its value comes from (the request's expected or provided value, or the record's current one). */
export interface ContractRefusalDetail {
  readonly name: string;
  readonly value: "expected" | "provided" | "current";
}

/** A JSON scalar. */
export type ContractScalar = string | number | boolean | null;

/** One stored resource family (a row of \`x-powercontext-resources\`); members are dotted paths into the record. */
export interface ContractResource {
  readonly name: string;
  readonly id: string;
  readonly prefix: string | null;
  readonly within: readonly { readonly member: string; readonly resource: string | null }[];
  readonly version: { readonly member: string; readonly start: number } | null;
  readonly history: boolean;
  readonly etag: string | null;
  readonly sequence: string | null;
  readonly digests: readonly { readonly member: string; readonly of: readonly string[]; readonly object: boolean; readonly bare: boolean }[];
  readonly initial: { readonly [member: string]: ContractScalar | readonly ContractScalar[] };
  readonly anchor: boolean;
  readonly created: string | null;
  readonly updated: string | null;
  readonly order: string | null;
  readonly notFound: ContractRefusal;
}

/** What an operation does to a resource (\`x-powercontext-resource\`). */
export interface ContractResourceUse {
  readonly name: string;
  readonly action: "create" | "read" | "list" | "change" | "put" | "remove" | "revision" | "revisions";
  readonly from: readonly { readonly member: string; readonly request: string }[];
  readonly requires: readonly { readonly request: string; readonly resource: string }[];
  readonly expect: { readonly request: string; readonly conflict: ContractRefusal; readonly details: readonly ContractRefusalDetail[]; readonly absent: number | null } | null;
  readonly ifMatch: { readonly stale: ContractRefusal; readonly missing: ContractRefusal | null; readonly details: readonly ContractRefusalDetail[] } | null;
  readonly idempotency: { readonly request: string; readonly conflict: ContractRefusal } | null;
  readonly replay: { readonly conflict: ContractRefusal } | null;
  readonly notFound: ContractRefusal | null;
  readonly badCursor: ContractRefusal | null;
  readonly fixedId: { readonly member: string; readonly ids: { readonly [value: string]: string }; readonly conflict: ContractRefusal } | null;
  readonly fresh: boolean;
  /** A change that replaces the request members (left-out ones take their defaults) rather than merging over them. */
  readonly replace: boolean;
  /** A list bounded by the highest value of this record member when its first page was served, or null. */
  readonly bound: string | null;
  readonly sameVersion: boolean;
  readonly flag: string | null;
  readonly terminal: { readonly member: string; readonly values: readonly ContractScalar[]; readonly refusal: ContractRefusal; readonly details: readonly ContractRefusalDetail[] } | null;
  readonly omit: { readonly members: readonly string[]; readonly unlessHeader: { readonly name: string; readonly value: string } | null } | null;
  readonly cursor: "opaque" | "last_id";
  readonly stamp: readonly { readonly member: string; readonly value: "now" | "caller" }[];
  /** Kept records match each filter whose \`when\` holds (a listed value: any of them): \`equal\` (or in a requested list), \`contains\` a substring, or \`folded\` equal after NFC and case folding; \`name[]\` in \`member\` reads any item. */
  readonly filters: readonly { readonly member: string; readonly request: string; readonly default: unknown; readonly match: "equal" | "contains" | "folded"; readonly when: { readonly [member: string]: ContractScalar | readonly ContractScalar[] } }[];
  readonly set: { readonly [member: string]: ContractScalar };
  readonly recordAt: string;
  readonly items: string | null;
  readonly page: { readonly cursor: string; readonly nextCursor: string } | null;
  readonly controls: readonly string[];
  readonly limit: { readonly request: string; readonly default: number } | null;
}

`;

function operationLiteral(
  op: OperationIr,
  names: { request: string | null; responses: [number, string][] },
  ir: ApiIr,
): string {
  const parameters = (list: readonly ParameterIr[]) =>
    `[${list.map((p) => parameterLiteral(p, ir.lookup)).join(", ")}]`;
  const responses = op.responses.map((r) => {
    const envelope = r.status >= 400 && r.kind === "json" && !r.envelopeWaived;
    const required = r.headers.filter((h) => h.required).map((h) => tsString(h.name));
    const declared = r.headers.map((h) => tsString(h.name));
    const schemas = Object.fromEntries(
      r.headers
        .filter((h) => h.name.toLowerCase() !== ir.requestIdHeader.toLowerCase())
        .map((h) => [h.name, h.schema ?? {}]),
    );
    return `{ status: ${r.status}, kind: ${tsString(r.kind)}, mediaType: ${r.mediaType === null ? "null" : tsString(r.mediaType)}, envelope: ${envelope}, requiredHeaders: [${required.join(", ")}], headerSchemas: ${jsonLiteral(schemas)}, headers: [${declared.join(", ")}] }`;
  });
  const security = (op.security ?? []).map((alternative) => `[${Object.keys(alternative).map(tsString).join(", ")}]`);
  const bodies = names.responses.map(
    ([status, key]) => `${status}: { validate: validators.${key}, schema: ${tsString(key)} }`,
  );
  return `{
    method: ${tsString(op.method)},
    path: ${tsString(op.path)},
    security: [${security.join(", ")}],
    access: ${accessLiteral(op)},
    parameters: { path: ${parameters(op.parameters.path)}, query: ${parameters(op.parameters.query)}, header: ${parameters(op.parameters.header)} },
    body: ${op.requestBody === null ? "null" : `{ required: ${op.requestBody.required}, defaults: ${jsonLiteral(op.requestBody.defaults)} }`},
    responses: [\n      ${responses.join(",\n      ")},\n    ],
    successStatuses: [${op.successStatuses.join(", ")}],
    acceptedStatus: ${op.accepted === null ? "null" : op.accepted.status},
    requestValidator: ${names.request === null ? "null" : `validators.${names.request}`},
    successBodies: { ${bodies.join(", ")} },
    refusals: [${op.refusals.map(jsonLiteral).join(", ")}],
    mediaFrom: ${op.mediaFrom === null ? "null" : jsonLiteral(op.mediaFrom)},
    excludeUnset: ${op.excludeUnset},
    pagination: ${op.pagination === null ? "null" : jsonLiteral(op.pagination)},
    resource: ${op.resource === null ? "null" : jsonLiteral(op.resource)},
    anchor: ${op.anchor === null ? "null" : jsonLiteral(op.anchor)},
    rules: ${jsonLiteral(ruleSiteData(ir, op, () => true, true))},
    ruleIssues: ${jsonLiteral(op.ruleIssues)},
  }`;
}

/** A JSON value as a TypeScript literal (line and paragraph separators escaped, as in string literals). */
function jsonLiteral(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** A registry row as a literal (its pointer left out: the simulator reads facts, not places). */
function resourceLiteral(resource: ResourceIr): string {
  const { pointer: _pointer, ...facts } = resource;
  return jsonLiteral(facts);
}

function accessLiteral(op: OperationIr): string {
  const access = op.access;
  if (access === null) return "null";
  if (access.kind === "resolver") return `{ resolver: ${tsString(access.resolver)} }`;
  if (access.resource === "scope" && access.scopeIdFrom !== null)
    return `{ action: ${tsString(access.action)}, resource: "scope", scopeIdFrom: ${tsString(access.scopeIdFrom)} }`;
  return `{ action: ${tsString(access.action)}, resource: "server" }`;
}

function parameterLiteral(p: ParameterIr, lookup: RefLookup): string {
  const schema = follow(p.schema, lookup);
  const type = wireType(schema);
  const items = type === "array" ? `, items: ${tsString(wireType(follow(schema.items, lookup)))}` : "";
  return `{ name: ${tsString(p.name)}, required: ${p.required}, type: ${tsString(type)}${items} }`;
}

function follow(schema: unknown, lookup: RefLookup): Json {
  let current = (schema ?? {}) as Json;
  for (let hops = 0; typeof current.$ref === "string" && hops < 32; hops += 1)
    current = (lookup(current.$ref) ?? {}) as Json;
  if (Array.isArray(current.allOf) && current.allOf.length === 1 && current.type === undefined)
    return follow(current.allOf[0], lookup);
  return current;
}

function wireType(schema: Json): "string" | "integer" | "number" | "boolean" | "array" {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  return type === "integer" || type === "number" || type === "boolean" || type === "array" ? type : "string";
}

/** Appends the key of every `#/definitions/<key>` reference in a converted schema (at any depth) to `keys`. */
function definitionRefs(schema: unknown, keys: string[]): void {
  if (schema === null || typeof schema !== "object") return;
  if (Array.isArray(schema)) {
    for (const item of schema) definitionRefs(item, keys);
    return;
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$ref" && typeof value === "string" && value.startsWith("#/definitions/"))
      keys.push(value.slice("#/definitions/".length));
    else definitionRefs(value, keys);
  }
}

/** The schemas reachable from `roots` through `#/definitions/<key>` references, sorted by key. */
function responseSchemasModule(
  ir: ApiIr,
  roots: readonly string[],
  definition: (key: string) => Json | boolean | undefined,
): string {
  const seen = new Map<string, Json | boolean>();
  const pending = [...new Set(roots)];
  while (pending.length > 0) {
    const key = pending.pop() as string;
    if (seen.has(key)) continue;
    const schema = definition(key);
    if (schema === undefined) continue;
    seen.set(key, schema);
    definitionRefs(schema, pending);
  }
  const sorted = Object.fromEntries([...seen.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  let out = banner(ir);
  out += `/** A draft-07 JSON Schema; \`$ref\`s point at \`#/definitions/<key>\` of {@link responseSchemas}. */\nexport type JsonSchema = boolean | { readonly [keyword: string]: unknown };\n\n`;
  out += `/** Every schema a JSON success body reaches, by validator key (response side of the wire). */\n`;
  out += `export const responseSchemas: { readonly [key: string]: JsonSchema } = ${JSON.stringify(sorted, null, 2)};\n`;
  return out;
}
