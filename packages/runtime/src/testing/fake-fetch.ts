import type { FetchInit, FetchLike } from "../transport/fetch-adapter.js";

/** What a scripted fetch saw for one request: the URL, method, headers (lower-case names), body text and redirect mode as sent. */
export interface SeenRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  redirect: string;
}

/** One scripted answer: a `Response` (cloned on each use), an `Error` to throw, or a function of the request that returns the answer. */
export type Step = Response | Error | ((request: SeenRequest) => Response | Promise<Response>);

/** A JSON answer with `status`, the body serialised (no body when `undefined`), and a request id header `req-<status>` besides `headers`. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "x-powercontext-request-id": `req-${status}`, ...headers },
  });
}

/** An error answer in the envelope `{"error": {"code", "message", "details"}}`, with the message `<code> happened`. */
export function envelope(
  status: number,
  code: string,
  details: Record<string, unknown> | null = null,
  headers: Record<string, string> = {},
): Response {
  return json(status, { error: { code, message: `${code} happened`, details } }, headers);
}

/** What Node's fetch throws when a connect fails (the request never left). */
export function connectError(code = "ECONNREFUSED"): Error {
  return Object.assign(new TypeError("fetch failed"), {
    cause: Object.assign(new Error(`connect ${code} 10.0.0.1:443`), { code }),
  });
}

/** What Node's fetch throws when a reused keep-alive socket is closed by the server. */
export function socketClosed(): Error {
  return Object.assign(new TypeError("fetch failed"), {
    cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }),
  });
}

/**
 * A scripted server: the n-th request gets the n-th step (the last step
 * repeats). Records every request it saw in `seen`, in order.
 *
 * @throws Error "no step" from the returned fetch when called with no steps.
 */
export function scripted(...steps: Step[]): { fetch: FetchLike; seen: SeenRequest[] } {
  const seen: SeenRequest[] = [];
  const fetch: FetchLike = async (url: string, init: FetchInit) => {
    const request: SeenRequest = {
      url,
      method: init.method,
      headers: { ...init.headers },
      body: init.body,
      redirect: init.redirect,
    };
    seen.push(request);
    const step = steps[Math.min(seen.length - 1, steps.length - 1)];
    if (step === undefined) throw new Error("no step");
    if (step instanceof Error) throw step;
    if (typeof step === "function") return step(request);
    return step.clone();
  };
  return { fetch, seen };
}
