// The contract the random requests are drawn from: an OpenAPI 3.0 document held in
// memory (the release's OPENAPI_SCHEMA in a run; openapi.yaml in the instrument's own
// tests), read into operations with their parameters and body schemas, and schema
// helpers that follow `$ref`, merge `allOf` and read numeric bounds in both of their
// OpenAPI spellings (boolean `exclusiveMinimum` beside `minimum`, or a number).
export type Schema = { readonly [keyword: string]: unknown };

/** Where a parameter travels. */
export type ParameterLocation = "path" | "query" | "header";

/** One parameter of an operation. */
export interface ParameterSpec {
  readonly name: string;
  readonly in: ParameterLocation;
  readonly required: boolean;
  /** the parameter's schema as written (references kept) */
  readonly schema: Schema;
}

/** One operation, as the generator needs it. */
export interface OperationSpec {
  readonly operationId: string;
  readonly method: string;
  /** the path template, e.g. `/v1/scopes/{scope_id}` */
  readonly path: string;
  /** the first OpenAPI tag (the report's grouping) */
  readonly tag: string;
  readonly parameters: readonly ParameterSpec[];
  /** the JSON request body's schema as written, or null when the operation takes no body */
  readonly body: Schema | null;
  /** the declared 2xx statuses */
  readonly successStatuses: readonly number[];
}

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

/** A member name as one step of a JSON pointer (`~` and `/` escaped). */
export function pointerStep(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** The value at a JSON pointer (`/items/0/scope_id`) of a parsed body, or undefined when nothing is there. */
export function pointerGet(body: unknown, pointer: string): unknown {
  let node: unknown = body;
  for (const raw of pointer === "" ? [] : pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) node = node[Number(key)];
    else if (node !== null && typeof node === "object") node = (node as Record<string, unknown>)[key];
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/** True for a JSON object (not null, not an array). */
export function isObject(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Numeric bounds of a schema; `exclusive` bounds exclude the value itself. */
export interface NumericBounds {
  readonly min?: number;
  readonly max?: number;
  readonly minExclusive: boolean;
  readonly maxExclusive: boolean;
}

/** Reads `minimum`/`maximum` with OpenAPI 3.0's boolean and JSON Schema's numeric exclusive bounds. */
export function numericBounds(schema: Schema): NumericBounds {
  let min = typeof schema.minimum === "number" ? schema.minimum : undefined;
  let max = typeof schema.maximum === "number" ? schema.maximum : undefined;
  let minExclusive = schema.exclusiveMinimum === true && min !== undefined;
  let maxExclusive = schema.exclusiveMaximum === true && max !== undefined;
  if (typeof schema.exclusiveMinimum === "number" && (min === undefined || schema.exclusiveMinimum >= min)) {
    min = schema.exclusiveMinimum;
    minExclusive = true;
  }
  if (typeof schema.exclusiveMaximum === "number" && (max === undefined || schema.exclusiveMaximum <= max)) {
    max = schema.exclusiveMaximum;
    maxExclusive = true;
  }
  return { min, max, minExclusive, maxExclusive };
}

/** An OpenAPI 3.0 document with the lookups the generator and the validator use. */
export class Contract {
  readonly operations: readonly OperationSpec[];

  constructor(readonly document: Schema) {
    this.operations = this.readOperations();
  }

  /** The object a local `$ref` points at. @throws {Error} for a reference outside the document */
  lookup(ref: string): unknown {
    if (!ref.startsWith("#/")) throw new Error(`only local references are followed: ${ref}`);
    let node: unknown = this.document;
    for (const raw of ref.slice(2).split("/"))
      node = isObject(node) ? node[raw.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
    return node;
  }

  /** The schema behind a chain of references (an empty schema for anything else). */
  deref(node: unknown): Schema {
    let current = node;
    for (let hops = 0; hops < 32 && isObject(current) && typeof current.$ref === "string"; hops++)
      current = this.lookup(current.$ref);
    return isObject(current) ? current : {};
  }

  /**
   * The schema with references followed and `allOf` merged into one schema: the
   * parts' properties and required members united, `additionalProperties: false`
   * kept when a part says so, the schema's own keywords (`nullable`, ...) on top.
   */
  resolve(node: unknown): Schema {
    const schema = this.deref(node);
    if (!Array.isArray(schema.allOf)) return schema;
    const { allOf, ...own } = schema;
    const parts = (allOf as unknown[]).map((part) => this.resolve(part));
    const merged: Record<string, unknown> = {};
    const properties: Record<string, unknown> = {};
    const required = new Set<string>();
    for (const part of [...parts, own]) {
      for (const [key, value] of Object.entries(part)) {
        if (key === "properties" && isObject(value)) Object.assign(properties, value);
        else if (key === "required" && Array.isArray(value)) for (const name of value) required.add(String(name));
        else if (key === "additionalProperties" && merged.additionalProperties === false) continue;
        else merged[key] = value;
      }
    }
    if (Object.keys(properties).length > 0) merged.properties = properties;
    if (required.size > 0) merged.required = [...required];
    return merged;
  }

  private readOperations(): OperationSpec[] {
    const out: OperationSpec[] = [];
    const paths = isObject(this.document.paths) ? this.document.paths : {};
    for (const [path, rawItem] of Object.entries(paths)) {
      const item = this.deref(rawItem);
      const shared = Array.isArray(item.parameters) ? item.parameters : [];
      for (const method of METHODS) {
        const operation = item[method];
        if (!isObject(operation) || typeof operation.operationId !== "string") continue;
        const parameters = [...shared, ...(Array.isArray(operation.parameters) ? operation.parameters : [])]
          .map((p) => this.deref(p))
          .filter((p) => p.in === "path" || p.in === "query" || p.in === "header")
          .map(
            (p): ParameterSpec => ({
              name: String(p.name),
              in: p.in as ParameterLocation,
              required: p.required === true || p.in === "path",
              schema: isObject(p.schema) ? p.schema : {},
            }),
          );
        const names = parameters.map((p) => p.name.toLowerCase());
        if (new Set(names).size !== names.length)
          throw new Error(`${operation.operationId}: two parameters share a name; the generator keys them by name`);
        const requestBody = this.deref(operation.requestBody);
        const media = isObject(requestBody.content) ? requestBody.content["application/json"] : undefined;
        const responses = isObject(operation.responses) ? operation.responses : {};
        out.push({
          operationId: operation.operationId,
          method: method.toUpperCase(),
          path,
          tag: String((operation.tags as unknown[] | undefined)?.[0] ?? "untagged"),
          parameters,
          body: isObject(media) && isObject(media.schema) ? media.schema : null,
          successStatuses: Object.keys(responses)
            .filter((status) => /^2\d\d$/.test(status))
            .map(Number),
        });
      }
    }
    return out;
  }
}
