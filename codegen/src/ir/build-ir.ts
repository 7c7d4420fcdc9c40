import type { Json, LintProfile, RefLookup, RetryClass } from "../domain/types.js";
import { createRequire } from "node:module";
import { SpecError } from "../errors.js";
import type { LoadedSpec } from "../load/load-spec.js";
import { deref, schemaRefName, walkOperations, type RawOperation } from "../load/walk-operations.js";
import { pointer as ptr } from "../errors.js";
import { readErrorCodes, readOperationErrorCodes } from "./error-codes.js";
import { readOperationAnchor, readOperationResource, readResources } from "./resources.js";
import { DEFAULT_REQUEST_ID_HEADER } from "./house-rules.js";
import { mediaKind, preferredMedia } from "../domain/media.js";
import { readModelRules, schemaPointer } from "./model-rules.js";
import { readRuleBranches, readRuleIssues, readRulesAfterAccess, readRulesFirst, ruleSites } from "./rule-sites.js";
import { DEFAULT_NAMES, type OutputNames } from "./names.js";
import type {
  AccessIr,
  ApiIr,
  AsyncIr,
  NotServedIr,
  PaginationIr,
  ReconcileIr,
  ErrorCodeIr,
  HeaderIr,
  ResourceIr,
  IrMethod,
  MediaIr,
  OperationIr,
  ParameterIr,
  ParameterStyle,
  ParametersIr,
  RequestBodyIr,
  ResponseIr,
  SchemaIr,
  SecurityIr,
} from "./model.js";
import type { AnchorRecordsFact } from "../facts/generated/fact-types.js";
import { camelCase, pascalCase } from "./naming.js";
import { checkNameSources } from "./name-sources.js";
import { checkReservedNames } from "./reserved-names.js";
import { readRouter } from "./router.js";
import { readRefusals } from "./refusals.js";
import { readFact } from "../facts/read-fact.js";
import { readAccessFacts } from "./access-facts.js";
import { readMediaFrom } from "./media-from.js";
import { readQueryModel } from "./query-model.js";
import { readAnswers } from "./answers.js";
import { requestDefaults } from "./request-defaults.js";
import { WalkBudget } from "./walk-budget.js";

const require = createRequire(import.meta.url);
const pkg = require("../../package.json") as { name: string; version: string };

/** Name and version written into every banner. */
export const GENERATOR = { name: pkg.name, version: pkg.version } as const;

const SUPPORTED_METHODS = new Set(["get", "post", "put", "patch", "delete"]);
/** Members of the generated base class that operation methods must not shadow. */
const RESERVED_MEMBERS = new Set(["call", "submit", "paginate", "runtime", "constructor"]);

/**
 * Builds the IR from a loaded (checked) spec. Operations are sorted by operationId,
 * schemas by name, so every emitter is deterministic.
 *
 * @param profile - the lint profile the spec was loaded with; `upstream` fills a
 *   missing retry class (`safe` for GET, `never` otherwise)
 * @param names - names the output is written with (default: this repository's)
 * @throws {LintError} `invalid_name` for operationIds that identifiers cannot be
 *   derived from (`name-sources.ts`); `reserved_name` for operationIds that would break JavaScript
 *   objects or the client (see `checkReservedNames`)
 * @throws {SpecError} `name_collision` when two operations map to the same method
 *   name or one shadows a base-class member; `invalid_openapi` for HTTP methods the
 *   client cannot send (HEAD, OPTIONS, TRACE)
 */
export function buildIr(spec: LoadedSpec, profile: LintProfile = "strict", names: OutputNames = DEFAULT_NAMES): ApiIr {
  const { document, lookup } = spec;
  const documentSecurity = securityOf(document.security);
  const errorCodes = readErrorCodes(document);
  const resources = readResources(document);
  const raws = walkOperations(document, lookup);
  checkNameSources(
    raws.map((raw) => ({
      name: String(raw.operation.operationId),
      pointer: `${raw.pointer}/operationId`,
      what: "operationId",
    })),
  );
  const built = raws
    .map((raw) =>
      buildOperation(raw, lookup, profile, documentSecurity, errorCodes, scopeField(document, names), resources),
    )
    .sort((a, b) => (a.operationId < b.operationId ? -1 : a.operationId > b.operationId ? 1 : 0));
  checkReservedNames(built);
  checkMethodNames(built);
  const rawSchemas = ((document.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  const schemas: SchemaIr[] = Object.keys(rawSchemas)
    .sort()
    .map((name) => ({
      name,
      schema: rawSchemas[name] as Json,
      rules: readModelRules(rawSchemas[name] as Json, schemaPointer(name)),
    }));
  const ruled = new Set(schemas.filter((s) => s.rules.length > 0).map((s) => s.name));
  const answers = readAnswers(document, built);
  const rawOf = new Map(raws.map((raw) => [String(raw.operation.operationId), raw]));
  const operations = built.map((op) => {
    // A request in parameters is checked as the release's request model of that name, when the document has one with rules.
    const sites = [
      ...(op.requestBody === null && op.requestTypeName !== null && ruled.has(op.requestTypeName)
        ? [{ at: [], schema: op.requestTypeName }]
        : []),
      ...ruleSites(
        [...op.parameters.path, ...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie],
        op.requestBody?.schema ?? null,
        ruled,
        lookup,
        op.ruleBranches,
      ),
    ];
    const raw = rawOf.get(op.operationId) as RawOperation;
    return {
      ...op,
      answer: answers.get(op.operationId) ?? [],
      ruleSites: sites,
      rulesFirst: readRulesFirst(raw.operation, raw.pointer, sites),
    };
  });
  const info = (document.info ?? {}) as Json;
  return {
    source: { fileName: spec.fileName, sha256: spec.sha256, lint: profile },
    generator: GENERATOR,
    title: String(info.title ?? ""),
    apiVersion: String(info.version ?? ""),
    document,
    written: spec.written,
    lookup,
    operations,
    schemas,
    readWriteMarkers: usesReadWrite(document),
    openapiVersion: String(document.openapi ?? ""),
    names,
    security: documentSecurity,
    errorCodes,
    router: readRouter(
      document,
      operations.map((op) => op.operationId),
    ),
    resources,
    accessFacts: readAccessFacts(
      document,
      raws.map((raw) => ({
        operationId: String(raw.operation.operationId),
        pointer: raw.pointer,
        operation: raw.operation,
      })),
      resources,
      errorCodes,
    ),
    requestIdHeader:
      typeof document["x-powercontext-request-id-header"] === "string"
        ? (document["x-powercontext-request-id-header"] as string)
        : DEFAULT_REQUEST_ID_HEADER,
    requestIdHeaderDeclared: typeof document["x-powercontext-request-id-header"] === "string",
    clientHeaders: { ...((document["x-powercontext-client-headers"] ?? {}) as Record<string, string>) },
    securitySchemes: Object.keys(((document.components as Json | undefined)?.securitySchemes ?? {}) as Json).sort(),
  };
}

/** The request member naming the Scope: the document's `x-powercontext-scope-field`, else the option. */
function scopeField(document: Json, names: OutputNames): string {
  const declared = document["x-powercontext-scope-field"];
  return typeof declared === "string" && declared !== "" ? declared : names.scopeField;
}

function buildOperation(
  raw: RawOperation,
  lookup: RefLookup,
  profile: LintProfile,
  documentSecurity: SecurityIr | null,
  errorCodes: readonly ErrorCodeIr[],
  scopeMember: string,
  resources: readonly ResourceIr[],
): OperationIr {
  const op = raw.operation;
  const operationId = String(op.operationId);
  if (!SUPPORTED_METHODS.has(raw.method)) {
    throw new SpecError(
      "invalid_openapi",
      { pointer: raw.pointer },
      `HTTP method ${raw.method.toUpperCase()} is not supported by the client`,
    );
  }
  const parameters = mergeParameters(raw, lookup);
  const grouped: ParametersIr = {
    path: parameters.filter((p) => p.in === "path"),
    query: parameters.filter((p) => p.in === "query"),
    header: parameters.filter((p) => p.in === "header"),
    cookie: parameters.filter((p) => p.in === "cookie"),
  };
  const pathParameters = grouped.path;
  const queryParameters = grouped.query;
  const requestBody = buildRequestBody(op.requestBody, lookup);
  const responses = buildResponses((op.responses ?? {}) as Json, lookup, raw.pointer);
  const asyncExt = op["x-powercontext-async"] as Json | undefined;
  const acceptedStatus = asyncExt === undefined ? null : Number(asyncExt.accepted_status);
  const successResponses = responses.filter((r) => r.status >= 200 && r.status < 300 && r.status !== acceptedStatus);
  const success = successResponses[0] as ResponseIr;
  const typeName = pascalCase(operationId);
  const requestLocation =
    requestBody !== null ? "body" : queryParameters.length > 0 ? "query" : pathParameters.length > 0 ? "path" : null;
  const declaredRetry = op["x-powercontext-retry-class"] as RetryClass | undefined;
  const pagination = fact<PaginationIr>("pagination", op["x-powercontext-pagination"]);
  // Every member a request may carry: the parameters by wire name and the body's properties, any variant's.
  const members = [
    ...parameters.map((p) => p.name),
    ...(requestBody === null ? [] : propertyNames(requestBody.schema, lookup, 0, true)),
  ];
  return {
    operationId,
    methodName: camelCase(operationId),
    typeName,
    method: raw.method.toUpperCase() as IrMethod,
    path: raw.path,
    summary: typeof op.summary === "string" ? op.summary : "",
    description: typeof op.description === "string" ? op.description : "",
    deprecated: op.deprecated === true,
    pointer: raw.pointer,
    operationObject: op,
    pathParameters,
    queryParameters,
    parameters: grouped,
    requestBody,
    requestLocation,
    requestTypeName:
      requestLocation === null
        ? null
        : requestLocation === "body" && requestBody?.schemaName
          ? requestBody.schemaName
          : `${typeName}Request`,
    requestRequired: parameters.some((p) => p.required) || requestBody?.required === true,
    responses,
    success,
    successResponses,
    successStatuses: responses.filter((r) => r.status >= 200 && r.status < 300).map((r) => r.status),
    notModified: responses.find((r) => r.status === 304) ?? null,
    accepted: acceptedStatus === null ? null : (responses.find((r) => r.status === acceptedStatus) ?? null),
    errorStatuses: responses.filter((r) => r.status >= 400).map((r) => r.status),
    errorCodes: readOperationErrorCodes(
      op,
      raw.pointer,
      responses.map((r) => r.status),
      errorCodes,
    ),
    retryClass: declaredRetry ?? (profile === "upstream" && raw.method === "get" ? "safe" : "never"),
    retryClassDefaulted: declaredRetry === undefined,
    permission:
      accessOf(op)?.kind === "action"
        ? (accessOf(op) as { action: string }).action
        : typeof op["x-powercontext-permission"] === "string"
          ? (op["x-powercontext-permission"] as string)
          : null,
    access: accessOf(op),
    scope:
      parameters.some((p) => p.name === scopeMember) || (requestBody?.propertyNames.includes(scopeMember) ?? false),
    async: fact<AsyncIr>("async", asyncExt),
    reconcile: fact<ReconcileIr>("reconcile", op["x-powercontext-reconcile"]),
    pagination,
    notServed: fact<NotServedIr>("not-served", op["x-powercontext-not-served"]),
    refusals: readRefusals(op, raw.pointer, members, errorCodes, resources),
    mediaFrom: readMediaFrom(op, raw.pointer, members, success),
    answer: [],
    excludeUnset: op["x-powercontext-exclude-unset"] === true,
    queryModel: readQueryModel(op, raw.pointer, queryParameters, lookup),
    resource: readOperationResource(op, raw.pointer, resources, {
      page:
        pagination === null
          ? null
          : {
              cursor: pagination.cursorParameter,
              nextCursor: pagination.nextCursorField,
              items: pagination.itemsField,
            },
      requestMembers: [...parameters.map((p) => p.name), ...(requestBody?.propertyNames ?? [])],
      requestDefault: (member) => requestDefault(parameters, requestBody, member, lookup),
    }),
    anchor: anchorFirst(
      readOperationAnchor(op, raw.pointer, resources, anchorPath(accessOf(op)), [
        ...parameters.map((p) => p.name),
        ...(requestBody?.propertyNames ?? []),
      ]),
      op,
      scopeMember,
      !parameters.some((p) => p.name === scopeMember) && (requestBody?.propertyNames.includes(scopeMember) ?? false),
    ),
    ruleSites: [],
    ruleIssues: readRuleIssues(op, raw.pointer),
    rulesAfterAccess: readRulesAfterAccess(op, raw.pointer),
    // Read once the rule sites are known (buildIr).
    rulesFirst: null,
    ruleBranches: readRuleBranches(op, raw.pointer, errorCodes),
    tags: Array.isArray(op.tags) ? op.tags.map(String) : [],
    security: op.security === undefined ? documentSecurity : securityOf(op.security),
  };
}

/** An extension read by its definition in extensions.schema.json (`facts/read-fact.ts`); null when the operation has none. */
function fact<T>(definition: string, value: unknown): T | null {
  return value === undefined ? null : (readFact(definition, value) as T);
}

function securityOf(node: unknown): SecurityIr | null {
  if (!Array.isArray(node)) return null;
  return node.map((requirement) =>
    Object.fromEntries(
      Object.entries((requirement ?? {}) as Json).map(([scheme, scopes]) => [
        scheme,
        Array.isArray(scopes) ? scopes.map(String) : [],
      ]),
    ),
  );
}

const DEFAULT_STYLE: Record<ParameterIr["in"], ParameterStyle> = {
  path: "simple",
  query: "form",
  header: "simple",
  cookie: "form",
};

/** Path-item parameters overridden by operation parameters with the same name and location. */
function mergeParameters(raw: RawOperation, lookup: RefLookup): ParameterIr[] {
  const byKey = new Map<string, ParameterIr>();
  const own = Array.isArray(raw.operation.parameters) ? raw.operation.parameters : [];
  const sources = [
    ...raw.pathItemParameters.map((node, index) => ({ node, at: `${ptr("paths", raw.path)}/parameters/${index}` })),
    ...own.map((node, index) => ({ node, at: `${raw.pointer}/parameters/${index}` })),
  ];
  for (const { node, at } of sources) {
    const p = deref(node, lookup) as Json;
    const location = p.in as ParameterIr["in"];
    if (!(location in DEFAULT_STYLE)) continue;
    const style = (typeof p.style === "string" ? p.style : DEFAULT_STYLE[location]) as ParameterStyle;
    // Header names are case-insensitive: If-Match and if-match are one parameter.
    const key = `${location}:${location === "header" ? String(p.name).toLowerCase() : String(p.name)}`;
    byKey.set(key, {
      name: String(p.name),
      in: location,
      required: p.required === true || location === "path",
      schema: (p.schema ?? {}) as Json,
      description: typeof p.description === "string" ? p.description : null,
      style,
      explode: typeof p.explode === "boolean" ? p.explode : style === "form",
      pointer: at,
    });
  }
  return [...byKey.values()];
}

function buildRequestBody(node: unknown, lookup: RefLookup): RequestBodyIr | null {
  if (node === undefined) return null;
  const body = deref(node, lookup) as Json;
  const content = (body.content ?? {}) as Json;
  const mediaType = Object.keys(content).find((type) => mediaKind(type) === "json");
  if (mediaType === undefined) return null;
  const schema = ((content[mediaType] as Json).schema ?? {}) as Json;
  return {
    schemaName: schemaRefName(schema) ?? null,
    schema,
    required: body.required === true,
    mediaType,
    propertyNames: propertyNames(schema, lookup, 0),
    defaults: requestDefaults(schema, lookup),
  };
}

/**
 * The anchor with `first` set when the server looks the Scope up before its handler
 * runs: an operation of `x-powercontext-scope-mode: current` whose body (not a path
 * parameter) carries the Scope member, which the anchor names.
 */
function anchorFirst(
  anchor: AnchorRecordsFact | null,
  op: Json,
  scopeMember: string,
  scopeInBody: boolean,
): AnchorRecordsFact | null {
  if (anchor === null || op["x-powercontext-scope-mode"] !== "current" || !scopeInBody) return anchor;
  return anchor.requests.includes(scopeMember) ? { ...anchor, first: scopeMember } : anchor;
}

/** The access rule's resource type and `scope-id-from` path, when it names one. */
function anchorPath(access: AccessIr | null): { resource: string; path: string } | null {
  return access?.kind === "action" && access.scopeIdFrom !== null
    ? { resource: access.resource, path: access.scopeIdFrom }
    : null;
}

/** The default the request gives a top-level member: its parameter's schema default, else its body property's. */
function requestDefault(
  parameters: readonly ParameterIr[],
  body: RequestBodyIr | null,
  member: string,
  lookup: RefLookup,
): unknown {
  const parameter = parameters.find((p) => p.name === member);
  if (parameter !== undefined) return (deref(parameter.schema, lookup) as Json | undefined)?.default;
  return body === null ? undefined : propertyDefault(body.schema, member, lookup, 0);
}

function propertyDefault(node: unknown, member: string, lookup: RefLookup, depth: number): unknown {
  const schema = deref(node, lookup) as Json | undefined;
  if (schema === undefined || schema === null || typeof schema !== "object" || depth > 16) return undefined;
  const own = ((schema.properties ?? {}) as Json)[member];
  if (own !== undefined) return (deref(own, lookup) as Json | undefined)?.default;
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) {
    const found = propertyDefault(part, member, lookup, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Top-level property names of a schema through `$ref` and `allOf`; with `branches`, through `oneOf` and `anyOf` too (a member some variant has). */
function propertyNames(
  node: unknown,
  lookup: RefLookup,
  depth: number,
  branches = false,
  budget: WalkBudget = new WalkBudget(),
): string[] {
  budget.spend(node);
  const schema = deref(node, lookup) as Json | undefined;
  if (schema === undefined || schema === null || typeof schema !== "object" || depth > 16) return [];
  const own = Object.keys((schema.properties ?? {}) as Json);
  const parts = [
    ...(Array.isArray(schema.allOf) ? schema.allOf : []),
    ...(branches
      ? [...(Array.isArray(schema.oneOf) ? schema.oneOf : []), ...(Array.isArray(schema.anyOf) ? schema.anyOf : [])]
      : []),
  ];
  return [...new Set([...own, ...parts.flatMap((s) => propertyNames(s, lookup, depth + 1, branches, budget))])];
}

function buildResponses(responses: Json, lookup: RefLookup, operationPointer: string): ResponseIr[] {
  return Object.entries(responses)
    .filter(([status]) => /^[1-5]\d\d$/.test(status))
    .map(([status, node]): ResponseIr => {
      const response = deref(node, lookup) as Json;
      const media: MediaIr[] = Object.entries((response.content ?? {}) as Json).map(([mediaType, entry]) => {
        const schema = (entry as Json | null)?.schema;
        return { mediaType, kind: mediaKind(mediaType), schema: schema === undefined ? null : (schema as Json) };
      });
      const preferred = preferredMedia(media);
      const json = preferred?.kind === "json" ? preferred : undefined;
      const schema = json === undefined ? null : (json.schema ?? {});
      return {
        status: Number(status),
        description: typeof response.description === "string" ? response.description : "",
        schema,
        schemaName: schema === null ? null : (schemaRefName(schema) ?? null),
        kind: preferred?.kind ?? "none",
        mediaType: preferred?.mediaType ?? null,
        media,
        headers: buildHeaders((response.headers ?? {}) as Json, lookup),
        envelopeWaived: response["x-powercontext-error-envelope"] === false,
        pointer: `${operationPointer}/responses/${status}`,
      };
    })
    .sort((a, b) => a.status - b.status);
}

function buildHeaders(headers: Json, lookup: RefLookup): HeaderIr[] {
  return Object.entries(headers).map(([name, node]) => {
    const header = (deref(node, lookup) ?? {}) as Json;
    return {
      name,
      required: header.required === true,
      schema: header.schema === undefined ? null : (header.schema as Json),
    };
  });
}

function checkMethodNames(operations: readonly OperationIr[]): void {
  const owners = new Map<string, OperationIr>();
  for (const op of operations) {
    const names = [
      op.methodName,
      ...(op.async ? [`submit${op.typeName}`] : []),
      ...(op.pagination ? [`${op.methodName}All`] : []),
    ];
    for (const name of names) {
      const previous = owners.get(name);
      if (RESERVED_MEMBERS.has(name)) {
        throw new SpecError(
          "name_collision",
          { pointer: `${op.pointer}/operationId` },
          `operationId "${op.operationId}" becomes method ${name}, which the client base class reserves`,
        );
      }
      if (previous !== undefined) {
        throw new SpecError(
          "name_collision",
          { pointer: `${op.pointer}/operationId` },
          `operationId "${op.operationId}" and "${previous.operationId}" both become method ${name}`,
        );
      }
      owners.set(name, op);
    }
  }
}

/** Whether any member `readOnly: true` or `writeOnly: true` stands anywhere under the component schemas or the paths (stops at the first). */
function usesReadWrite(document: Json): boolean {
  const components = (document.components ?? {}) as Json;
  const stack: unknown[] = [components.schemas, document.paths];
  for (let node = stack.pop(); stack.length > 0 || node !== undefined; node = stack.pop()) {
    if (node === null || typeof node !== "object") continue;
    const record = node as Record<string, unknown>;
    if (record.readOnly === true && Object.hasOwn(record, "readOnly")) return true;
    if (record.writeOnly === true && Object.hasOwn(record, "writeOnly")) return true;
    for (const key in record) if (Object.hasOwn(record, key)) stack.push(record[key]);
  }
  return false;
}

/** Reads `x-powercontext-access`: `{action, resource: {type, scope-id-from?}}` or `{resolver}`; null when absent or of another form. */
function accessOf(op: Json): AccessIr | null {
  const access = op["x-powercontext-access"] as Json | undefined;
  if (access === undefined || access === null || typeof access !== "object") return null;
  if (typeof access.resolver === "string") return { kind: "resolver", resolver: access.resolver };
  if (typeof access.action !== "string") return null;
  const resource = (access.resource ?? {}) as Json;
  return {
    kind: "action",
    action: access.action,
    resource: typeof resource.type === "string" ? resource.type : "server",
    scopeIdFrom: typeof resource["scope-id-from"] === "string" ? resource["scope-id-from"] : null,
  };
}
