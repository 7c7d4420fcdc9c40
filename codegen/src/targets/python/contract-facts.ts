import type { Json } from "../../domain/types.js";
import { featureContracts as documentFeatureContracts } from "../../ir/answers.js";
import type { ApiIr, OperationIr } from "../../ir/model.js";

/**
 * The facts of an operation that the Python Client SDK's generated layer carries
 * and the IR does not model (tags, responses as declared, the release's
 * `x-powercontext-scope-mode`, `x-powercontext-access` and feature contracts),
 * read from the operation object the IR points at.
 */
export interface PythonOperationFacts {
  readonly op: OperationIr;
  readonly tags: readonly string[];
  /** `responses` as declared, each without `content`; `$ref`s kept. */
  readonly responses: Json;
  readonly successStatus: number;
  readonly responseType: string | null;
  readonly scopeMode: string;
  readonly access: AccessFacts | null;
  readonly featureContracts: readonly string[];
}

/** `x-powercontext-access` in the generated `AccessRequirement`'s terms. */
export interface AccessFacts {
  readonly action: string | null;
  readonly resource: string | null;
  readonly scopeIdField: string | null;
  readonly resolver: string;
}

export { documentOrder } from "../../ir/document-order.js";

/** Everything `operations.py` says about one operation. */
export function pythonFacts(_ir: ApiIr, op: OperationIr): PythonOperationFacts {
  const raw = op.operationObject;
  const declared = (raw.responses ?? {}) as Json;
  const responses: Json = {};
  for (const [status, node] of Object.entries(declared)) {
    const { content: _content, ...rest } = node as Json;
    responses[status] = rest;
  }
  const features = raw["x-powercontext-feature-contracts"];
  return {
    op,
    tags: op.tags,
    responses,
    successStatus: pickSuccess(op),
    responseType: pythonResponseType(op),
    scopeMode:
      typeof raw["x-powercontext-scope-mode"] === "string" ? (raw["x-powercontext-scope-mode"] as string) : "none",
    access: accessFacts(raw["x-powercontext-access"]),
    featureContracts: Array.isArray(features) ? features.map(String) : [],
  };
}

/** The model of an operation's success body (`response_type`): its component schema when the body is JSON, else null. */
export function pythonResponseType(op: OperationIr): string | null {
  const successStatus = pickSuccess(op);
  const success = op.responses.find((r) => r.status === successStatus);
  return success?.kind === "json" ? success.schemaName : null;
}

/**
 * The success status: the IR's when the operation declares an accepted status
 * (`x-powercontext-async`); with several 2xx and no such extension, 202 when it is
 * one of them, else the lowest. The release takes the first 2xx as written; a
 * parsed document cannot tell that order (JavaScript orders integer-like keys
 * ascending), and on the release's contract both rules agree (`create_dream_run`
 * declares 202, then 200). docs/python.md records this.
 */
function pickSuccess(op: OperationIr): number {
  if (op.async !== null) return op.success.status;
  return op.successStatuses.includes(202) ? 202 : op.success.status;
}

function accessFacts(node: unknown): AccessFacts | null {
  if (node === null || node === undefined || typeof node !== "object") return null;
  const access = node as Json;
  if (typeof access.resolver === "string")
    return { action: null, resource: null, scopeIdField: null, resolver: access.resolver };
  const resource = (access.resource ?? {}) as Json;
  const scopeIdField = typeof resource["scope-id-from"] === "string" ? (resource["scope-id-from"] as string) : null;
  return {
    action: typeof access.action === "string" ? access.action : null,
    resource: typeof resource.type === "string" ? resource.type : null,
    scopeIdField,
    resolver: scopeIdField === null ? "static" : "request",
  };
}

/**
 * `FEATURE_CONTRACTS`: each contract of the document's
 * `x-powercontext-feature-contracts` with its version and the operations (in
 * document order) that name it.
 */
export function featureContracts(ir: ApiIr): Json {
  return documentFeatureContracts(ir.document, ir.operations);
}
