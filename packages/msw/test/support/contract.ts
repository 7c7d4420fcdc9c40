import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { parse } from "yaml";

/**
 * Validates simulator answers against `openapi.yaml`: the body schema declared
 * for the operation and status (OpenAPI 3.0 `nullable` converted to JSON
 * Schema), and the headers the response declares as required.
 */
const specPath = fileURLToPath(new URL("../../../../openapi.yaml", import.meta.url));
type Json = Record<string, unknown>;
export const spec = parse(readFileSync(specPath, "utf8")) as {
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json>; headers: Record<string, Json> };
};

function convert(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(convert);
  if (typeof node !== "object" || node === null) return node;
  const { nullable, example, ...rest } = node as Json;
  void example;
  const out: Json = {};
  for (const [key, value] of Object.entries(rest)) {
    out[key] = key === "properties" ? Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, convert(v)])) : convert(value);
  }
  if (nullable !== true) return out;
  if (typeof out.type === "string" && !out.allOf && !out.$ref) return { ...out, type: [out.type, "null"] };
  return { anyOf: [out, { type: "null" }] };
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat("int64", true);
ajv.addSchema({ $id: "spec", components: { schemas: convert(spec.components.schemas) } });

/** The operation object of `operationId`. */
export function operationOf(operationId: string): Json {
  for (const item of Object.values(spec.paths)) {
    for (const op of Object.values(item)) if (op.operationId === operationId) return op;
  }
  throw new Error(`no operation ${operationId}`);
}

function responseOf(operationId: string, status: number): Json | undefined {
  const raw = (operationOf(operationId).responses as Record<string, Json>)[String(status)];
  if (!raw) return undefined;
  const ref = raw.$ref as string | undefined;
  return ref ? spec.components.responses[ref.split("/").pop() as string] : raw;
}

const cache = new Map<string, ValidateFunction>();

/**
 * Problems with one answer, empty when it honours the contract.
 * @param headers response headers (any case)
 */
export function contractProblems(operationId: string, status: number, headers: Record<string, string>, body: unknown): string[] {
  const response = responseOf(operationId, status);
  if (!response) return [`${operationId} does not declare ${status}`];
  const problems: string[] = [];
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  if (!lower["x-powercontext-request-id"]) problems.push("missing X-PowerContext-Request-ID");
  for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
    const resolved = header.$ref ? spec.components.headers[(header.$ref as string).split("/").pop() as string] : header;
    if (resolved?.required && lower[name.toLowerCase()] === undefined) problems.push(`missing required header ${name}`);
  }
  const schema = ((response.content as Json | undefined)?.["application/json"] as Json | undefined)?.schema as Json | undefined;
  if (!schema) {
    if (body !== null && body !== undefined) problems.push("body on a response without content");
    return problems;
  }
  const ref = (schema.$ref as string).replace("#", "spec#");
  let validate = cache.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    cache.set(ref, validate);
  }
  if (!validate(body)) problems.push(...(validate.errors ?? []).map((e) => `${ref} ${e.instancePath} ${e.message}`));
  return problems;
}
