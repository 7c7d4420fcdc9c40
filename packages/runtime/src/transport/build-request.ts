import type { OperationDescriptor } from "../descriptor.js";
import { InvalidRequestError } from "../errors.js";
import { headerFieldProblem } from "./header-field.js";
import { encodePathSegment } from "./path-segment.js";
import { headerValue, queryPairs, scalarText } from "./serialize-parameters.js";

/** A request ready to send; built once and re-sent unchanged on every attempt. */
export interface PreparedRequest {
  readonly method: string;
  /** Absolute URL including the query string. */
  readonly url: string;
  /** Path after the base URL, without the query string (used in errors and spans). */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Serialized JSON body, or undefined when the operation sends none. */
  readonly body: string | undefined;
}

/** Inputs of {@link buildRequest}. */
export interface BuildRequestInput {
  /** Normalised base URL (see `normalizeBaseUrl`). */
  baseUrl: string;
  descriptor: OperationDescriptor;
  /** Flat request object keyed by wire names: path and query parameters plus body fields. */
  request: unknown;
  /** Bearer token; an empty string sends no `Authorization` header. */
  token: string;
  /** Caller headers (CallOptions.headers and client-wide headers). */
  headers?: Record<string, string> | undefined;
  /**
   * An already-encoded query string (without `?`) appended as it is, after the
   * operation's own parameters: the query of a `Location` being polled.
   */
  extraQuery?: string | undefined;
}

/**
 * Builds the HTTP request of one operation (docs/compatibility.md):
 * path parameters are taken out of the request object and percent-encoded into
 * the path template; query parameters go to the query string by their `style`
 * and `explode` (see `queryPairs`; null/undefined are omitted); header
 * parameters become request headers and cookie parameters one `Cookie` header;
 * the remaining fields are the JSON body when the operation's request location
 * is `body` or when the method is not GET. `Accept` is the descriptor's (built
 * from the declared media types), else `application/json`.
 *
 * @throws InvalidRequestError when a path parameter is missing or a dot
 *   segment (`.`, `..`, see `encodePathSegment`), a parameter is not a scalar
 *   (or an array or object of them), a header value holds CR or LF,
 *   a GET would need a body, or a caller header named `Authorization` would
 *   replace the client's token.
 */
export function buildRequest(input: BuildRequestInput): PreparedRequest {
  const { descriptor } = input;
  const request = input.request ?? {};
  if (typeof request !== "object" || Array.isArray(request)) {
    throw new InvalidRequestError(`${descriptor.operationId}: the request must be an object`);
  }
  const rest: Record<string, unknown> = { ...(request as Record<string, unknown>) };

  let path = descriptor.path;
  for (const name of descriptor.pathParameters) {
    const value = rest[name];
    if (value === undefined || value === null || value === "") {
      throw new InvalidRequestError(`${descriptor.operationId}: path parameter ${name} is required`);
    }
    path = path.replace(`{${name}}`, encodePathSegment(descriptor.operationId, name, scalarText(name, value, false)));
    delete rest[name];
  }

  const styles = descriptor.parameterStyles ?? {};
  const pairs: string[] = [];
  for (const name of descriptor.queryParameters) {
    const value = rest[name];
    delete rest[name];
    pairs.push(...queryPairs(name, value, styles[name]));
  }
  if (input.extraQuery !== undefined && input.extraQuery !== "") pairs.push(input.extraQuery);

  const parameterHeaders: [string, string][] = [];
  for (const name of descriptor.headerParameters ?? []) {
    const value = rest[name];
    delete rest[name];
    if (value !== undefined && value !== null) parameterHeaders.push([name.toLowerCase(), headerValue(name, value, styles[name])]);
  }
  const cookies: string[] = [];
  for (const name of descriptor.cookieParameters ?? []) {
    const value = rest[name];
    delete rest[name];
    if (value !== undefined && value !== null) cookies.push(`${name}=${encodeURIComponent(headerValue(name, value, styles[name]))}`);
  }

  let body: string | undefined;
  const hasFields = Object.keys(rest).length > 0;
  if (descriptor.requestLocation === "body" || (hasFields && descriptor.method !== "GET")) {
    body = JSON.stringify(rest);
  } else if (hasFields) {
    throw new InvalidRequestError(
      `${descriptor.operationId}: unknown parameter(s) ${Object.keys(rest).join(", ")}`,
    );
  }

  const headers: Record<string, string> = { accept: descriptor.accept ?? "application/json" };
  for (const [name, value] of Object.entries(input.headers ?? {})) {
    const problem = headerFieldProblem(name, value, input.token);
    if (problem !== null) throw new InvalidRequestError(problem);
    headers[name.toLowerCase()] = value;
  }
  for (const [name, value] of parameterHeaders) headers[name] = value;
  if (cookies.length > 0) headers.cookie = cookies.join("; ");
  if (body !== undefined) headers["content-type"] = "application/json";
  if (input.token !== "") headers.authorization = `Bearer ${input.token}`;

  const search = pairs.join("&");
  return {
    method: descriptor.method,
    url: `${input.baseUrl}${path}${search === "" ? "" : `?${search}`}`,
    path,
    headers,
    body,
  };
}
