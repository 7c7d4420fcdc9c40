import { abortReason } from "./abort-reason.js";
import { AbortError, ClientError, TimeoutError, TransportError } from "../errors.js";
import type { PreparedRequest } from "./build-request.js";
import { TIMEOUT_CODES, type Transport, type TransportResponse } from "./port.js";
import { describeFailure, findErrorCode, isConnectFailure, redact, sanitizeCause } from "./sanitize.js";

/** Reads a response within its attempt (body reading is covered by the attempt's timeout). */
export interface ResponseConsumer<T> {
  consume(response: TransportResponse): Promise<T>;
}

/** One attempt's limits. */
export interface AttemptLimits {
  /** Milliseconds before the attempt is given up (headers and body). */
  timeoutMs: number;
  /** Which limit `timeoutMs` represents, for the resulting `TimeoutError`. */
  limit: "attempt" | "deadline";
  /** The caller's signal. */
  signal?: AbortSignal | undefined;
  /** Values that must never appear in an error (the bearer token). */
  secrets: readonly string[];
}

/**
 * The client error for whatever an attempt failed with. Anything may arrive
 * here (a custom fetch or dispatcher can throw `Object.create(null)`, a
 * string, undefined, an error whose getters throw), so nothing here may
 * throw: the last resort is a `TransportError` saying "unknown failure".
 */
function failure(error: unknown, request: PreparedRequest, limits: AttemptLimits, responded: boolean): ClientError {
  const { path } = request;
  try {
    if (error instanceof ClientError) return error;
    if (limits.signal?.aborted === true) return new AbortError(path, abortReason(limits.signal));
    const code = findErrorCode(error);
    if (code !== undefined && TIMEOUT_CODES.has(code))
      return new TimeoutError({ path, timeoutMs: limits.timeoutMs, limit: limits.limit });
    const { secrets } = limits;
    const phase = !responded && isConnectFailure(error) ? "connect" : "exchange";
    return new TransportError(
      `PowerContext request to ${path} failed: ${redact(code ?? describeFailure(error), secrets)}`,
      {
        path,
        phase,
        cause: sanitizeCause(error, secrets),
      },
    );
  } catch {
    return new TransportError(`PowerContext request to ${path} failed: unknown failure`, { path, phase: "exchange" });
  }
}

/**
 * Sends one attempt through the transport port and hands the response to
 * `consumer.consume`, within the attempt's limit (the adapter enforces it on
 * the headers and the body and releases the connection when it passes, ADR
 * 0003). Redirects are never followed (docs/compatibility.md): a 3xx is a response like
 * any other. A response whose consumer fails is cancelled, so its connection
 * is released.
 *
 * @throws AbortError when the caller's signal fires;
 *   TimeoutError when `timeoutMs` passes;
 *   TransportError (phase `connect` when the request provably never left) for
 *   any other failure of the transport or of reading the body, whatever was
 *   thrown;
 *   whatever `ClientError` `consumer.consume` throws, unchanged.
 */
export async function sendAttempt<T>(
  transport: Transport,
  request: PreparedRequest,
  limits: AttemptLimits,
  consumer: ResponseConsumer<T>,
): Promise<T> {
  if (limits.signal?.aborted) throw new AbortError(request.path, abortReason(limits.signal));
  let response: TransportResponse | null = null;
  try {
    response = await transport.send({
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: request.body,
      timeoutMs: limits.timeoutMs,
      signal: limits.signal,
      neverResend: request.neverResend === true,
    });
    return await consumer.consume(response);
  } catch (error) {
    try {
      response?.cancel();
    } catch {
      // the failure below is what the caller needs
    }
    throw failure(error, request, limits, response !== null);
  }
}
