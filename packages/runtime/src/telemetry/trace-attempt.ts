import type { PreparedRequest } from "../transport/build-request.js";
import type { AttemptSpan } from "./attempt-span.js";
import type { CallSpan } from "./call-span.js";

/** Starts attempt `attempt`'s span of `span`; null when the span has none or starting it threw. */
function startAttempt(span: CallSpan, attempt: number, url: string): AttemptSpan | null {
  try {
    return span.attempt?.(attempt, url) ?? null;
  } catch {
    return null;
  }
}

/** Calls one attempt-span method; nothing it throws reaches the call. */
function end(action: () => void): void {
  try {
    action();
  } catch {
    // Tracing never fails a request.
  }
}

/**
 * Sends one attempt under its own span when the call is traced with
 * attempt spans: the attempt's propagation headers go into a copy of the
 * prepared headers (each attempt carries its own `traceparent`), and the
 * span ends with the attempt's status or failure. Without tracing, `send`
 * gets `request` itself and nothing is allocated.
 */
export function traceAttempt<T extends { statusCode: number }>(
  span: CallSpan | null,
  attempt: number,
  request: PreparedRequest,
  send: (request: PreparedRequest) => Promise<T>,
): Promise<T> {
  const attemptSpan = span === null ? null : startAttempt(span, attempt, request.url);
  if (attemptSpan === null) return send(request);
  const headers = { ...request.headers };
  end(() => attemptSpan.inject(headers));
  return send({ ...request, headers }).then(
    (result) => {
      end(() => attemptSpan.succeed(result.statusCode));
      return result;
    },
    (error: unknown) => {
      end(() => attemptSpan.fail(error));
      throw error;
    },
  );
}
