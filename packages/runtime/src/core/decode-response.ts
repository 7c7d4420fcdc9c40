import type { OperationDescriptor, OperationValidators, Validator } from "../descriptor.js";
import { ClientError, InvalidResponseError, serverResponseError, type ContractErrorTable } from "../errors.js";
import { parseRetryAfter } from "../retry/retry-after.js";
import { parseJson, type ResponseContext } from "../transport/parse-json.js";
import type { TransportResponse } from "../transport/port.js";
import { readBody } from "../transport/read-body.js";
import { ServerAnswer } from "./redact-answer.js";

/** Header carrying the server's request id (DESIGN §3). */
export const REQUEST_ID_HEADER = "x-powercontext-request-id";

/** A response the operation declares as an outcome: its success status or its accepted status. */
export interface DecodedResponse {
  statusCode: number;
  /** Validated body; null for an empty body (tolerated for an accepted status). */
  data: unknown;
  requestId: string | null;
  /** True when the status is the operation's accepted (asynchronous) status. */
  accepted: boolean;
  /** `Retry-After` in ms, or null. */
  retryAfterMs: number | null;
  /** Raw `Location` header, or null. */
  location: string | null;
}

/** Limits applied while decoding. */
export interface DecodeLimits {
  maxResponseBytes: number;
  secrets: readonly string[];
  /** Contract error classes by envelope code; without them an error status raises its status class. */
  contractErrors?: ContractErrorTable | null;
}

/** A validator's issues as `instancePath message` strings. */
export function issuesOf(validator: Validator): string[] {
  return (validator.errors ?? []).map((issue) => `${issue.instancePath || "/"} ${issue.message ?? issue.keyword ?? "is invalid"}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasExactKeys(value: Record<string, unknown>, keys: readonly string[]): boolean {
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((key) => Object.hasOwn(value, key));
}

/** The envelope `{"error": {"code", "message", "details"}}`, or null when the body is anything else. */
export function decodeErrorEnvelope(
  body: unknown,
): { code: string; message: string; details: Record<string, unknown> | null } | null {
  if (!isPlainObject(body) || !hasExactKeys(body, ["error"])) return null;
  const error = body.error;
  if (!isPlainObject(error) || !hasExactKeys(error, ["code", "message", "details"])) return null;
  const { code, message, details } = error;
  if (typeof code !== "string" || typeof message !== "string") return null;
  if (details !== null && !isPlainObject(details)) return null;
  return { code, message, details };
}

/**
 * What to throw when the decoding of an answer that has been read failed.
 * Anything that is not a `ClientError` (a `RangeError` from a value nested
 * too deep for a validator, a defect) becomes `InvalidResponseError`: the
 * server did answer, so it must never read as a transport failure, which the
 * retry loop would re-send.
 */
function decodingFailure(error: unknown, context: ResponseContext): unknown {
  if (error instanceof ClientError) return error;
  const kind = error instanceof Error ? error.name : typeof error;
  return new InvalidResponseError(`response ${context.statusCode} could not be decoded (${kind})`, {
    ...context,
    issues: [`decoding failed: ${kind}`],
  });
}

/**
 * Turns a response into the operation's outcome (DESIGN §2):
 * exactly the declared success status (or the accepted status of an
 * asynchronous operation) is an outcome; any other status, including another
 * 2xx and every 3xx (redirects are not followed), becomes the matching
 * `ServerResponseError`, whose `code`/`serverMessage`/`details` are filled only
 * when the body is exactly the error envelope.
 *
 * @throws InvalidResponseError for an oversized, non-UTF-8, non-JSON (a byte
 *   order mark included), unsafe-integer, lone-surrogate or schema-violating
 *   outcome body (an integral literal written as a float, such as `3.0`, is not
 *   an integer); a ServerResponseError subclass otherwise.
 */
export async function decodeResponse(
  response: TransportResponse,
  descriptor: OperationDescriptor,
  validators: OperationValidators | undefined,
  limits: DecodeLimits,
): Promise<DecodedResponse> {
  const statusCode = response.status;
  // Every header and body part the outcome or an error keeps comes through `answer`, secrets removed.
  const answer = new ServerAnswer(response, limits.secrets);
  const requestId = answer.header(REQUEST_ID_HEADER);
  const context: ResponseContext = { statusCode, requestId };
  const accepted = descriptor.async !== null && descriptor.async.acceptedStatus === statusCode;
  // Retry-After paces operation polls and retries after an error status.
  const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));

  if (statusCode === descriptor.successStatus || accepted) {
    // Every success body is validated (DESIGN §2); an empty body is tolerated for an accepted status or 204.
    const text = await readBody(response, context, limits.maxResponseBytes);
    let data: unknown = null;
    try {
      if (text.trim() !== "" || !(accepted || statusCode === 204)) {
        const value = parseJson(text, context);
        const validator = validators?.responses[statusCode];
        // The text lets a generated validator refuse a literal such as 3.0 where the schema wants an integer.
        if (validator !== undefined && !validator(value, text)) {
          const issues = issuesOf(validator).map((issue) => answer.text(issue));
          throw new InvalidResponseError(`response ${statusCode} does not match the schema: ${issues[0]}`, { ...context, issues });
        }
        data = answer.body(value, text, "success");
      }
    } catch (error) {
      throw decodingFailure(error, context);
    }
    // Location matters only on an accepted response.
    return { statusCode, data, requestId, accepted, retryAfterMs, location: accepted ? answer.header("location") : null };
  }

  let text: string | null = null;
  try {
    text = await readBody(response, context, limits.maxResponseBytes);
  } catch (error) {
    // Oversized or not UTF-8: no envelope. A network failure while reading stays a transport failure.
    if (!(error instanceof InvalidResponseError)) throw error;
  }
  let envelope: ReturnType<typeof decodeErrorEnvelope> = null;
  if (text !== null) {
    try {
      envelope = decodeErrorEnvelope(answer.body(parseJson(text, context), text, "error"));
    } catch {
      // Not JSON, or nothing that can be decoded at all: the status decides, code, message and details stay null.
    }
  }
  throw serverResponseError({
    statusCode,
    code: envelope?.code ?? null,
    serverMessage: envelope?.message ?? null,
    details: envelope?.details ?? null,
    requestId,
    retryAfterMs,
  }, limits.contractErrors ?? null);
}
