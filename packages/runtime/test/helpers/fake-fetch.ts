import type { FetchInit, FetchLike } from "../../src/transport/send.js";

/** What a fake server saw for one request. */
export interface SeenRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  redirect: string;
}

export type Step = Response | Error | ((request: SeenRequest) => Response | Promise<Response>);

/** JSON response with the request id header. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "x-powercontext-request-id": `req-${status}`, ...headers },
  });
}

/** An error body in the envelope. */
export function envelope(status: number, code: string, details: Record<string, unknown> | null = null, headers: Record<string, string> = {}): Response {
  return json(status, { error: { code, message: `${code} happened`, details } }, headers);
}

/** What Node's fetch throws when a connect fails (the request never left). */
export function connectError(code = "ECONNREFUSED"): Error {
  return Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error(`connect ${code} 10.0.0.1:443`), { code }) });
}

/** What Node's fetch throws when a reused keep-alive socket is closed by the server. */
export function socketClosed(): Error {
  return Object.assign(new TypeError("fetch failed"), {
    cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }),
  });
}

/**
 * A scripted server: the n-th request gets the n-th step (the last step
 * repeats). Records every request it saw.
 */
export function scripted(...steps: Step[]): { fetch: FetchLike; seen: SeenRequest[] } {
  const seen: SeenRequest[] = [];
  const fetch: FetchLike = async (url: string, init: FetchInit) => {
    const request: SeenRequest = { url, method: init.method, headers: { ...init.headers }, body: init.body, redirect: init.redirect };
    seen.push(request);
    const step = steps[Math.min(seen.length - 1, steps.length - 1)];
    if (step === undefined) throw new Error("no step");
    if (step instanceof Error) throw step;
    if (typeof step === "function") return step(request);
    return step.clone();
  };
  return { fetch, seen };
}
