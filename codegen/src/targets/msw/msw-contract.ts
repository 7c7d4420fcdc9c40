import type { Json, RefLookup } from "../../domain/types.js";
import type { ApiIr, OperationIr, ParameterIr } from "../../ir/model.js";
import { tsString } from "../../emit/ts/syntax.js";
import { expression, tsValue } from "../../emit/ts/value.js";
import { banner } from "../../emit/banner.js";
import {
  type OperationValidatorNames,
  validatorSchemas,
  type ValidatorSchemas,
} from "../../emit/validator-code/schemas.js";
import { ruleSiteData } from "../../emit/rule-tables.js";

/** Where the contract imports its types from: the mock package's hand-written `src/contract/types.ts`. */
export const CONTRACT_TYPES = "../contract/types.js";

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
 * rule, the names of its generated request and response validators (the
 * SDK's validators module, {@link SDK_VALIDATORS}: the mock package has no copy) and
 * its contract facts, all written as data ({@link tsValue}) that satisfies the mock's
 * hand-written types ({@link CONTRACT_TYPES}). The response-schema module
 * holds, by validator key, every schema a success body reaches, so the responder
 * can build a valid body without the spec file.
 *
 * @param schemas - the IR's validator schemas, shared with `emitValidators` in one run
 */
export function emitMswContract(ir: ApiIr, schemas: ValidatorSchemas = validatorSchemas(ir)): MswContractModules {
  let out = banner(ir);
  out += `import type { ContractOperation, ContractResource } from ${tsString(CONTRACT_TYPES)};\n`;
  out += `import * as validators from ${tsString(SDK_VALIDATORS)};\n\n`;
  const roots: string[] = [];
  const operations: Record<string, unknown> = {};
  for (const op of ir.operations) {
    const names = schemas.perOperation.get(op.operationId) ?? { request: null, responses: [], branches: [] };
    roots.push(...names.responses.map(([, key]) => key));
    operations[op.operationId] = operationValue(op, names, ir);
  }
  out += `/** The operations of the contract, keyed by operationId, sorted. */\n`;
  out += `export const contractOperations = ${tsValue(operations, 2)} as const satisfies Record<string, ContractOperation>;\n\n`;
  out += `/** Every operationId of the contract. */\nexport type ContractOperationId = keyof typeof contractOperations;\n\n`;
  // The document's own security names the schemes of the deployment's principals; an
  // operation secured by other schemes only carries a credential its domain checks.
  const principalSchemes = [...new Set((ir.security ?? []).flatMap((alternative) => Object.keys(alternative)))].sort();
  out += `/** The security schemes of the document's own \`security\`: the credentials that name a principal. */\n`;
  out += `export const contractPrincipalSchemes: readonly string[] = ${tsValue(principalSchemes)};\n\n`;
  out += `/** The headers the spec's clients send on every request (\`x-powercontext-client-headers\`), which a page's CORS request may carry. */\n`;
  out += `export const contractClientHeaders: readonly string[] = ${tsValue(Object.keys(ir.clientHeaders))};\n\n`;
  // A registry row without its pointer: the simulator reads facts, not places.
  // A record's shape names the response-side schema it is answered in, which the responder's module then holds.
  const resources = Object.fromEntries(
    ir.resources.map(({ pointer: _pointer, ...row }) => {
      const shape = row.shape === null ? null : (schemas.component("response", row.shape) ?? null);
      if (shape !== null) roots.push(shape);
      return [row.name, { ...row, shape }];
    }),
  );
  out += `/** The stored resource families (\`x-powercontext-resources\`), keyed by name. */\n`;
  out += `export const contractResources: { readonly [name: string]: ContractResource } = ${tsValue(resources, 1)};\n`;
  // The validators' schemas drop `default` (an annotation); the responder answers a member the
  // record lacks with its default, as the release's models serialise it, so the mock's copy keeps them.
  const defaults = memberDefaults(ir, schemas);
  const definition = (key: string) => withMemberDefaults(schemas.definition(key), defaults.get(key));
  return { contract: out, responseSchemas: responseSchemasModule(ir, roots, definition) };
}

/** The `default` of each top-level member of every component schema that declares one, by response-side validator key. */
function memberDefaults(ir: ApiIr, schemas: ValidatorSchemas): Map<string, Map<string, unknown>> {
  const out = new Map<string, Map<string, unknown>>();
  for (const { name, schema } of ir.schemas) {
    const key = schemas.component("response", name);
    const properties = (schema.properties ?? {}) as Record<string, Json>;
    const found = new Map<string, unknown>();
    for (const [member, node] of Object.entries(properties))
      if (node !== null && typeof node === "object" && "default" in node) found.set(member, node.default);
    if (key !== undefined && found.size > 0) out.set(key, found);
  }
  return out;
}

/** `schema` with `defaults` set on its top-level members (a copy; the validators' schema stays as it is). */
function withMemberDefaults(
  schema: Json | boolean | undefined,
  defaults: Map<string, unknown> | undefined,
): Json | boolean | undefined {
  if (defaults === undefined || typeof schema !== "object" || typeof schema.properties !== "object") return schema;
  const properties = { ...(schema.properties as Record<string, unknown>) };
  for (const [member, value] of defaults) {
    const node = properties[member];
    if (node !== null && typeof node === "object") properties[member] = { ...(node as Json), default: value };
  }
  return { ...schema, properties };
}

/** What the simulator knows of one operation, as the value `ContractOperation` types (the hand-written types of {@link CONTRACT_TYPES}). */
function operationValue(op: OperationIr, names: OperationValidatorNames, ir: ApiIr): Record<string, unknown> {
  const parameters = (list: readonly ParameterIr[]) => list.map((p) => parameterValue(p, ir.lookup));
  const requestId = ir.requestIdHeader.toLowerCase();
  return {
    method: op.method,
    path: op.path,
    security: (op.security ?? []).map((alternative) => Object.keys(alternative)),
    access: accessValue(op),
    parameters: {
      path: parameters(op.parameters.path),
      query: parameters(op.parameters.query),
      header: parameters(op.parameters.header),
    },
    body: op.requestBody === null ? null : { required: op.requestBody.required, defaults: op.requestBody.defaults },
    responses: op.responses.map((r) => ({
      status: r.status,
      kind: r.kind,
      mediaType: r.mediaType,
      envelope: r.status >= 400 && r.kind === "json" && !r.envelopeWaived,
      requiredHeaders: r.headers.filter((h) => h.required).map((h) => h.name),
      headerSchemas: Object.fromEntries(
        r.headers.filter((h) => h.name.toLowerCase() !== requestId).map((h) => [h.name, h.schema ?? {}]),
      ),
      headers: r.headers.map((h) => h.name),
    })),
    successStatuses: op.successStatuses,
    acceptedStatus: op.accepted === null ? null : op.accepted.status,
    requestValidator: names.request === null ? null : expression(`validators.${names.request}`),
    successBodies: Object.fromEntries(
      names.responses.map(([status, key]) => [status, { validate: expression(`validators.${key}`), schema: key }]),
    ),
    refusals: op.refusals,
    mediaFrom: op.mediaFrom,
    answer: op.answer,
    excludeUnset: op.excludeUnset,
    queryModel: op.queryModel,
    pagination: op.pagination,
    resource: op.resource,
    anchor: op.anchor,
    rules: ruleSiteData(ir, op, () => true, true),
    ruleIssues: op.ruleIssues,
    rulesAfterAccess: op.rulesAfterAccess,
    rulesFirst: op.rulesFirst,
    bodyBranches:
      op.ruleBranches === null || names.branches.length === 0
        ? null
        : {
            parameter: op.ruleBranches.parameter,
            validators: Object.fromEntries(
              names.branches.map(([value, key]) => [value, expression(`validators.${key}`)]),
            ),
            refusals: op.ruleBranches.refusals,
          },
  };
}

/** `x-powercontext-access` as the contract types it: a permission on a Scope (named by a request member) or on the server, or a resolver. */
function accessValue(op: OperationIr): Record<string, string> | null {
  const access = op.access;
  if (access === null) return null;
  if (access.kind === "resolver") return { resolver: access.resolver };
  if (access.resource === "scope" && access.scopeIdFrom !== null)
    return { action: access.action, resource: "scope", scopeIdFrom: access.scopeIdFrom };
  return { action: access.action, resource: "server" };
}

function parameterValue(p: ParameterIr, lookup: RefLookup): Record<string, unknown> {
  const schema = follow(p.schema, lookup);
  const type = wireType(schema);
  return {
    name: p.name,
    required: p.required,
    type,
    items: type === "array" ? wireType(follow(schema.items, lookup)) : undefined,
  };
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
