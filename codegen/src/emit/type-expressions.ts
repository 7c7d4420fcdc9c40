import type { ApiIr, OperationIr, ResponseIr } from "../ir/model.js";
import { tsString } from "./ts/syntax.js";

/**
 * TypeScript type expressions over the types module (`components` and
 * `operations` of `openapi.d.ts`, emitted by `types/openapi-types.ts`). Shared by
 * every emitter that names an operation's types.
 *
 * `specOperations` is the local name the importing module gave the types module's
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

  /**
   * The JSON body type of the request (the write side: no readOnly members), or
   * null when there is none: the component's type when the body is one and its
   * request and response shapes agree, else the operation's request body.
   */
  body(op: OperationIr): string | null {
    if (op.requestBody === null) return null;
    if (op.requestBody.schemaName !== null && !this.ir.readWriteMarkers) return this.schema(op.requestBody.schemaName);
    return `NonNullable<${this.operation(op)}["requestBody"]>["content"][${tsString(op.requestBody.mediaType)}]`;
  }

  /** Path parameters as an object type, or null. */
  pathParameters(op: OperationIr): string | null {
    return op.pathParameters.length === 0 ? null : `${this.operation(op)}["parameters"]["path"]`;
  }

  /** Query parameters as an object type, or null. */
  queryParameters(op: OperationIr): string | null {
    return op.queryParameters.length === 0 ? null : `NonNullable<${this.operation(op)}["parameters"]["query"]>`;
  }

  /** Header (or cookie) parameters as an object type keyed by wire name, or null. */
  otherParameters(op: OperationIr, location: "header" | "cookie"): string | null {
    return op.parameters[location].length === 0
      ? null
      : `NonNullable<${this.operation(op)}["parameters"][${tsString(location)}]>`;
  }

  /**
   * The flat request object: path and query parameters keyed by wire name plus the
   * body's fields. `undefined` for operations without input; `T | undefined` when
   * only an optional body exists.
   */
  request(op: OperationIr): string {
    const parts = [
      this.pathParameters(op),
      this.queryParameters(op),
      this.otherParameters(op, "header"),
      this.otherParameters(op, "cookie"),
      this.body(op),
    ].filter((p): p is string => p !== null);
    if (parts.length === 0) return "undefined";
    const joined = parts.join(" & ");
    const parameterCount =
      op.pathParameters.length + op.queryParameters.length + op.parameters.header.length + op.parameters.cookie.length;
    const bodyOnlyOptional = op.requestBody !== null && !op.requestBody.required && parameterCount === 0;
    return bodyOnlyOptional ? `${joined} | undefined` : joined;
  }

  /**
   * The body type of one response by its media kind: the schema's type for JSON,
   * `string` for text, `Uint8Array` for binary, `undefined` without content.
   */
  response(op: OperationIr, response: ResponseIr | null): string {
    if (response === null) return "never";
    if (response.kind === "text") return "string";
    if (response.kind === "binary") return "Uint8Array";
    if (response.schema === null) return "undefined";
    if (response.schemaName !== null) return this.schema(response.schemaName);
    return `${this.operation(op)}["responses"][${response.status}]["content"][${tsString(response.mediaType as string)}]`;
  }

  /**
   * What a call resolves to for one outcome status: the body of each media type
   * the status declares, as a union (`HandoffReport | string` for a status that
   * declares JSON and Markdown; the runtime reads an answer by its content type).
   */
  outcome(op: OperationIr, response: ResponseIr | null): string {
    if (response === null || response.media.length <= 1) return this.response(op, response);
    const kinds = new Set(response.media.map((m) => m.kind));
    const types: string[] = [];
    if (kinds.has("json")) types.push(this.response(op, { ...response, kind: "json" }));
    if (kinds.has("text")) types.push("string");
    if (kinds.has("binary")) types.push("Uint8Array");
    return types.join(" | ");
  }

  /**
   * What a call resolves to: the success body when the operation has one outcome;
   * when it declares several (several success statuses, or a 304), a union keyed
   * by status of `{ status, body, headers }` (see {@link hasKeyedResult}).
   */
  result(op: OperationIr): string {
    if (!hasKeyedResult(op)) return this.outcome(op, op.success);
    const outcomes = [...op.successResponses, ...(op.notModified === null ? [] : [op.notModified])];
    return outcomes
      .map(
        (r) =>
          `\n    | {\n        /** The status of this outcome. */\n        readonly status: ${r.status};\n        /** The body, by the status's media kind. */\n        readonly body: ${this.outcome(op, r)};\n        /** The response headers (ETag and the like). */\n        readonly headers: Headers;\n      }`,
      )
      .join("");
  }

  /** Error body types keyed by declared 4xx/5xx status (`{}` when none is declared). */
  errors(op: OperationIr): string {
    const errors = op.responses.filter((r) => r.status >= 400);
    return errors.length === 0
      ? "{}"
      : `{\n${errors.map((r) => `      /** The body of a ${r.status} answer. */\n      ${r.status}: ${this.response(op, r)};\n`).join("")}    }`;
  }

  /** The type-only import line for the types package. */
  importLine(): string {
    const names = [
      "components",
      this.specOperations === "operations" ? "operations" : `operations as ${this.specOperations}`,
    ];
    return `import type { ${names.join(", ")} } from ${tsString(this.ir.names.typesModule)};\n`;
  }
}

/** True when an operation has more than one outcome besides its accepted status, so its result is keyed by status. */
export function hasKeyedResult(op: OperationIr): boolean {
  return op.successResponses.length + (op.notModified === null ? 0 : 1) > 1;
}
