import type { ApiIr, OperationIr, ParameterIr, ResponseIr } from "../../ir/model.js";
import { pyBanner } from "./banner-py.js";
import { documentOrder } from "./contract-facts.js";
import { pyLiteral, pyString } from "./literal.js";

/** Names of the layer's modules that `extensions.py` refers to. */
export interface ExtensionsModules {
  /** Dotted package of the layer. */
  readonly package: string;
  /** True when `parameters.py` is written, so each operation can name its parameters model. */
  readonly parameters: boolean;
}

/** The parameters model of an operation in `parameters.py` (null without path, query or header parameters). */
export function parametersModelName(op: OperationIr): string | null {
  return parameterList(op).length === 0 ? null : `${op.typeName}Parameters`;
}

/** The parameters a Python client sends: path, query and header, in that order. */
export function parameterList(op: OperationIr): ParameterIr[] {
  return [...op.parameters.path, ...op.parameters.query, ...op.parameters.header];
}

/**
 * Emits `extensions.py`: for each operation what the runtime needs beyond its
 * `Operation` (the 1.4.1 format has no place for it), as the runtime's own classes
 * (`powercontext_runtime.descriptor`): retry class, permission, the accepted status and
 * how to poll, reconciliation, paging, the not-served answer, every success status with
 * its media kind and model, the `default` response, the parameters with their styles and
 * their generated model. Plus the spec's `ERROR_CODES` and `REQUEST_ID_HEADER`.
 */
export function emitPythonExtensions(ir: ApiIr, modules: ExtensionsModules): string {
  const ops = documentOrder(ir);
  const entries = ops.map((op) => entry(ir, op, modules)).join("");
  const used = [
    "AsyncSpec",
    "ErrorCode",
    "NotServedSpec",
    "OperationExtensions",
    "PaginationSpec",
    "ParameterSpec",
    "ReconcileSpec",
  ].filter((name) => name === "ErrorCode" || name === "OperationExtensions" || entries.includes(`${name}(`));
  const layer = ["models", ...(modules.parameters && entries.includes("parameters.") ? ["parameters"] : [])].filter(
    (name) => name === "parameters" || entries.includes(`${name}.`),
  );
  return `${pyBanner(ir)}"""The spec's facts per operation, beyond its \`\`Operation\`\`, for powercontext_runtime."""

from __future__ import annotations

from powercontext_runtime.descriptor import ${used.join(", ")}
${layer.length > 0 ? `\nfrom ${modules.package} import ${layer.join(", ")}\n` : ""}
#: The response header that carries the server's request id.
REQUEST_ID_HEADER: str | None = ${pyString(ir.requestIdHeader)}

#: x-powercontext-client-headers: sent on every request unless the caller sets the same header.
CLIENT_HEADERS: dict[str, str] = {${Object.entries(ir.clientHeaders)
    .map(([name, value]) => `${pyString(name)}: ${pyString(value)}`)
    .join(", ")}}

#: x-powercontext-error-codes: each code's status, and whether waiting can cure it.
ERROR_CODES: dict[str, ErrorCode] = {
${ir.errorCodes.map((row) => `    ${pyString(row.code)}: ErrorCode(status=${row.status}, transient=${row.transient ? "True" : "False"}),\n`).join("")}}

EXTENSIONS: dict[str, OperationExtensions] = {
${entries}}
`;
}

/** The models `extensions.py` names (`models.<Name>`): the JSON success and accepted bodies. */
export function extensionModels(ir: ApiIr): Set<string> {
  const names = new Set<string>();
  for (const op of ir.operations) {
    for (const response of [...op.successResponses, op.accepted])
      if (response?.kind === "json" && response.schemaName) names.add(response.schemaName);
  }
  return names;
}

function model(response: ResponseIr | null | undefined): string {
  return response?.kind === "json" && response.schemaName ? `models.${response.schemaName}` : "None";
}

function entry(_ir: ApiIr, op: OperationIr, modules: ExtensionsModules): string {
  const fields: [string, string][] = [
    ["operation_id", pyString(op.operationId)],
    ["retry_class", pyString(op.retryClass)],
    ["permission", op.permission === null ? "None" : pyString(op.permission)],
  ];
  if (op.async !== null) {
    const a = op.async;
    fields.push([
      "async_",
      `AsyncSpec(accepted_status=${a.acceptedStatus}, accepted_type=${model(op.accepted)}, poll_operation=${pyString(a.pollOperation)}, result_field=${pyString(a.resultField)}, operation_id_field=${pyString(a.operationIdField)}, status_field=${pyString(a.statusField)}, error_field=${pyString(a.errorField)}, succeeded=${tuple(a.terminalStates.succeeded)}, failed=${tuple(a.terminalStates.failed)}, cancelled=${tuple(a.terminalStates.cancelled)})`,
    ]);
  }
  if (op.reconcile !== null) {
    const r = op.reconcile;
    fields.push([
      "reconcile",
      `ReconcileSpec(read_operation=${pyString(r.readOperation)}, id_parameter=${pyString(r.idParameter)}, holds_when_status=${tuple(r.holdsWhen.status)}, version_field=${pyString(r.versionField)}, expected_version_field=${pyString(r.expectedVersionField)}, status_field=${pyString(r.statusField)}, conflict_code=${pyString(r.conflictCode)})`,
    ]);
  }
  if (op.pagination !== null) {
    const p = op.pagination;
    fields.push([
      "pagination",
      `PaginationSpec(cursor_parameter=${pyString(p.cursorParameter)}, next_cursor_field=${pyString(p.nextCursorField)}, items_field=${pyString(p.itemsField)})`,
    ]);
  }
  if (op.notServed !== null)
    fields.push([
      "not_served",
      `NotServedSpec(status=${op.notServed.status}, message=${pyString(op.notServed.message)})`,
    ]);
  const successes = op.responses.filter((r) => op.successStatuses.includes(r.status));
  fields.push(["success_statuses", tuple(op.successStatuses)]);
  fields.push(["response_kinds", `{${successes.map((r) => `${r.status}: ${pyString(r.kind)}`).join(", ")}}`]);
  fields.push(["response_types", `{${successes.map((r) => `${r.status}: ${model(r)}`).join(", ")}}`]);
  // The media a request member chooses (x-powercontext-media-from) answer the primary success status.
  const alternatives = Object.values(op.mediaFrom?.values ?? {});
  if (alternatives.length > 0)
    fields.push([
      "response_media_kinds",
      `{${op.success.status}: {${alternatives.map((media) => `${pyString(media)}: ${pyString(mediaKind(media))}`).join(", ")}}}`,
    ]);
  const declared = (op.operationObject.responses ?? {}) as Record<string, unknown>;
  if ("default" in declared) fields.push(["default_response", "True"]);
  const parameters = parameterList(op);
  if (parameters.length > 0) {
    const specs = parameters.map(
      (p) =>
        `ParameterSpec(name=${pyString(p.name)}, location=${pyString(p.in)}, required=${p.required ? "True" : "False"}, style=${pyString(p.style)}, explode=${p.explode ? "True" : "False"})`,
    );
    fields.push(["parameters", `(${specs.join(", ")},)`]);
    const name = parametersModelName(op);
    if (modules.parameters && name !== null) fields.push(["parameters_type", `parameters.${name}`]);
  }
  return `    ${pyString(op.operationId)}: OperationExtensions(\n${fields.map(([key, value]) => `        ${key}=${value},\n`).join("")}    ),\n`;
}

function tuple(values: readonly (string | number)[]): string {
  return pyLiteral([...values], { tuples: true, width: Number.MAX_SAFE_INTEGER });
}

/** How an answer of `media` is read: JSON for a JSON media type, text for any other text, else bytes. */
function mediaKind(media: string): "json" | "text" | "binary" {
  const type = media.toLowerCase();
  if (type === "application/json" || type.endsWith("+json")) return "json";
  return type.startsWith("text/") ? "text" : "binary";
}
