// One scenario step as plain HTTP: the flat request is split into path, query, header
// and body members by openapi.yaml's parameters, sent with fetch to a loopback server,
// and the answer kept whole (status, selected headers, parsed body) for comparison.
import { Agent, fetch as undiciFetch } from "undici";
import type { OperationSummary } from "../real/openapi.js";
import type { Auth } from "./scenario-format.js";

/** Where a step is sent and with which credentials. */
export interface Target {
  readonly name: "real" | "mock";
  readonly baseUrl: string;
  /** the administrator's bearer token */
  readonly token: string;
}

/** A request resolved from a step (templates substituted). */
export interface ResolvedRequest {
  readonly operation?: OperationSummary;
  readonly method?: string;
  readonly path?: string;
  /** admin, none, bad, other, or a literal bearer credential */
  readonly auth: Auth | { readonly bearer: string };
  readonly request: Record<string, unknown>;
  readonly headers: Record<string, unknown>;
  readonly body?: string;
}

/** What a server answered, as the comparison sees it. */
export interface Answer {
  readonly status: number;
  /** content type without parameters, or null */
  readonly contentType: string | null;
  /** the parsed JSON body, the text of another body, or null for none */
  readonly body: unknown;
  readonly headers: Headers;
}

/** Headers worth comparing by presence (their values are server-assigned or compared elsewhere). */
export const COMPARED_HEADERS = ["etag", "location", "retry-after"] as const;

const STEP_TIMEOUT_MS = 30_000;

function credential(auth: ResolvedRequest["auth"], target: Target): string | null {
  if (typeof auth === "object") return auth.bearer;
  if (auth === "admin") return target.token;
  if (auth === "bad") return "not a token";
  if (auth === "other") return "pc-unknown-0123456789abcdef";
  return null;
}

/** The URL, method, headers and body of a resolved request. */
export function httpRequest(resolved: ResolvedRequest, target: Target): { url: string; init: RequestInit } {
  const rest: Record<string, unknown> = { ...resolved.request };
  const headers: Record<string, string> = { accept: "application/json, text/markdown;q=0.9" };
  let path = resolved.path ?? "";
  const query = new URLSearchParams();
  const operation = resolved.operation;
  if (operation) {
    path = operation.path;
    for (const parameter of operation.parameters) {
      const [where, name] = parameter.split(":") as [string, string];
      const value = rest[name];
      delete rest[name];
      if (value === undefined || value === null) continue;
      const text = typeof value === "string" ? value : JSON.stringify(value);
      if (where === "path") path = path.replace(`{${name}}`, encodeURIComponent(text));
      else if (where === "query") query.set(name, text);
      else if (where === "header") headers[name.toLowerCase()] = text;
    }
  }
  // A header given as null is left out, Content-Type included (the body then goes as bytes,
  // to which fetch adds no Content-Type of its own).
  const omitted = new Set<string>();
  for (const [name, value] of Object.entries(resolved.headers)) {
    if (value === null) omitted.add(name.toLowerCase());
    else headers[name.toLowerCase()] = typeof value === "string" ? value : JSON.stringify(value);
  }
  const token = credential(resolved.auth, target);
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let body = resolved.body;
  if (body === undefined && operation?.requestSchema != null) body = JSON.stringify(rest);
  if (body !== undefined && headers["content-type"] === undefined && !omitted.has("content-type"))
    headers["content-type"] = "application/json";
  const search = query.toString();
  const method = resolved.method ?? operation?.method ?? "GET";
  return {
    url: `${target.baseUrl}${path}${search ? `?${search}` : ""}`,
    init: {
      method,
      headers,
      body: body !== undefined && omitted.has("content-type") ? new TextEncoder().encode(body) : body,
      redirect: "manual",
    },
  };
}

/**
 * Over loopback, connections idle for a second are not reused. The release closes
 * an idle keep-alive connection after 5 s; a step sent on one just as it closes
 * would fail with "other side closed" on a loaded machine, which is no difference
 * of the servers. Any other host is msw's (the mock through `setupServer`), which
 * intercepts the global fetch only.
 */
const newDispatcher = () => new Agent({ keepAliveTimeout: 1_000, keepAliveMaxTimeout: 1_000 });
let dispatcher = newDispatcher();

/**
 * After a 5xx answer the next step goes out on a new connection. The release drops
 * the connection of a request whose handler failed (an unhandled error, answered
 * 500) once the answer is sent, without saying so in the answer: the next request
 * on it would fail with ECONNRESET or "other side closed", which is no difference of
 * the servers (on a new connection the release answers it).
 */
function afterServerError(): void {
  const used = dispatcher;
  dispatcher = newDispatcher();
  void used.close();
}
const LOOPBACK = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/;

/**
 * Sends one request and reads the whole answer.
 *
 * @throws {Error} when the server does not answer within 30 s (the run stops: a hung
 *   server is not a difference to tabulate)
 */
export async function send(resolved: ResolvedRequest, target: Target): Promise<Answer> {
  const { url, init } = httpRequest(resolved, target);
  const signal = AbortSignal.timeout(STEP_TIMEOUT_MS);
  const response = LOOPBACK.test(url)
    ? await undiciFetch(url, { ...init, dispatcher, signal })
    : await fetch(url, { ...init, signal });
  const text = await response.text();
  if (response.status >= 500 && LOOPBACK.test(url)) afterServerError();
  const contentType = response.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? null;
  let body: unknown = text === "" ? null : text;
  if (text !== "" && (contentType === "application/json" || contentType?.endsWith("+json"))) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: response.status, contentType, body, headers: response.headers };
}

/** The envelope's `error.code` of an error answer, or null. */
export function errorCode(answer: Answer): string | null {
  if (answer.status < 400) return null;
  const body = answer.body as { error?: { code?: unknown } } | null;
  return typeof body?.error?.code === "string" ? body.error.code : null;
}
