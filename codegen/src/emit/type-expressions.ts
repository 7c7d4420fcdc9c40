import type { ApiIr, OperationIr, ResponseIr } from "../ir/model.js";
import { tsString } from "../ir/naming.js";

/**
 * TypeScript type expressions over the openapi-typescript output
 * (`components`, `operations`, and `Readable`/`Writable` when the spec uses
 * readOnly/writeOnly). Shared by every emitter that names an operation's types.
 *
 * `specOperations` is the local name the importing module gave openapi-typescript's
 * `operations` interface (the SDK's table module uses `operations` for its own export).
 */
export class TypeExpressions {
  constructor(
    private readonly ir: ApiIr,
    private readonly specOperations: string,
  ) {}

  private schema(name: string): string {
    return `components["schemas"][${tsString(name)}]`;
  }

  private operation(op: OperationIr): string {
    return `${this.specOperations}[${tsString(op.operationId)}]`;
  }

  /** The JSON body type of the request, or null when there is none. */
  body(op: OperationIr): string | null {
    if (op.requestBody === null) return null;
    const raw = op.requestBody.schemaName !== null ? this.schema(op.requestBody.schemaName) : `NonNullable<${this.operation(op)}["requestBody"]>["content"]["application/json"]`;
    return this.ir.readWriteMarkers ? `Writable<${raw}>` : raw;
  }

  /** Path parameters as an object type, or null. */
  pathParameters(op: OperationIr): string | null {
    return op.pathParameters.length === 0 ? null : `${this.operation(op)}["parameters"]["path"]`;
  }

  /** Query parameters as an object type, or null. */
  queryParameters(op: OperationIr): string | null {
    return op.queryParameters.length === 0 ? null : `NonNullable<${this.operation(op)}["parameters"]["query"]>`;
  }

  /**
   * The flat request object: path and query parameters keyed by wire name plus the
   * body's fields. `undefined` for operations without input; `T | undefined` when
   * only an optional body exists.
   */
  request(op: OperationIr): string {
    const parts = [this.pathParameters(op), this.queryParameters(op), this.body(op)].filter((p): p is string => p !== null);
    if (parts.length === 0) return "undefined";
    const joined = parts.join(" & ");
    const bodyOnlyOptional = op.requestBody !== null && !op.requestBody.required && op.pathParameters.length === 0 && op.queryParameters.length === 0;
    return bodyOnlyOptional ? `${joined} | undefined` : joined;
  }

  /** The body type of one response; `undefined` for a response without content. */
  response(op: OperationIr, response: ResponseIr | null): string {
    if (response === null) return "never";
    if (response.schema === null) return "undefined";
    const raw = response.schemaName !== null ? this.schema(response.schemaName) : `${this.operation(op)}["responses"][${response.status}]["content"]["application/json"]`;
    return this.ir.readWriteMarkers ? `Readable<${raw}>` : raw;
  }

  /** The type-only import line for the types package. */
  importLine(): string {
    const names = ["components", this.specOperations === "operations" ? "operations" : `operations as ${this.specOperations}`];
    if (this.ir.readWriteMarkers) names.push("Readable", "Writable");
    return `import type { ${names.join(", ")} } from "@powercontext/types";\n`;
  }
}
