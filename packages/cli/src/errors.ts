/**
 * Turns whatever a command threw into what the operator sees: one line on
 * stderr and an exit code (see exit-codes.ts), sometimes followed by one
 * `hint:` line about local configuration or one `note:` line about a request
 * whose outcome is unknown. Expected failures never print a
 * stack trace; the API token never appears because no SDK error carries it and
 * the terminal scrubs it anyway (io.ts).
 *
 * Line shapes:
 *
 * ```
 * error: 409 topic_memory_block_conflict (request id req-1): the block is no longer current
 * error: 409 version_conflict (request id req-2): version mismatch [current_version=4]
 * note: an earlier attempt of this request got no answer, and whether it took effect is unknown; it is now succeeded at version 6
 * error: 502 Bad Gateway (request id req-3): not a PowerContext error response (body not shown)
 * error: 404: this server has no Operation API; it answers flush_memory synchronously (...)
 * error: cannot reach the server (POST /v1/...): connect ECONNREFUSED 127.0.0.1:9
 * error: operation op-1 failed (storage/storage_unavailable)
 * error: 401 unauthorized (request id req-4): ...
 * hint: POWERCONTEXT_CLIENT_API_TOKEN is not set, so the request carried no token
 * ```
 */
import {
  ClientError,
  ConfigurationError,
  InvalidRequestError,
  InvalidResponseError,
  OperationCancelledError,
  OperationFailedError,
  OperationNotServedError,
  OperationPendingError,
  ServerResponseError,
  TimeoutError,
  TransportError,
  VersionConflictError,
} from "@powercontext/sdk";
import { STATUS_CODES } from "node:http";
import { ExitCode } from "./exit-codes.js";
import { escapeControls } from "./format/terminal-safe.js";
import type { TokenState } from "./settings.js";
import { UsageError } from "./usage-error.js";

/** What to print for a failure and how to exit. */
export interface FailureReport {
  /** Lines for stderr, each already prefixed (`error: ...`). Usually exactly one. */
  readonly lines: readonly string[];
  readonly exitCode: ExitCode;
}

/** `details` keys worth showing an operator, in this order (all bounded values, never free text). */
const DETAIL_KEYS = ["current_version", "current_status", "operation_id", "permission"] as const;

/** Longest message (a server's, an issue, a cause's) printed whole, in characters; longer ones end in `...`. */
const MAX_MESSAGE_CHARS = 1000;

/** Longest request id, error code or detail value printed whole; a request id is an opaque token, usually under 64 characters. */
const MAX_TOKEN_CHARS = 128;

/**
 * `text` on one line: runs of whitespace collapsed (so a server message can
 * never break the one-line promise), cut to `max` characters with `...` after
 * it (so a server or proxy that sends many kilobytes cannot bury the line, or
 * the terminal, under them), and its remaining control characters (ESC, BEL,
 * C1, bidi controls) escaped so it cannot drive the terminal either.
 */
function oneLine(text: string, max: number = MAX_MESSAGE_CHARS): string {
  // Cut by code points before escaping, so neither a surrogate pair nor an escape is split.
  const collapsed = text.replace(/\s+/g, " ").trim();
  if (collapsed.length <= max) return escapeControls(collapsed);
  const points = Array.from(collapsed);
  return points.length > max ? `${escapeControls(points.slice(0, max).join(""))}...` : escapeControls(collapsed);
}

/** A server-supplied identifier (request id, error code, state) on one line, cut to {@link MAX_TOKEN_CHARS}. */
function identifier(text: string): string {
  return oneLine(text, MAX_TOKEN_CHARS);
}

function detailSuffix(details: Record<string, unknown> | null): string {
  if (details === null) {
    return "";
  }
  const parts: string[] = [];
  for (const key of DETAIL_KEYS) {
    const value = details[key];
    if (typeof value === "string" || typeof value === "number") {
      parts.push(`${key}=${identifier(String(value))}`);
    }
  }
  return parts.length === 0 ? "" : ` [${parts.join(" ")}]`;
}

/** What the summary line says of an answer without the error envelope (a proxy's page, a bare 404). */
const NOT_AN_ENVELOPE = "not a PowerContext error response (body not shown)";

/**
 * The one-line summary of a non-success server response:
 * `error: STATUS CODE (request id ID): MESSAGE [details]`. Parts that the
 * response did not carry (code, request id, message) are left out; for a body
 * that was not the error envelope, the status's reason phrase stands in for
 * the code, and the line says what the answer was not
 * (`error: 502 Bad Gateway: not a PowerContext error response (body not shown)`).
 * Such a body itself is not printed: the SDK removes the token from it in the
 * spellings it knows, but a server or proxy may echo it in others (base64,
 * hex, upper case), and the operator's terminal is no place to find out.
 */
export function serverErrorLine(error: ServerResponseError): string {
  const code = error.code === null ? "" : ` ${identifier(error.code)}`;
  const requestId = error.requestId === null ? "" : ` (request id ${identifier(error.requestId)})`;
  if (error.code === null && !(error instanceof OperationNotServedError)) {
    const reason = STATUS_CODES[error.statusCode];
    return `error: ${error.statusCode}${reason === undefined ? "" : ` ${reason}`}${requestId}: ${NOT_AN_ENVELOPE}`;
  }
  const message =
    error instanceof OperationNotServedError
      ? `: ${oneLine(error.hint)}`
      : error.serverMessage
        ? `: ${oneLine(error.serverMessage)}`
        : "";
  return `error: ${error.statusCode}${code}${requestId}${message}${detailSuffix(error.details)}`;
}

/**
 * The note after a `409 version_conflict` whose earlier attempt got no
 * answer: the SDK could not tell whether that attempt took effect, so the
 * command did not succeed; it names the Operation's state as read afterwards.
 */
function unknownOutcomeLine(current: unknown): string {
  const resource = typeof current === "object" && current !== null ? (current as Record<string, unknown>) : {};
  const { status, version } = resource;
  const now =
    typeof status === "string" && typeof version === "number"
      ? `; it is now ${identifier(status)} at version ${version}`
      : "; it could not be read";
  return `note: an earlier attempt of this request got no answer, and whether it took effect is unknown${now}`;
}

/**
 * The most specific message of an error's `cause` chain: `fetch failed`
 * usually wraps `connect ECONNREFUSED 127.0.0.1:9`, which is what an operator
 * needs. Follows at most five causes.
 */
function innermostMessage(error: Error): string {
  let message = error.message;
  let current: unknown = error.cause;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (current.message.trim() !== "") {
      message = current.message;
    }
    current = current.cause;
  }
  return message;
}

function classificationLabel(error: { category: string | null; code: string | null }): string {
  const label = [error.category, error.code]
    .filter((part) => part !== null)
    .map((part) => identifier(part))
    .join("/");
  return label === "" ? "" : ` (${label})`;
}

/**
 * Maps an error to stderr lines and an exit code.
 *
 * - `ServerResponseError` (any status), `TransportError`, `InvalidResponseError`,
 *   `OperationFailedError`, `OperationCancelledError`: exit 1.
 * - `UsageError`, `ConfigurationError`, `InvalidRequestError` (the SDK refused to
 *   send what the operator typed): exit 2.
 * - `OperationPendingError`: exit 3 with the resume command (commands that wait
 *   normally handle this themselves and print more context).
 * - Anything else is a defect: one line naming it, exit 1; the stack trace is
 *   printed only when `POWERCONTEXT_CLI_DEBUG=1`.
 *
 * Every line has its control characters escaped (a debug stack keeps its line
 * breaks), whatever part of it the server supplied: a message, a code, a
 * request id, an operation id or an error classification.
 *
 * @param error what was thrown.
 * @param debug print the stack of unexpected errors.
 */
export function describeFailure(error: unknown, debug = false): FailureReport {
  const report = classifyFailure(error, debug);
  return { ...report, lines: report.lines.map((line) => line.split("\n").map(escapeControls).join("\n")) };
}

function classifyFailure(error: unknown, debug: boolean): FailureReport {
  if (error instanceof UsageError) {
    return { lines: [`error: ${oneLine(error.message)}`], exitCode: ExitCode.Usage };
  }
  if (error instanceof ServerResponseError) {
    const lines = [serverErrorLine(error)];
    if (error instanceof VersionConflictError && error.outcomeUnknown) lines.push(unknownOutcomeLine(error.current));
    return { lines, exitCode: ExitCode.Failure };
  }
  if (error instanceof TimeoutError) {
    return {
      lines: [`error: no answer from the server in time (${error.path}): ${oneLine(error.message)}`],
      exitCode: ExitCode.Failure,
    };
  }
  if (error instanceof TransportError) {
    return {
      lines: [`error: cannot reach the server (${error.path}): ${oneLine(innermostMessage(error))}`],
      exitCode: ExitCode.Failure,
    };
  }
  if (error instanceof InvalidResponseError) {
    const requestId = error.requestId === null ? "" : `, request id ${identifier(error.requestId)}`;
    const issue = error.issues[0] === undefined ? "" : `: ${oneLine(error.issues[0])}`;
    return {
      lines: [`error: invalid response from the server (status ${error.statusCode}${requestId})${issue}`],
      exitCode: ExitCode.Failure,
    };
  }
  if (error instanceof InvalidRequestError) {
    const issue =
      error.issues.length === 0 ? oneLine(error.message) : error.issues.map((issue) => oneLine(issue)).join("; ");
    return { lines: [`error: invalid request: ${issue}`], exitCode: ExitCode.Usage };
  }
  if (error instanceof ConfigurationError) {
    // The SDK names its own option; say which CLI setting feeds it.
    const setting = /^baseUrl\b|plaintext http|trustTransportSecurity/.test(error.message)
      ? " (check --server-url or POWERCONTEXT_CLIENT_SERVER_URL)"
      : /^timeoutMs\b/.test(error.message)
        ? " (check --timeout or POWERCONTEXT_CLIENT_TIMEOUT)"
        : "";
    // The SDK's way out (a caller-supplied fetch) does not exist on the command line.
    const message = /^plaintext http/.test(error.message)
      ? "plaintext http:// is for loopback hosts only; use an https:// server URL"
      : oneLine(error.message);
    return { lines: [`error: ${message}${setting}`], exitCode: ExitCode.Usage };
  }
  if (error instanceof OperationPendingError) {
    return { lines: pendingLines(error.operationId, null), exitCode: ExitCode.Pending };
  }
  if (error instanceof OperationFailedError) {
    return {
      lines: [`error: operation ${identifier(error.operationId)} failed${classificationLabel(error.error)}`],
      exitCode: ExitCode.Failure,
    };
  }
  if (error instanceof OperationCancelledError) {
    return { lines: [`error: operation ${identifier(error.operationId)} was cancelled`], exitCode: ExitCode.Failure };
  }
  if (error instanceof ClientError) {
    return { lines: [`error: ${oneLine(error.message)}`], exitCode: ExitCode.Failure };
  }
  const name = error instanceof Error ? error.name : typeof error;
  const message = error instanceof Error ? oneLine(error.message) : oneLine(String(error));
  const lines = [`error: unexpected ${name}: ${message}`];
  if (debug && error instanceof Error && error.stack) {
    lines.push(error.stack);
  }
  return { lines, exitCode: ExitCode.Failure };
}

/**
 * A local explanation for a 401 that the server's line cannot give: the CLI
 * sent no token because `POWERCONTEXT_CLIENT_API_TOKEN` is unset or blank.
 * Names the variable only, never a token.
 *
 * @param error what was thrown.
 * @param token whether the environment configures a token (`tokenState` in settings.ts).
 * @returns one `hint:` line when `error` is a 401 server response and no token
 *   was configured; null otherwise (other errors, or a token that the server
 *   rejected).
 */
export function missingTokenHint(error: unknown, token: TokenState): string | null {
  if (token === "set" || !(error instanceof ServerResponseError) || error.statusCode !== 401) {
    return null;
  }
  const state = token === "unset" ? "is not set" : "is blank";
  return `hint: POWERCONTEXT_CLIENT_API_TOKEN ${state}, so the request carried no token`;
}

/**
 * The two lines printed when an operation is still pending at the deadline:
 * what is pending, and the exact command that resumes waiting (server text escaped).
 *
 * @param operationId the operation still queued or running.
 * @param state a short description such as `running, attempt 2`, or null when unknown.
 * @param waited how long the CLI waited, already formatted (`60s`), or omitted.
 */
export function pendingLines(operationId: string, state: string | null, waited?: string): string[] {
  const id = escapeControls(operationId);
  const what = state === null ? "still pending" : `still ${escapeControls(state)}`;
  const after = waited === undefined ? "" : ` after ${waited}`;
  return [`pending: operation ${id} is ${what}${after}`, `resume with: powercontext-ts operations wait ${id}`];
}
