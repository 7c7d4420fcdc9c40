import type { OperationDescriptor, OperationValidators, Validator } from "../descriptor.js";
import { ClientError, InvalidResponseError, serverResponseError, type ContractErrorTable } from "../errors.js";
import { OperationNotServedError } from "../not-served-error.js";
import { parseRetryAfter } from "../retry/retry-after.js";
import { invalidBody, parseJson, type ResponseContext } from "../transport/parse-json.js";
import type { TransportResponse } from "../transport/port.js";
import { readBody, readBytes } from "../transport/read-body.js";
import { sentMediaType, undeclaredMedia } from "./media-type.js";
import { ServerAnswer } from "./redact-answer.js";
import { ResponseOutcome } from "./response-outcome.js";

/** How much of an error body that is not the envelope is kept on the error: its first 8 KiB, as text. */
const ERROR_BODY_LIMIT_BYTES = 8 * 1024;
const STRICT_DECODER = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
/** Error bodies are kept for people to read: malformed bytes (or a cut character) become U+FFFD. */
const LENIENT_DECODER = new TextDecoder("utf-8");

/** A response the operation declares as an outcome: a success status, its accepted status, or its 304. */
export interface DecodedResponse {
  /** HTTP status code (0 for an opaque redirect). */
  statusCode: number;
  /**
   * The body by the status's declared media kind: validated JSON (null for an
   * empty body where tolerated: an accepted status or a 204 read as JSON), a
   * string for text, a Uint8Array for binary, undefined for a response declared
   * without content (and for a declared 304).
   */
  data: unknown;
  /** The request id header of the response (the descriptor names it), or null. */
  requestId: string | null;
  /** True when the status is the operation's accepted (asynchronous) status. */
  accepted: boolean;
  /** `Retry-After` in ms, or null. */
  retryAfterMs: number | null;
  /** Raw `Location` header, or null. */
  location: string | null;
  /**
   * The response's headers as received (ETag and the like; empty for a
   * reconciled result, which no single response produced). Read-only: built
   * from the transport's headers when first read.
   */
  readonly headers: Headers;
}

/** Limits applied while decoding. */
interface DecodeLimits {
  maxResponseBytes: number;
  secrets: readonly string[];
  /** Contract error classes by envelope code; without them an error status raises its status class. */
  contractErrors?: ContractErrorTable | null;
}

/** A validator's issues as `instancePath message` strings. */
export function issuesOf(validator: Validator): string[] {
  return (validator.errors ?? []).map(
    (issue) => `${issue.instancePath || "/"} ${issue.message ?? issue.keyword ?? "is invalid"}`,
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasExactKeys(value: Record<string, unknown>, keys: readonly string[]): boolean {
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((key) => Object.hasOwn(value, key));
}

/** The envelope `{"error": {"code", "message", "details"}}`, or null when the body is anything else. */
function decodeErrorEnvelope(
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

/** The statuses that are outcomes of an operation: every declared 2xx (accepted included) and a declared 304. */
function isOutcomeStatus(descriptor: OperationDescriptor, statusCode: number): boolean {
  return (
    statusCode === descriptor.successStatus ||
    descriptor.async?.acceptedStatus === statusCode ||
    descriptor.notModifiedStatus === statusCode ||
    (descriptor.successStatuses?.includes(statusCode) ?? false)
  );
}

/**
 * Refuses, and releases unread, the answer of a status that declares
 * `application/json` alone (the default of every row without `responseMedia`)
 * when its `Content-Type` names another type (its parameters and case aside);
 * one without a `Content-Type` is read as JSON.
 */
function requireJson(response: TransportResponse, context: ResponseContext, clean: (text: string) => string): void {
  const sent = sentMediaType(response.headers.get("content-type"));
  if (!sent || sent.toLowerCase() === "application/json") return;
  response.cancel();
  throw invalidBody(`${context.statusCode} has ${clean(undeclaredMedia(sent, ["application/json"], clean))}`, context);
}

/** Releases a body that is not read, so that the connection can be reused; never waits for it. */
function discard(response: TransportResponse): void {
  response.cancel();
}

/**
 * Turns a response into the operation's outcome (docs/compatibility.md):
 * every declared 2xx (as in the 1.4.1 Python client), the accepted status of
 * an asynchronous operation and a declared 304 (not modified) are outcomes,
 * read by the declared media type its `Content-Type` names (`application/json`
 * alone by default; a status in `responseMedia` through the row's `readMedia`:
 * JSON, text, binary, or none for a status declared without content); any other status, including an undeclared 2xx and
 * every other 3xx (redirects are not followed), becomes the matching
 * `ServerResponseError`, whose `code`/`serverMessage`/`details` are filled only
 * when the body is exactly the error envelope.
 *
 * @throws InvalidResponseError for an answer whose content type its status
 *   does not declare (the message names both), and for an oversized,
 *   non-UTF-8, non-JSON (a byte
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
  const requestId = descriptor.requestIdHeader === undefined ? null : answer.header(descriptor.requestIdHeader);
  const context: ResponseContext = { statusCode, requestId };
  const accepted = descriptor.async?.acceptedStatus === statusCode;
  // Retry-After paces operation polls and retries after an error status.
  const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));

  if (isOutcomeStatus(descriptor, statusCode)) {
    const location = accepted ? answer.header("location") : null;
    if (statusCode === descriptor.notModifiedStatus) {
      // A declared 304 has no content, whatever the server sent.
      discard(response);
      return new ResponseOutcome(answer, statusCode, requestId, accepted, retryAfterMs, location, undefined);
    }
    // A row that declares other media than JSON for this status reads it with its media reader
    // (ADR 0034), which a request without one never gets this far to need (`buildRequest`).
    const declared = descriptor.responseMedia?.[statusCode];
    const clean = (text: string) => answer.text(text);
    let text: string;
    if (declared === undefined || descriptor.readMedia === undefined) {
      requireJson(response, context, clean);
      text = await readBody(response, context, limits.maxResponseBytes);
    } else {
      const media = await descriptor.readMedia(response, declared, {
        context,
        maxBytes: limits.maxResponseBytes,
        clean,
      });
      // A reader that answers something other than a body is a defect of the row, not of the exchange.
      if (typeof media !== "object" || media === null) throw decodingFailure(new TypeError("no media body"), context);
      if (!("json" in media))
        return new ResponseOutcome(answer, statusCode, requestId, accepted, retryAfterMs, location, media.value);
      text = media.json;
    }
    // Every success body is validated (docs/compatibility.md); an empty body is tolerated for an accepted status or 204.
    let data: unknown = null;
    try {
      if (text.trim() !== "" || !(accepted || statusCode === 204)) {
        // An issue may quote an integer literal of the body, and a token may be all digits.
        const value = parseJson(text, context, (quoted) => answer.text(quoted));
        const validator = validators?.responses[statusCode];
        // The text lets a generated validator refuse a literal such as 3.0 where the schema wants an integer.
        if (validator !== undefined && !validator(value, text)) {
          const issues = issuesOf(validator).map((issue) => answer.text(issue));
          throw new InvalidResponseError(`response ${statusCode} does not match the schema: ${issues[0]}`, {
            ...context,
            issues,
          });
        }
        data = answer.body(value, "success");
      }
    } catch (error) {
      throw decodingFailure(error, context);
    }
    // Location matters only on an accepted response.
    return new ResponseOutcome(answer, statusCode, requestId, accepted, retryAfterMs, location, data);
  }

  let envelope: ReturnType<typeof decodeErrorEnvelope> = null;
  let body: string | null = null;
  // True when the body names an error code in any form, even outside an exact envelope.
  let namesCode = false;
  try {
    const bytes = await readBytes(response, context, limits.maxResponseBytes);
    try {
      const text = STRICT_DECODER.decode(bytes);
      const parsed = answer.body(parseJson(text, context), "error");
      namesCode = typeof (parsed as { error?: { code?: unknown } } | null)?.error?.code === "string";
      envelope = decodeErrorEnvelope(parsed);
    } catch {
      // Not UTF-8, not JSON, or nothing that can be decoded at all: the status decides, code, message and details stay null.
    }
    // Anything but the envelope is kept for the caller, bounded and with secrets redacted.
    if (envelope === null && bytes.byteLength > 0)
      body = answer.errorBody(LENIENT_DECODER.decode(bytes), ERROR_BODY_LIMIT_BYTES);
  } catch (error) {
    if (!(error instanceof InvalidResponseError)) throw error;
  }
  const init = {
    body,
    statusCode,
    code: envelope?.code ?? null,
    serverMessage: envelope?.message ?? null,
    details: envelope?.details ?? null,
    requestId,
    retryAfterMs,
  };
  // A bare answer of the declared status (no error code in any form) means the server predates the operation.
  const notServed = descriptor.notServed;
  if (notServed !== undefined && notServed !== null && notServed.status === statusCode && !namesCode)
    throw new OperationNotServedError(init, notServed.message);
  throw serverResponseError(init, limits.contractErrors ?? null);
}
