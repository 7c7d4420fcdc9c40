import type { OperationDescriptor } from "../descriptor.js";
import { InvalidResponseError } from "../errors.js";

/** Context of the accepted response that carried the Location. */
export interface LocationContext {
  /** Normalised base URL of the client. */
  baseUrl: string;
  /** Absolute URL of the request that was answered (relative references resolve against it, RFC 9110 §10.2.2). */
  requestUrl: string;
  statusCode: number;
  requestId: string | null;
}

function invalid(message: string, context: LocationContext): InvalidResponseError {
  return new InvalidResponseError(message, {
    statusCode: context.statusCode,
    requestId: context.requestId,
    issues: [message],
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The path pattern of each poll operation, built on first use: a descriptor never changes. */
const pathPatterns = new WeakMap<OperationDescriptor, RegExp>();

/** `^<path template>$` with the template's parameter captured as one path segment. */
function pathPattern(descriptor: OperationDescriptor, parameter: string): RegExp {
  let pattern = pathPatterns.get(descriptor);
  if (pattern === undefined) {
    pattern = new RegExp(`^${escapeRegExp(descriptor.path).replace(escapeRegExp(`{${parameter}}`), "([^/]+)")}$`);
    pathPatterns.set(descriptor, pattern);
  }
  return pattern;
}

/**
 * Resolves an operation's `Location` header (relative or absolute) and
 * extracts the operation id by matching the poll operation's path template,
 * for example `/v1/operations/{operation_id}`.
 *
 * @throws InvalidResponseError when the Location is malformed, points to a
 *   different origin than the base URL (the token must not travel elsewhere),
 *   lies outside the base path, or does not match the template.
 */
export function operationIdFromLocation(
  location: string,
  pollDescriptor: OperationDescriptor,
  context: LocationContext,
): string {
  let resolved: URL;
  try {
    resolved = new URL(location, context.requestUrl);
  } catch {
    throw invalid("Location header is not a valid URL reference", context);
  }
  const base = new URL(context.baseUrl);
  if (resolved.origin !== base.origin) throw invalid("Location header points to a different origin", context);
  const basePath = base.pathname.replace(/\/+$/, "");
  if (!resolved.pathname.startsWith(`${basePath}/`)) throw invalid("Location header is outside the base URL", context);
  const path = resolved.pathname.slice(basePath.length);
  const [parameter] = pollDescriptor.pathParameters;
  if (parameter === undefined) throw invalid(`${pollDescriptor.operationId} has no path parameter`, context);
  const match = pathPattern(pollDescriptor, parameter).exec(path);
  if (match?.[1] === undefined) throw invalid("Location header does not name an operation", context);
  try {
    return decodeURIComponent(match[1]);
  } catch {
    throw invalid("Location header has a malformed operation id", context);
  }
}
