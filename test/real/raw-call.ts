// A raw-HTTP sender driven by an operation summary from openapi.ts (wire snake_case,
// path and query parameters flattened into one request object), for tests that must see
// the server's answer without any client in between.
import type { OperationSummary } from "./openapi.js";

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
  let parsed: unknown;
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
