import { ClientError, MiddlewareError } from "../errors.js";
import type { Middleware, MiddlewareRequest, MiddlewareResponse } from "../config/middleware-hooks.js";
import type { PreparedRequest } from "../transport/build-request.js";
import { headerFieldProblem } from "../transport/header-field.js";
import { sanitizeCause } from "../transport/sanitize.js";
import type { Transport, TransportResponse } from "../transport/port.js";
import { ServerAnswer } from "./redact-answer.js";
import { sendAttempt, type AttemptLimits, type ResponseConsumer } from "../transport/send.js";

/** A `Response` an `onResponse` hook handed back, seen through the transport port. */
class ReplacedResponse implements TransportResponse {
  readonly status: number;
  readonly headers: Headers;
  #reader: ReadableStreamDefaultReader<Uint8Array> | null;

  constructor(response: Response) {
    this.status = response.status;
    this.headers = response.headers;
    this.#reader = response.body?.getReader() ?? null;
  }

  async read(): Promise<Uint8Array | null> {
    if (this.#reader === null) return null;
    const { done, value } = await this.#reader.read();
    if (done) this.#reader = null;
    return done ? null : value;
  }

  cancel(): void {
    this.#reader?.cancel().catch(() => undefined);
    this.#reader = null;
  }
}

/** One attempt's pass through the middleware: the request after `onRequest`, plus the response and failure steps. */
interface MiddlewareExchange {
  /** The request to send: the hooks' headers plus the client's `Authorization`. */
  readonly request: PreparedRequest;
  /** Runs the `onResponse` hooks (reverse order) and returns the response to decode. */
  respond(response: TransportResponse): Promise<TransportResponse>;
  /** Runs the `onError` hooks (reverse order); anything they throw is ignored. */
  fail(error: unknown): Promise<void>;
}

/** Runs `step`, turning anything but an SDK error it throws into a MiddlewareError. */
async function guarded<T>(hook: string, secrets: readonly string[], step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ClientError) throw error;
    throw new MiddlewareError(`middleware ${hook} failed`, sanitizeCause(error, secrets));
  }
}

/**
 * Runs the `onRequest` hooks of `middleware` for one attempt of `prepared`.
 *
 * @throws MiddlewareError when a hook throws or sets `Authorization`.
 */
async function beginExchange(
  middleware: readonly Middleware[],
  operationId: string,
  attempt: number,
  prepared: PreparedRequest,
  secrets: readonly string[],
  token: string,
): Promise<MiddlewareExchange> {
  const headers = new Headers(prepared.headers);
  const authorization = headers.get("authorization");
  headers.delete("authorization");
  const view: MiddlewareRequest = {
    operationId,
    attempt,
    method: prepared.method,
    url: prepared.url,
    headers,
    body: prepared.body,
  };
  for (const entry of middleware) {
    if (entry.onRequest !== undefined) await guarded("onRequest", secrets, () => entry.onRequest?.(view));
  }
  if (headers.has("authorization")) {
    throw new MiddlewareError("middleware cannot set Authorization: it comes from the client's token", null);
  }
  for (const [name, value] of headers) {
    // Refused here, never retried: the transport would fail on it before sending anything.
    // (Authorization was checked above, with its own message.)
    const problem = headerFieldProblem(name, value, token);
    if (problem !== null) throw new MiddlewareError(problem, null);
  }
  const sent: Record<string, string> = Object.fromEntries(headers);
  if (authorization !== null) sent.authorization = authorization;
  return {
    request: { ...prepared, headers: sent },
    async respond(response) {
      let current = response;
      // Hooks see the headers with the secrets removed, as withResponse() does.
      let seen: MiddlewareResponse = {
        status: response.status,
        headers: new ServerAnswer(response, secrets).headers(),
      };
      for (let index = middleware.length - 1; index >= 0; index -= 1) {
        const hook = middleware[index]?.onResponse;
        if (hook === undefined) continue;
        const replaced = await guarded("onResponse", secrets, () =>
          hook.call(middleware[index], { request: view, response: seen }),
        );
        if (replaced instanceof Response) {
          // The response it replaces is not read: release its connection.
          current.cancel();
          current = new ReplacedResponse(replaced);
          seen = { status: replaced.status, headers: replaced.headers };
        }
      }
      return current;
    },
    async fail(error) {
      for (let index = middleware.length - 1; index >= 0; index -= 1) {
        try {
          await middleware[index]?.onError?.({ request: view, error });
        } catch {
          // Observation only: the attempt's own error stands.
        }
      }
    },
  };
}

/** What {@link sendThroughMiddleware} reads of the client's configuration. */
export interface MiddlewareConfig {
  /** Where the attempt goes. */
  readonly transport: Transport;
  /** The hooks, in the order given. */
  readonly middleware: readonly Middleware[];
  /** Values never shown to a hook's error (the token). */
  readonly secrets: readonly string[];
  /** The bearer token ("" for none): while set, a hook cannot set `Authorization`. */
  readonly token: string;
}

/**
 * How an attempt passes the middleware: {@link sendThroughMiddleware}. A
 * runtime holds it only when middleware is configured, and `createCaller`
 * only when given (`parts.middleware`), so a bundle without middleware
 * carries none of this module.
 */
export type MiddlewareRunner = typeof sendThroughMiddleware;

/**
 * One attempt (`sendAttempt` of `transport/send.ts`) through the client's middleware: `onRequest` hooks
 * first (outside the attempt's timeout), then the attempt, whose response
 * passes the `onResponse` hooks before `consumer` decodes it (inside the
 * timeout); a failure passes the `onError` hooks and is rethrown unchanged.
 *
 * @throws MiddlewareError when a hook throws or sets `Authorization`, plus
 *   everything the attempt throws (see `transport/send.ts`).
 */
export async function sendThroughMiddleware<T>(
  config: MiddlewareConfig,
  operationId: string,
  attempt: number,
  prepared: PreparedRequest,
  limits: AttemptLimits,
  consumer: ResponseConsumer<T>,
): Promise<T> {
  const exchange = await beginExchange(config.middleware, operationId, attempt, prepared, config.secrets, config.token);
  try {
    return await sendAttempt(config.transport, exchange.request, limits, {
      consume: async (response) => consumer.consume(await exchange.respond(response)),
    });
  } catch (error) {
    await exchange.fail(error);
    throw error;
  }
}
