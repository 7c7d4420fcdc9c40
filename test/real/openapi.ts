// Reading an OpenAPI 3.0 document into operation summaries, and validating bodies
// against our contract.
import type { ContractValidators } from "../support/contract-validators.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
export type OpenApiDocument = JsonObject & { paths: JsonObject; components?: JsonObject };

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function pointer(doc: OpenApiDocument, ref: string): Json {
  if (!ref.startsWith("#/")) throw new Error(`external $ref not supported: ${ref}`);
  let node: Json = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObject(node)) throw new Error(`bad $ref ${ref}`);
    node = node[key] ?? null;
  }
  return node;
}

function deref(doc: OpenApiDocument, node: Json): Json {
  let current = node;
  for (let i = 0; i < 32 && isObject(current) && typeof current.$ref === "string"; i++) {
    current = pointer(doc, current.$ref);
  }
  return current;
}

/** A schema reduced to what the comparison looks at. */
export interface OperationSummary {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  /** every declared 2xx status (ours: success plus the async accepted status) */
  readonly successStatuses: readonly number[];
  readonly errorStatuses: readonly number[];
  readonly parameters: readonly string[];
  readonly requestSchema: Json | null;
  /** success status -> JSON schema of its body */
  readonly responseSchemas: ReadonlyMap<number, Json>;
}

export function operationsOf(doc: OpenApiDocument): Map<string, OperationSummary> {
  const result = new Map<string, OperationSummary>();
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!isObject(item)) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op) || typeof op.operationId !== "string") continue;
      const statuses = Object.keys(isObject(op.responses) ? op.responses : {})
        .filter((s) => /^\d{3}$/.test(s))
        .map(Number)
        .sort((a, b) => a - b);
      const responseSchemas = new Map<number, Json>();
      for (const status of statuses.filter((s) => s >= 200 && s < 300)) {
        const response = deref(doc, (op.responses as JsonObject)[String(status)] ?? null);
        const content = isObject(response) && isObject(response.content) ? response.content : {};
        const media = content["application/json"];
        if (isObject(media) && media.schema !== undefined) responseSchemas.set(status, media.schema);
      }
      const body = deref(doc, op.requestBody ?? null);
      const bodyContent = isObject(body) && isObject(body.content) ? body.content["application/json"] : null;
      const parameters = [...shared, ...(Array.isArray(op.parameters) ? op.parameters : [])]
        .map((p) => deref(doc, p))
        .filter(isObject)
        .map((p) => `${String(p.in)}:${String(p.name)}`)
        .sort();
      result.set(op.operationId, {
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        successStatuses: statuses.filter((s) => s >= 200 && s < 300),
        errorStatuses: statuses.filter((s) => s < 200 || s >= 300),
        parameters,
        requestSchema: isObject(bodyContent) ? (bodyContent.schema ?? null) : null,
        responseSchemas,
      });
    }
  }
  return result;
}

/**
 * Body validation against our contract for (operation, status): a 2xx body against the
 * schema the operation declares for it, any other body against `ErrorResponse`.
 */
export class BodyValidator {
  private readonly ops: Map<string, OperationSummary>;

  constructor(private readonly contract: ContractValidators) {
    this.ops = operationsOf(contract.document as OpenApiDocument);
  }

  operation(operationId: string): OperationSummary | undefined {
    return this.ops.get(operationId);
  }

  /** null when valid, otherwise a short error text */
  validateResponse(operationId: string, status: number, body: unknown): string | null {
    if (!this.ops.has(operationId)) return `unknown operation ${operationId}`;
    const validate =
      status >= 200 && status < 300
        ? this.contract.response(operationId, status)?.validate
        : this.contract.schema("ErrorResponse");
    if (!validate) return null;
    return validate(body) ? null : this.contract.ajv.errorsText(validate.errors, { dataVar: "body" });
  }
}
