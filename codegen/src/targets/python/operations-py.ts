import type { Json } from "../../domain/types.js";
import type { ApiIr, OperationIr } from "../../ir/model.js";
import {
  documentOrder,
  featureContracts,
  pythonFacts,
  pythonResponseType,
  type PythonOperationFacts,
} from "./contract-facts.js";
import { pyBanner } from "./banner-py.js";
import { pyLiteral, pyString } from "./literal.js";
import { pyConstantName, pyModelName } from "./names-py.js";

/** The models `operations.py` imports: each operation's request and response model. */
export function operationModels(ir: ApiIr): Set<string> {
  const imports = new Set<string>();
  for (const op of ir.operations) {
    const request = pythonRequest(ir, op);
    if (request.type !== null) imports.add(request.type);
    const response = pythonResponseType(op);
    if (response !== null) imports.add(response);
  }
  return imports;
}

/** Where a Python operation's request goes and which model carries it. */
export interface PythonRequest {
  readonly type: string | null;
  readonly location: "body" | "query" | null;
}

/**
 * The release's request rule: a JSON body is the body's component model; an
 * operation with query parameters takes `<OperationId in PascalCase>Request`
 * (when the contract has no such schema, `request_type` is `None` and the
 * caller passes `query_parameters`); path and header parameters alone mean no
 * request model.
 */
export function pythonRequest(ir: ApiIr, op: OperationIr): PythonRequest {
  if (op.requestBody !== null) return { type: op.requestBody.schemaName, location: "body" };
  if (op.queryParameters.length === 0) return { type: null, location: null };
  const name = `${op.typeName}Request`;
  return { type: ir.schemas.some((s) => s.name === name) ? name : null, location: "query" };
}

/**
 * Emits `operations.py` in the format of the Python Client SDK 1.4.1
 * (`powercontext.http._generated.operations`): the module constants, the
 * `Operation` and `AccessRequirement` models, and one `Operation[Request, Response]`
 * constant per operation, named by `pyConstantName` (`LIST_PETS` for `listPets`), in document
 * order. `modelsModule` is the dotted module the models are imported from.
 */
export function emitPythonOperations(ir: ApiIr, modelsModule: string): string {
  const facts = documentOrder(ir).map((op) => pythonFacts(ir, op));
  const imports = operationModels(ir);
  const local = (name: string | null) => (name === null ? "None" : pyModelName(name));
  const info = (ir.document.info ?? {}) as Json;
  const description = typeof info.description === "string" ? pyString(info.description) : "None";
  const importBlock =
    imports.size === 0
      ? ""
      : `from ${modelsModule} import (\n${[...imports]
          .sort(byCodePoint)
          .map((n) => `    ${local(n) === n ? n : `${n} as ${local(n)}`},\n`)
          .join("")})\n\n`;
  return `${pyBanner(ir)}from __future__ import annotations

from typing import Generic, Literal, TypeVar

from pydantic import BaseModel, JsonValue

${importBlock}OPENAPI_VERSION = ${pyString(ir.openapiVersion)}
API_TITLE = ${pyString(ir.title)}
API_DESCRIPTION = ${description}
API_VERSION = ${pyString(ir.apiVersion)}
FEATURE_CONTRACTS: dict[str, dict[str, JsonValue]] = ${pyLiteral(featureContracts(ir), { indent: 0 })}

RequestT = TypeVar("RequestT")
ResponseT = TypeVar("ResponseT")


class Operation(BaseModel, Generic[RequestT, ResponseT]):
    method: str
    path: str
    operation_id: str
    request_type: type[RequestT] | None
    request_location: Literal["body", "query"] | None
    response_type: type[ResponseT] | None
    path_parameters: tuple[str, ...]
    success_status: int
    summary: str
    tags: tuple[str, ...]
    scope_mode: Literal["none", "current", "selection"]
    responses: dict[int | str, dict[str, JsonValue]]
    access: AccessRequirement | None


class AccessRequirement(BaseModel):
    action: str | None
    resource: Literal["server", "scope", "artifact"] | None
    scope_id_field: str | None
    resolver: str
${facts.map((f) => `\n\n${operationConstant(ir, f, local)}`).join("")}
`;
}

function operationConstant(ir: ApiIr, f: PythonOperationFacts, local: (name: string | null) => string): string {
  const { op } = f;
  const request = pythonRequest(ir, op);
  const requestType = local(request.type);
  const responseType = local(f.responseType);
  const access =
    f.access === null
      ? "None"
      : `AccessRequirement(action=${opt(f.access.action)}, resource=${opt(f.access.resource)}, scope_id_field=${opt(f.access.scopeIdField)}, resolver=${pyString(f.access.resolver)})`;
  const fields: [string, string][] = [
    ["method", pyString(op.method)],
    ["path", pyString(op.path)],
    ["operation_id", pyString(op.operationId)],
    ["request_type", requestType],
    ["request_location", opt(request.location)],
    [
      "path_parameters",
      pyLiteral(
        op.pathParameters.map((p) => p.name),
        { tuples: true, indent: 4 },
      ),
    ],
    ["response_type", responseType],
    ["success_status", String(f.successStatus)],
    ["summary", pyString(op.summary)],
    ["tags", pyLiteral(f.tags, { tuples: true, indent: 4 })],
    ["scope_mode", pyString(f.scopeMode)],
    ["responses", pyLiteral(f.responses, { intKeys: true, indent: 4 })],
    ["access", access],
  ];
  const body = fields.map(([name, value]) => `    ${name}=${value},\n`).join("");
  return `${pyConstantName(op)} = Operation[${requestType}, ${responseType}](\n${body})`;
}

function opt(value: string | null): string {
  return value === null ? "None" : pyString(value);
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
