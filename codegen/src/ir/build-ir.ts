import { createRequire } from "node:module";
import { SpecError } from "../errors.js";
import type { LintProfile, RetryClass } from "../load/lint.js";
import type { LoadedSpec } from "../load/load-spec.js";
import type { RefLookup } from "../load/resolve-refs.js";
import { deref, schemaRefName, walkOperations, type Json, type RawOperation } from "../load/walk-operations.js";
import type { ApiIr, IrMethod, OperationIr, ParameterIr, RequestBodyIr, ResponseIr, SchemaIr } from "./model.js";
import { camelCase, pascalCase } from "./naming.js";
import { checkReservedNames } from "./reserved-names.js";

const require = createRequire(import.meta.url);
const pkg = require("../../package.json") as { name: string; version: string };

/** Name and version written into every banner. */
export const GENERATOR = { name: pkg.name, version: pkg.version } as const;

const SUPPORTED_METHODS = new Set(["get", "post", "put", "patch", "delete"]);
/** Members of the generated base class that operation methods must not shadow. */
const RESERVED_MEMBERS = new Set(["call", "submit", "paginate", "constructor"]);

/**
 * Builds the IR from a loaded (checked) spec. Operations are sorted by operationId,
 * schemas by name, so every emitter is deterministic.
 *
 * @param profile - the lint profile the spec was loaded with; `upstream` fills a
 *   missing retry class (`safe` for GET, `never` otherwise)
 * @throws {LintError} `reserved_name` for operationIds that would break JavaScript
 *   objects or the client (see `checkReservedNames`)
 * @throws {SpecError} `name_collision` when two operations map to the same method
 *   name or one shadows a base-class member; `invalid_openapi` for HTTP methods the
 *   client cannot send (HEAD, OPTIONS, TRACE)
 */
export function buildIr(spec: LoadedSpec, profile: LintProfile = "strict"): ApiIr {
  const { document, lookup } = spec;
  const operations = walkOperations(document, lookup)
    .map((raw) => buildOperation(raw, lookup, profile))
    .sort((a, b) => (a.operationId < b.operationId ? -1 : a.operationId > b.operationId ? 1 : 0));
  checkReservedNames(operations);
  checkMethodNames(operations);
  const rawSchemas = ((document.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  const schemas: SchemaIr[] = Object.keys(rawSchemas)
    .sort()
    .map((name) => ({ name, schema: rawSchemas[name] as Json }));
  const info = (document.info ?? {}) as Json;
  return {
    source: { fileName: spec.fileName, sha256: spec.sha256, lint: profile },
    generator: GENERATOR,
    title: String(info.title ?? ""),
    apiVersion: String(info.version ?? ""),
    document,
    lookup,
    operations,
    schemas,
    readWriteMarkers: usesReadWrite(document),
  };
}

function buildOperation(raw: RawOperation, lookup: RefLookup, profile: LintProfile): OperationIr {
  const op = raw.operation;
  const operationId = String(op.operationId);
  if (!SUPPORTED_METHODS.has(raw.method)) {
    throw new SpecError("invalid_openapi", { pointer: raw.pointer }, `HTTP method ${raw.method.toUpperCase()} is not supported by the client`);
  }
  const parameters = mergeParameters(raw, lookup);
  const pathParameters = parameters.filter((p) => p.in === "path");
  const queryParameters = parameters.filter((p) => p.in === "query");
  const requestBody = buildRequestBody(op.requestBody, lookup);
  const responses = buildResponses((op.responses ?? {}) as Json, lookup);
  const asyncExt = op["x-powercontext-async"] as Json | undefined;
  const acceptedStatus = asyncExt === undefined ? null : Number(asyncExt.accepted_status);
  const success = responses.find((r) => r.status >= 200 && r.status < 300 && r.status !== acceptedStatus) as ResponseIr;
  const typeName = pascalCase(operationId);
  const requestLocation = requestBody !== null ? "body" : queryParameters.length > 0 ? "query" : pathParameters.length > 0 ? "path" : null;
  const declaredRetry = op["x-powercontext-retry-class"] as RetryClass | undefined;
  const reconcile = op["x-powercontext-reconcile"] as Json | undefined;
  const pagination = op["x-powercontext-pagination"] as Json | undefined;
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
    pathParameters,
    queryParameters,
    requestBody,
    requestLocation,
    requestTypeName: requestLocation === null ? null : requestLocation === "body" && requestBody?.schemaName ? requestBody.schemaName : `${typeName}Request`,
    requestRequired: parameters.some((p) => p.required) || requestBody?.required === true,
    responses,
    success,
    accepted: acceptedStatus === null ? null : (responses.find((r) => r.status === acceptedStatus) ?? null),
    errorStatuses: responses.filter((r) => r.status >= 400).map((r) => r.status),
    retryClass: declaredRetry ?? (profile === "upstream" && raw.method === "get" ? "safe" : "never"),
    retryClassDefaulted: declaredRetry === undefined,
    permission: typeof op["x-powercontext-permission"] === "string" ? (op["x-powercontext-permission"] as string) : null,
    scope: parameters.some((p) => p.name === "scope_id") || (requestBody?.propertyNames.includes("scope_id") ?? false),
    async: asyncExt === undefined ? null : { acceptedStatus: Number(asyncExt.accepted_status), pollOperation: String(asyncExt.poll_operation), resultField: String(asyncExt.result_field) },
    reconcile:
      reconcile === undefined
        ? null
        : {
            readOperation: String(reconcile.read_operation),
            idParameter: String(reconcile.id_parameter),
            holdsWhen: { status: ((reconcile.holds_when as Json).status as string[]).map(String) },
          },
    pagination:
      pagination === undefined
        ? null
        : { cursorParameter: String(pagination.cursor_parameter), nextCursorField: String(pagination.next_cursor_field), itemsField: String(pagination.items_field) },
  };
}

/** Path-item parameters overridden by operation parameters with the same name and location. */
function mergeParameters(raw: RawOperation, lookup: RefLookup): ParameterIr[] {
  const byKey = new Map<string, ParameterIr>();
  const own = Array.isArray(raw.operation.parameters) ? raw.operation.parameters : [];
  for (const node of [...raw.pathItemParameters, ...own]) {
    const p = deref(node, lookup) as Json;
    if (p.in !== "path" && p.in !== "query") continue;
    byKey.set(`${String(p.in)}:${String(p.name)}`, {
      name: String(p.name),
      in: p.in,
      required: p.required === true || p.in === "path",
      schema: (p.schema ?? {}) as Json,
      description: typeof p.description === "string" ? p.description : null,
    });
  }
  return [...byKey.values()];
}

function buildRequestBody(node: unknown, lookup: RefLookup): RequestBodyIr | null {
  if (node === undefined) return null;
  const body = deref(node, lookup) as Json;
  const media = ((body.content ?? {}) as Json)["application/json"] as Json | undefined;
  if (media === undefined) return null;
  const schema = (media.schema ?? {}) as Json;
  return { schemaName: schemaRefName(schema) ?? null, schema, required: body.required === true, propertyNames: propertyNames(schema, lookup, 0) };
}

function propertyNames(node: unknown, lookup: RefLookup, depth: number): string[] {
  const schema = deref(node, lookup) as Json | undefined;
  if (schema === undefined || schema === null || typeof schema !== "object" || depth > 16) return [];
  const own = Object.keys((schema.properties ?? {}) as Json);
  const inherited = Array.isArray(schema.allOf) ? schema.allOf.flatMap((s) => propertyNames(s, lookup, depth + 1)) : [];
  return [...new Set([...own, ...inherited])];
}

function buildResponses(responses: Json, lookup: RefLookup): ResponseIr[] {
  return Object.entries(responses)
    .map(([status, node]) => {
      const response = deref(node, lookup) as Json;
      const media = ((response.content ?? {}) as Json)["application/json"] as Json | undefined;
      const schema = media === undefined ? null : ((media.schema ?? {}) as Json);
      return {
        status: Number(status),
        description: typeof response.description === "string" ? response.description : "",
        schema,
        schemaName: schema === null ? null : (schemaRefName(schema) ?? null),
      };
    })
    .sort((a, b) => a.status - b.status);
}

function checkMethodNames(operations: readonly OperationIr[]): void {
  const owners = new Map<string, OperationIr>();
  for (const op of operations) {
    const names = [op.methodName, ...(op.async ? [`submit${op.typeName}`] : []), ...(op.pagination ? [`${op.methodName}All`] : [])];
    for (const name of names) {
      const previous = owners.get(name);
      if (RESERVED_MEMBERS.has(name)) {
        throw new SpecError("name_collision", { pointer: `${op.pointer}/operationId` }, `operationId "${op.operationId}" becomes method ${name}, which the client base class reserves`);
      }
      if (previous !== undefined) {
        throw new SpecError("name_collision", { pointer: `${op.pointer}/operationId` }, `operationId "${op.operationId}" and "${previous.operationId}" both become method ${name}`);
      }
      owners.set(name, op);
    }
  }
}

function usesReadWrite(document: Json): boolean {
  const components = (document.components ?? {}) as Json;
  const text = JSON.stringify([components.schemas ?? {}, document.paths ?? {}]);
  return /"(readOnly|writeOnly)":true/.test(text);
}
