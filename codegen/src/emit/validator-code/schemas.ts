import type { Json, RefLookup } from "../../domain/types.js";
import { toJsonSchema, type SchemaMode } from "../../ir/json-schema.js";
import type { ApiIr, OperationIr } from "../../ir/model.js";
import { UniqueNames, variableName } from "../../ir/naming.js";
import { admitParameters } from "./admit-parameters.js";

/** The validator export names of one operation. */
export interface OperationValidatorNames {
  request: string | null;
  responses: [status: number, key: string][];
  /** The body's validator per value of the parameter choosing its `oneOf` branch (`OperationIr.ruleBranches`). */
  branches: [value: string, key: string][];
}

/** The JSON Schemas behind the validators of an API, keyed by export name. */
export interface ValidatorSchemas {
  /**
   * The draft-07 schema of a key (`request_<Component>`, `response_<Component>` or
   * `op_<operation>_<role>`), converted on first use; `$ref`s point at
   * `#/definitions/<key>`. Undefined for an unknown key.
   */
  readonly definition: (key: string) => Json | boolean | undefined;
  /** The key of a component schema on one side of the wire; undefined for a name the document does not have. */
  readonly component: (mode: SchemaMode, name: string) => string | undefined;
  /** Every key, components first (both sides of the wire), then per-operation schemas. */
  readonly keys: readonly string[];
  /** The keys operations use, sorted: the module's exports. */
  readonly exports: readonly string[];
  /** Export names per operationId. */
  readonly perOperation: ReadonlyMap<string, OperationValidatorNames>;
}

/**
 * Names and (lazily) converts every schema a validator is emitted for: each
 * component schema once per side of the wire (see `SchemaMode`), plus the inline
 * request and response schemas of operations. Conversion is deferred so that a
 * component no operation reaches costs nothing.
 */
export function validatorSchemas(ir: ApiIr): ValidatorSchemas {
  const sources = new Map<string, () => Json | boolean>();
  const converted = new Map<string, Json | boolean>();
  const names = new UniqueNames();
  const componentKey = new Map<string, string>();
  const modes = ["request", "response"] as const;
  for (const mode of modes)
    for (const { name } of ir.schemas)
      componentKey.set(`${mode}:${name}`, names.claim(`${mode}_${variableName(name)}`));
  // What converts alike on both sides of the wire is converted once (see `toJsonSchema`).
  const sameOnBothSides = new Map<object, Json>();
  const refTo = (mode: SchemaMode) => (name: string) =>
    `#/definitions/${componentKey.get(`${mode}:${name}`) ?? "missing"}`;
  for (const mode of modes) {
    for (const { name, schema } of ir.schemas)
      sources.set(componentKey.get(`${mode}:${name}`) as string, () =>
        toJsonSchema(schema, mode, refTo(mode), ir.lookup, sameOnBothSides),
      );
  }

  const used = new Set<string>();
  const perOperation = new Map<string, OperationValidatorNames>();
  const forSchema = (
    op: OperationIr,
    role: string,
    schemaName: string | null,
    schema: Json,
    mode: SchemaMode,
    admit: readonly string[] = [],
  ): string => {
    let key = schemaName === null ? undefined : componentKey.get(`${mode}:${schemaName}`);
    if (key === undefined) {
      key = names.claim(`op_${variableName(op.operationId)}_${role}`);
      sources.set(key, () =>
        admitParameters(toJsonSchema(schema, mode, refTo(mode), ir.lookup, sameOnBothSides), admit, definition),
      );
    }
    used.add(key);
    return key;
  };
  for (const op of ir.operations) {
    const entry: OperationValidatorNames = { request: null, responses: [], branches: [] };
    if (op.requestLocation !== null) {
      const { schema, admit } = requestSchema(op, ir.lookup);
      entry.request = forSchema(op, "request", requestSchemaName(op), schema, "request", admit);
    }
    for (const response of [...op.successResponses, op.accepted]) {
      if (response?.schema)
        entry.responses.push([
          response.status,
          forSchema(op, String(response.status), response.schemaName, response.schema, "response"),
        ]);
    }
    for (const [value, schemaName] of Object.entries(op.ruleBranches?.schemas ?? {})) {
      const key = componentKey.get(`request:${schemaName}`);
      if (key === undefined) continue;
      used.add(key);
      entry.branches.push([value, key]);
    }
    perOperation.set(op.operationId, entry);
  }

  const definition = (key: string): Json | boolean | undefined => {
    let schema = converted.get(key);
    if (schema === undefined) {
      const source = sources.get(key);
      if (source === undefined) return undefined;
      schema = source();
      converted.set(key, schema);
    }
    return schema;
  };
  const component = (mode: SchemaMode, name: string) => componentKey.get(`${mode}:${name}`);
  return { definition, component, keys: [...sources.keys()], exports: [...used].sort(), perOperation };
}

function requestSchemaName(op: OperationIr): string | null {
  const onlyBody = allParameters(op).length === 0;
  return onlyBody ? (op.requestBody?.schemaName ?? null) : null;
}

/**
 * The flat request object as one schema: parameters by wire name plus the body's
 * own constraints. An object body (the usual case, often closed with
 * `additionalProperties: false`) is merged with the parameters into one object,
 * so the parameter names are allowed beside the body members; any other body
 * shape is combined with `allOf`, and `admit` names the parameters that the
 * converted body schema must let through at its root (see `admitParameters`).
 */
function requestSchema(op: OperationIr, lookup: RefLookup): { schema: Json; admit: string[] } {
  const parameters = allParameters(op);
  const body = op.requestBody?.schema;
  if (parameters.length === 0 && body !== undefined)
    return { schema: op.requestBody?.required ? body : { ...body, nullable: true }, admit: [] };
  const properties = Object.fromEntries(parameters.map((p) => [p.name, p.schema]));
  const required = parameters.filter((p) => p.required).map((p) => p.name);
  if (body === undefined) return { schema: { type: "object", properties, required }, admit: [] };
  const target = followRefs(body, lookup);
  if (isPlainObjectSchema(target)) {
    const schema = {
      ...target,
      properties: { ...properties, ...(target.properties as Json | undefined) },
      required: [...required, ...((target.required as string[] | undefined) ?? [])],
    };
    return { schema, admit: [] };
  }
  return { schema: { allOf: [{ type: "object", properties, required }, body] }, admit: parameters.map((p) => p.name) };
}

/** Every parameter of the flat request object: path, query, header and cookie, by wire name. */
function allParameters(op: OperationIr) {
  return [...op.parameters.path, ...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie];
}

function followRefs(schema: Json, lookup: RefLookup): Json {
  let current: Json = schema;
  for (let hops = 0; typeof current.$ref === "string" && hops < 32; hops += 1) current = lookup(current.$ref) as Json;
  return current;
}

/** An object schema whose meaning is fully given by its own keywords (no composition). */
function isPlainObjectSchema(schema: Json): boolean {
  return (
    schema.type === "object" && !["allOf", "anyOf", "oneOf", "not", "$ref", "discriminator"].some((k) => k in schema)
  );
}
