import type { OperationDescriptor, WrittenParameters } from "../descriptor.js";
import { InvalidRequestError } from "../errors.js";
import { headerFieldProblem } from "./header-field.js";

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
  /** True for an operation of the `never` retry class: no layer may send it twice (see `TransportRequest.neverResend`). */
  readonly neverResend?: boolean;
}

/** Inputs of {@link buildRequest}. */
interface BuildRequestInput {
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
 * Builds the HTTP request of one operation (docs/compatibility.md): the
 * descriptor's `writeParameters` (the runtime's `writeParameters`) takes the
 * path, query, header and cookie parameters out of the request object;
 * the remaining fields are the JSON body when the operation's request location
 * is `body` or when the method is not GET. `Accept` is the descriptor's (built
 * from the declared media types), else `application/json`.
 *
 * @throws InvalidRequestError when a path parameter is missing or a dot
 *   segment (`.`, `..`, see `encodePathSegment`), a parameter is not a scalar
 *   (or an array or object of them), a header value holds CR or LF,
 *   a GET would need a body, a caller header named `Authorization` would
 *   replace the client's token, the descriptor lists parameters but has no
 *   `writeParameters`, or it declares `responseMedia` but its `readMedia` is no
 *   function (a hand-written row that left either out: its answer could not be read).
 */
export function buildRequest(input: BuildRequestInput): PreparedRequest {
  const { descriptor } = input;
  const request = input.request ?? {};
  if (typeof request !== "object" || Array.isArray(request)) {
    throw new InvalidRequestError(`${descriptor.operationId}: the request must be an object`);
  }
  if (descriptor.responseMedia !== undefined && typeof descriptor.readMedia !== "function")
    throw new InvalidRequestError(
      `${descriptor.operationId}: the descriptor declares responseMedia but has no readMedia`,
    );
  const rest: Record<string, unknown> = { ...(request as Record<string, unknown>) };

  const written = descriptor.writeParameters?.(descriptor, rest) ?? withoutParameters(descriptor);
  const extra = input.extraQuery;
  const query = extra === undefined || extra === "" ? written.query : [...written.query, extra];

  let body: string | undefined;
  const hasFields = Object.keys(rest).length > 0;
  if (descriptor.requestLocation === "body" || (hasFields && descriptor.method !== "GET")) {
    body = JSON.stringify(rest);
  } else if (hasFields) {
    throw new InvalidRequestError(`${descriptor.operationId}: unknown parameter(s) ${Object.keys(rest).join(", ")}`);
  }

  const headers: Record<string, string> = { accept: descriptor.accept ?? "application/json" };
  for (const [name, value] of Object.entries(input.headers ?? {})) {
    const problem = headerFieldProblem(name, value, input.token);
    if (problem !== null) throw new InvalidRequestError(problem);
    headers[name.toLowerCase()] = value;
  }
  for (const [name, value] of written.headers) headers[name] = value;
  if (written.cookie !== null) headers.cookie = written.cookie;
  if (body !== undefined) headers["content-type"] = "application/json";
  if (input.token !== "") headers.authorization = `Bearer ${input.token}`;

  const search = query.join("&");
  return {
    method: descriptor.method,
    url: `${input.baseUrl}${written.path}${search === "" ? "" : `?${search}`}`,
    path: written.path,
    headers,
    body,
    neverResend: input.descriptor.retryClass === "never",
  };
}

/**
 * The parameters of a descriptor without `writeParameters`: the path as it is
 * and nothing else, which is right only when it lists no parameter.
 */
function withoutParameters(descriptor: OperationDescriptor): WrittenParameters {
  const { pathParameters, queryParameters, headerParameters = [], cookieParameters = [] } = descriptor;
  if (pathParameters.length + queryParameters.length + headerParameters.length + cookieParameters.length > 0) {
    throw new InvalidRequestError(
      `${descriptor.operationId}: the descriptor lists parameters but has no writeParameters`,
    );
  }
  return { path: descriptor.path, query: [], headers: [], cookie: null };
}
