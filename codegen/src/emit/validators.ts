import { Ajv } from "ajv";
import standaloneModule from "ajv/dist/standalone/index.js";
import { toJsonSchema, type SchemaMode } from "../ir/json-schema.js";
import type { ApiIr, OperationIr } from "../ir/model.js";
import { UniqueNames, propertyKey, variableName } from "../ir/naming.js";
import type { Json } from "../load/walk-operations.js";
import { banner } from "./banner.js";
import { collectFormats, validatorFormats } from "./formats.js";

/** The three validator modules, as text. */
export interface ValidatorModules {
  /** `validators.js`: ajv standalone code (ESM), one export per validator. */
  readonly js: string;
  /** `validators.d.ts`: declarations of those exports. */
  readonly dts: string;
  /** `validator-map.ts`: operationId -> `{ request?, responses: { [status]: validate } }`. */
  readonly map: string;
}

const ROOT_ID = "powercontext";
// CommonJS module: `module.exports` is the function and `.default` repeats it.
const standaloneCode = standaloneModule.default;

interface OperationValidatorNames {
  request: string | null;
  responses: [number, string][];
}

/**
 * Compiles the validators ahead of time with one ajv instance: every component
 * schema is added once (request and response views, see `ir/json-schema.ts`) and
 * referenced, never inlined, so a schema used by many operations is one function.
 * Validators are compiled for each operation's request (body or parameters) and its
 * success and accepted responses; error responses are decoded by the SDK's envelope
 * rule instead.
 *
 * The emitted JavaScript imports only `ajv/dist/runtime/*` helpers.
 */
export function emitValidators(ir: ApiIr): ValidatorModules {
  const definitions: Record<string, Json | boolean> = {};
  const keys = new UniqueNames();
  const componentKey = new Map<string, string>();
  for (const mode of ["request", "response"] as const) {
    for (const { name } of ir.schemas) componentKey.set(`${mode}:${name}`, keys.claim(`${mode}_${variableName(name)}`));
  }
  const refTo = (mode: SchemaMode) => (name: string) => `#/definitions/${componentKey.get(`${mode}:${name}`) ?? "missing"}`;
  for (const mode of ["request", "response"] as const) {
    for (const { name, schema } of ir.schemas) definitions[componentKey.get(`${mode}:${name}`) as string] = toJsonSchema(schema, mode, refTo(mode), ir.lookup);
  }

  const exportsByKey = new Map<string, string>();
  const perOperation = new Map<string, OperationValidatorNames>();
  const use = (key: string) => {
    exportsByKey.set(key, key);
    return key;
  };
  const forSchema = (op: OperationIr, role: string, schemaName: string | null, schema: Json, mode: SchemaMode): string => {
    if (schemaName !== null) return use(componentKey.get(`${mode}:${schemaName}`) as string);
    const key = keys.claim(`op_${variableName(op.operationId)}_${role}`);
    definitions[key] = toJsonSchema(schema, mode, refTo(mode), ir.lookup);
    return use(key);
  };
  for (const op of ir.operations) {
    const names: OperationValidatorNames = { request: null, responses: [] };
    if (op.requestLocation !== null) names.request = forSchema(op, "request", requestSchemaName(op), requestSchema(op), "request");
    for (const response of [op.success, op.accepted]) {
      if (response?.schema) names.responses.push([response.status, forSchema(op, String(response.status), response.schemaName, response.schema, "response")]);
    }
    perOperation.set(op.operationId, names);
  }

  const root = { $id: ROOT_ID, definitions };
  const ajv = new Ajv({
    strict: false,
    allErrors: false,
    inlineRefs: false,
    allowUnionTypes: true,
    logger: false,
    validateSchema: false,
    formats: validatorFormats(collectFormats(definitions)),
    // ajv's code optimiser costs about a third of compile time for a few percent of code size.
    code: { source: true, esm: true, lines: false, optimize: false },
  });
  ajv.addSchema(root);
  const sortedKeys = [...exportsByKey.keys()].sort();
  const refs = Object.fromEntries(sortedKeys.map((key) => [key, `${ROOT_ID}#/definitions/${key}`]));
  const code = sortedKeys.length === 0 ? `"use strict";\n` : standaloneCode(ajv, refs);
  return {
    js: banner(ir) + importRuntime(code) + "\n",
    dts: banner(ir) + `import type { ValidateFunction } from "ajv";\n\n` + sortedKeys.map((key) => `export declare const ${key}: ValidateFunction;\n`).join(""),
    map: emitMap(ir, perOperation),
  };
}

function requestSchemaName(op: OperationIr): string | null {
  const onlyBody = op.pathParameters.length === 0 && op.queryParameters.length === 0;
  return onlyBody ? (op.requestBody?.schemaName ?? null) : null;
}

/** The flat request object as one schema: parameters by wire name plus the body's own constraints. */
function requestSchema(op: OperationIr): Json {
  const parameters = [...op.pathParameters, ...op.queryParameters];
  const body = op.requestBody?.schema;
  if (parameters.length === 0 && body !== undefined) return op.requestBody?.required ? body : { ...body, nullable: true };
  const object: Json = {
    type: "object",
    properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema])),
    required: parameters.filter((p) => p.required).map((p) => p.name),
  };
  return body === undefined ? object : { allOf: [object, body] };
}

/** ajv writes CommonJS `require` calls for its runtime helpers even in ESM mode; turn them into imports. */
function importRuntime(code: string): string {
  const imports: string[] = [];
  const seen = new Map<string, string>();
  const body = code.replace(/require\("(ajv\/dist\/runtime\/[a-z0-9_]+)"\)/gi, (_, specifier: string) => {
    let local = seen.get(specifier);
    if (local === undefined) {
      local = `runtime${seen.size}`;
      seen.set(specifier, local);
      // Loaders disagree on the default import of a CommonJS module that sets __esModule
      // (Node: module.exports; vitest and bundlers: exports.default); accept both.
      imports.push(`import ${local}Import from "${specifier}.js";\nconst ${local} = ${local}Import.__esModule ? ${local}Import : { default: ${local}Import };\n`);
    }
    return local;
  });
  if (/require\(/.test(body)) throw new Error("ajv standalone output requires a module other than ajv/dist/runtime/*");
  return imports.join("") + body.replace(/^"use strict";/, "");
}

function emitMap(ir: ApiIr, perOperation: Map<string, OperationValidatorNames>): string {
  let out = banner(ir);
  out += `import type { ValidateFunction } from "ajv";\nimport type { OperationId } from "./operations.js";\nimport * as validators from "./validators.js";\n\n`;
  out += `/** Compiled validators of one operation: its request object and the bodies of its success and accepted statuses (a status without content has none). */\nexport interface OperationValidators {\n  readonly request?: ValidateFunction;\n  readonly responses: { readonly [status: number]: ValidateFunction };\n}\n\n`;
  out += `/** Validators by operationId. */\nexport const validatorMap: { readonly [K in OperationId]: OperationValidators } = {\n`;
  for (const op of ir.operations) {
    const names = perOperation.get(op.operationId) as OperationValidatorNames;
    const request = names.request === null ? "" : `request: validators.${names.request}, `;
    const responses = names.responses.map(([status, key]) => `${status}: validators.${key}`).join(", ");
    out += `  ${propertyKey(op.operationId)}: { ${request}responses: { ${responses} } },\n`;
  }
  return `${out}};\n`;
}
