import { ServerResponseError } from "../errors.js";
import { contextWithParent, guard, injectInto } from "./span-context.js";
import { SPAN_KIND_CLIENT, type SpanAttributeValue, type SpanLike, type TelemetryOptions } from "./tracer.js";

/** The span of one HTTP attempt of a call. */
export interface AttemptSpan {
  /** Adds this attempt's propagation headers (`traceparent`) to the headers it sends. */
  inject(headers: Record<string, string>): void;
  /** Ends the span with the response's status (4xx and 5xx mark it an error). */
  succeed(statusCode: number): void;
  /** Ends the span with the attempt's failure (a status error keeps its status code). */
  fail(error: unknown): void;
}

/** The OpenTelemetry `error.type` of a failed attempt: the status code of an error answer, else the error's name. */
function errorTypeOf(error: unknown): string {
  if (error instanceof ServerResponseError) return String(error.statusCode);
  return error instanceof Error ? error.name : "Error";
}

/** `server.address` and `server.port` of `url` (the port when the URL names one, else the scheme's). */
function serverOf(url: string): Record<string, SpanAttributeValue> {
  try {
    const parsed = new URL(url);
    const port = parsed.port === "" ? (parsed.protocol === "https:" ? 443 : 80) : Number(parsed.port);
    return { "server.address": parsed.hostname.replace(/^\[|\]$/g, ""), "server.port": port };
  } catch {
    return {};
  }
}

/**
 * Starts the CLIENT span of attempt `attempt` (1-based) of a call, under the
 * call's span, as the OpenTelemetry HTTP client conventions name it:
 * `{method} {url.template}`, with `http.request.method`, `url.template`,
 * `server.address`, `server.port`, `http.request.resend_count` from the
 * second attempt on, and on end `http.response.status_code` when a response
 * arrived and `error.type` when it failed. Never the URL with its query
 * string, headers, bodies or the token. Returns null when the tracer throws.
 */
export function startAttemptSpan(
  telemetry: TelemetryOptions,
  parent: SpanLike,
  init: { method: string; pathTemplate: string; url: string; attempt: number },
): AttemptSpan | null {
  const attributes: Record<string, SpanAttributeValue> = {
    "http.request.method": init.method,
    "url.template": init.pathTemplate,
    ...serverOf(init.url),
  };
  if (init.attempt > 1) attributes["http.request.resend_count"] = init.attempt - 1;
  let span: SpanLike;
  try {
    span = telemetry.tracer.startSpan(
      `${init.method} ${init.pathTemplate}`,
      { kind: SPAN_KIND_CLIENT, attributes },
      contextWithParent(telemetry, parent),
    );
  } catch {
    return null;
  }
  const end = (statusCode: number | null, errorType: string | null): void => {
    if (statusCode !== null) guard(() => span.setAttribute("http.response.status_code", statusCode));
    if (errorType !== null) {
      guard(() => span.setAttribute("error.type", errorType));
      guard(() => span.setStatus?.({ code: 2, message: errorType }));
    }
    guard(() => span.end());
  };
  return {
    inject: (headers) => injectInto(telemetry, span, headers),
    succeed: (statusCode) => end(statusCode, statusCode >= 400 ? String(statusCode) : null),
    fail: (error) => end(error instanceof ServerResponseError ? error.statusCode : null, errorTypeOf(error)),
  };
}
