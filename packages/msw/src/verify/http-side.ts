// One side of `powercontext-mock verify` over HTTP: the global fetch, the side's bearer
// token on every request, a time limit per request and the run's own signal (Ctrl-C,
// --timeout). The answer is read whole, as the judge compares it.
import type { Answer } from "./random/judge.js";
import type { Side } from "./random/run.js";
import type { HttpRequest } from "./random/requests.js";

/** Longest wait for one answer, in ms. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** A request as verify sends it outside the random run (the contract, the capabilities, cleanup). */
export interface PlainRequest {
  readonly method: string;
  /** path and query, e.g. `/openapi.json` */
  readonly target: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** A server reached over HTTP. */
export interface HttpSide extends Side {
  /** sends any request to the server (the same headers and limits as the run's) */
  send(request: PlainRequest): Promise<Answer>;
}

async function read(response: Response): Promise<Answer> {
  const text = await response.text();
  const contentType = response.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? null;
  let body: unknown = text === "" ? null : text;
  if (text !== "" && (contentType === "application/json" || contentType?.endsWith("+json") === true)) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: response.status, contentType, body, headers: response.headers };
}

/**
 * A side reached at `baseUrl` with `token`.
 *
 * @param baseUrl the server's base URL, checked (normalizeBaseUrl), without a trailing slash
 * @param token the bearer token sent on every request
 * @param signal stops every request in flight when aborted
 */
export function httpSide(baseUrl: string, token: string, signal?: AbortSignal): HttpSide {
  const send = async (request: PlainRequest): Promise<Answer> => {
    const headers: Record<string, string> = {
      accept: "application/json, text/markdown;q=0.9",
      ...request.headers,
      authorization: `Bearer ${token}`,
    };
    if (request.body !== undefined && headers["content-type"] === undefined)
      headers["content-type"] = "application/json";
    const limit = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    const response = await fetch(`${baseUrl}${request.target}`, {
      method: request.method,
      headers,
      body: request.body,
      redirect: "manual",
      signal: signal === undefined ? limit : AbortSignal.any([limit, signal]),
    });
    return read(response);
  };
  return { send, exchange: (http: HttpRequest) => send(http) };
}
