import { ConfigurationError } from "../errors.js";
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
 * A test double used wrongly: the test author's error, not a network failure.
 * It is a `ConfigurationError` (the injected `fetch` is configuration), so the
 * runtime passes it through at once, unretried.
 */
function misuse(message: string): ConfigurationError {
  return new ConfigurationError(`scripted(): ${message}`);
}

/** What a step must be, for the messages of {@link misuse}. */
const STEP_RULE = "a step must be a Response, an Error to throw, or a function returning a Response";

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (safely(() => Array.isArray(value))) return "an array";
  if (typeof value === "object") return "a plain object";
  return typeof value === "undefined" ? "undefined" : `a ${typeof value}`;
}

/**
 * A Fetch API Response, from this realm's class or another's (undici's own, a polyfill): what
 * the runtime reads of one can be read (a proxy around a Response whose reads throw is none).
 */
function isResponse(value: unknown): value is Response {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<Response>;
  return (
    typeof candidate.status === "number" &&
    typeof candidate.clone === "function" &&
    typeof candidate.bodyUsed === "boolean" &&
    typeof candidate.headers?.get === "function" &&
    typeof candidate.arrayBuffer === "function"
  );
}

/** An Error a step throws or rejects with to stand for a network failure; null for anything else. */
function failure(thrown: unknown): Error | null {
  return safely(() => thrown instanceof Error && typeof thrown.message === "string") ? (thrown as Error) : null;
}

/** True when the body of `response` was read, or is locked to a reader, so it cannot be read again. */
function bodyTaken(response: Response): boolean {
  return response.bodyUsed || response.body?.locked === true;
}

/** `read(value)`, or false when reading `value` throws (a hostile proxy or getter). */
function safely(read: () => boolean): boolean {
  try {
    return read();
  } catch {
    return false;
  }
}

/** `answer` as a fresh Response of step `index` (1-based), or the misuse it is. */
function answerOf(answer: unknown, index: number): Response {
  if (!safely(() => isResponse(answer))) throw misuse(`step ${index} returned ${describeValue(answer)}; ${STEP_RULE}`);
  const response = answer as Response;
  if (safely(() => bodyTaken(response))) {
    throw misuse(`step ${index} returned a Response whose body was already read; return a new Response`);
  }
  return response;
}

/** A copy of step `index`'s Response for one request, or the misuse it is. */
function cloneOf(step: Response, index: number): Response {
  let copy: unknown;
  try {
    copy = step.clone();
  } catch {
    copy = null;
  }
  if (!safely(() => isResponse(copy)))
    throw misuse(`step ${index}'s Response cannot be cloned; give a Response the Fetch API made`);
  return copy as Response;
}

/**
 * A scripted server: the n-th request gets the n-th step (the last step
 * repeats). Records every request it saw in `seen`, in order.
 *
 * A misused double fails at once with a `ConfigurationError` naming the step
 * and what it must be, which the runtime does not retry: no steps at all
 * (thrown by `scripted()` itself), a step that is not a Response, an Error or
 * a function (also thrown by `scripted()`), a function step that returns
 * anything but a Response, or throws anything but an Error, and a Response
 * whose body was already read.
 *
 * @throws ConfigurationError when called with no steps or with a step of another kind
 */
export function scripted(...steps: Step[]): { fetch: FetchLike; seen: SeenRequest[] } {
  if (steps.length === 0) throw misuse("no steps; give at least one (the last one repeats)");
  for (const [index, step] of steps.entries()) {
    const response = safely(() => isResponse(step));
    if (!(response || failure(step) !== null || typeof step === "function"))
      throw misuse(`step ${index + 1} is ${describeValue(step)}; ${STEP_RULE}`);
    if (response && safely(() => bodyTaken(step as Response)))
      throw misuse(`step ${index + 1} is a Response whose body was already read; give a new Response`);
  }
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
    const index = Math.min(seen.length, steps.length);
    const step = steps[index - 1] as Step;
    if (typeof step !== "function") {
      const error = failure(step);
      if (error !== null) throw error;
      return cloneOf(answerOf(step, index), index);
    }
    const thrownBy = (thrown: unknown) =>
      failure(thrown) ??
      misuse(`step ${index} threw ${describeValue(thrown)}; throw an Error to stand for a network failure`);
    let produced: unknown;
    try {
      produced = step(request);
    } catch (thrown) {
      throw thrownBy(thrown);
    }
    // Only a promise is awaited: awaiting any other value reads its `then`, and asking whether it is
    // one reads its prototype, either of which a hostile value may throw from (then it is none).
    if (!safely(() => produced instanceof Promise && typeof (produced as Promise<unknown>).then === "function"))
      return answerOf(produced, index);
    let answer: unknown;
    try {
      answer = await produced;
    } catch (thrown) {
      throw thrownBy(thrown);
    }
    return answerOf(answer, index);
  };
  return { fetch, seen };
}
