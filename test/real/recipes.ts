// One valid request (wire snake_case, path and query parameters flattened into the
// same object) per operation that our contract and the released server share, plus
// a raw-HTTP sender driven by an operation summary from openapi.ts.
import type { OperationSummary } from "./openapi.js";

export interface RecipeContext {
  /** an existing scope of the server under test */
  readonly scopeId: string;
}

export type Recipe = (ctx: RecipeContext) => Record<string, unknown>;

/** An id that no server has issued. */
export const UNKNOWN_ID = "00000000-0000-4000-8000-00000000dead";

export const recipes: Readonly<Record<string, Recipe>> = {
  get_liveness: () => ({}),
  get_readiness: () => ({}),
  get_capabilities: () => ({}),
  get_server_info: () => ({}),
  get_default_scope: () => ({}),
  list_scopes: () => ({}),
  get_scope: ({ scopeId }) => ({ scope_id: scopeId }),
  capture_content_source: ({ scopeId }) => ({
    scope_id: scopeId,
    source_id: "real-recipe-source",
    content: "Releases are cut from the main branch every Tuesday.",
  }),
  flush_memory: ({ scopeId }) => ({ scope_id: scopeId }),
  remember_memory: ({ scopeId }) => ({ scope_id: scopeId, kind: "fact", text: "Releases are cut on Tuesdays." }),
  search_memory: ({ scopeId }) => ({ scope_id: scopeId, query: "release day" }),
  search_topic_memory: ({ scopeId }) => ({ scope_id: scopeId, query: "release day" }),
  list_memory_entries: ({ scopeId }) => ({ scope_id: scopeId }),
  get_memory_entry: ({ scopeId }) => ({
    scope_id: scopeId,
    citation: {
      memory_ref: { family: "memory", artifact_id: "art_00000000000000000000000000000000", revision: 1 },
      entry_id: "entry-unknown",
      entry_version_id: "version-unknown",
    },
  }),
  get_topic_memory_processing_status: ({ scopeId }) => ({ scope_id: scopeId }),
  get_topic_memory_processing_block: ({ scopeId }) => ({ scope_id: scopeId, block_id: UNKNOWN_ID }),
  retry_topic_memory_processing: ({ scopeId }) => ({ scope_id: scopeId, block_id: UNKNOWN_ID }),
};

export interface RawResult {
  readonly status: number;
  readonly requestId: string | null;
  readonly contentType: string | null;
  readonly body: unknown;
  readonly text: string;
}

/** Send one request exactly as the operation summary describes it, with fetch. */
export async function rawCall(
  baseUrl: string,
  op: Pick<OperationSummary, "method" | "path" | "parameters" | "requestSchema">,
  request: Record<string, unknown>,
  options: { token?: string; body?: string } = {},
): Promise<RawResult> {
  const rest: Record<string, unknown> = { ...request };
  let path = op.path;
  const query = new URLSearchParams();
  for (const parameter of op.parameters) {
    const [where, name] = parameter.split(":") as [string, string];
    const value = rest[name];
    delete rest[name];
    if (value === undefined || value === null) continue;
    if (where === "path") path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
    else if (where === "query") query.set(name, String(value));
  }
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.body;
  if (body === undefined && op.requestSchema !== null) body = JSON.stringify(rest);
  if (body !== undefined) headers["content-type"] = "application/json";
  const search = query.toString();
  const response = await fetch(`${baseUrl}${path}${search ? `?${search}` : ""}`, {
    method: op.method,
    headers,
    body,
    redirect: "manual",
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return {
    status: response.status,
    requestId: response.headers.get("x-powercontext-request-id"),
    contentType: response.headers.get("content-type"),
    body: parsed,
    text,
  };
}

export function camelCase(operationId: string): string {
  return operationId.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
