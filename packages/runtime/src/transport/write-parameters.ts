import type { OperationDescriptor, WrittenParameters } from "../descriptor.js";
import { InvalidRequestError } from "../errors.js";
import { encodePathSegment } from "./path-segment.js";
import { headerValue, queryPairs, scalarText } from "./serialize-parameters.js";

/**
 * Takes the path, query, header and cookie parameters of `descriptor` out of
 * the flat request object `fields` (deleting each one it reads, so that what
 * is left is the body) and writes them as the request needs them
 * (docs/compatibility.md): path parameters percent-encoded into the path
 * template; query parameters as `name=value` pairs by their `style` and
 * `explode` (see `queryPairs`; null and undefined are left out); header
 * parameters as lower-cased header fields; cookie parameters as one `Cookie`
 * value.
 *
 * The generator points every descriptor that lists parameters at this
 * function (`writeParameters` of the row), and only those, so that an app
 * calling only operations without parameters bundles none of it.
 *
 * @throws InvalidRequestError when a path parameter is missing, empty or a dot
 *   segment (`.`, `..`, see `encodePathSegment`), a parameter is not a scalar
 *   (or an array or object of them), or a header value holds CR or LF.
 */
export function writeParameters(descriptor: OperationDescriptor, fields: Record<string, unknown>): WrittenParameters {
  let path = descriptor.path;
  for (const name of descriptor.pathParameters) {
    const value = fields[name];
    if (value === undefined || value === null || value === "") {
      throw new InvalidRequestError(`${descriptor.operationId}: path parameter ${name} is required`);
    }
    path = path.replace(`{${name}}`, encodePathSegment(descriptor.operationId, name, scalarText(name, value, false)));
    delete fields[name];
  }

  const styles = descriptor.parameterStyles ?? {};
  const query: string[] = [];
  for (const name of descriptor.queryParameters) {
    const value = fields[name];
    delete fields[name];
    query.push(...queryPairs(name, value, styles[name]));
  }

  const headers: [string, string][] = [];
  for (const name of descriptor.headerParameters ?? []) {
    const value = fields[name];
    delete fields[name];
    if (value !== undefined && value !== null)
      headers.push([name.toLowerCase(), headerValue(name, value, styles[name])]);
  }
  const cookies: string[] = [];
  for (const name of descriptor.cookieParameters ?? []) {
    const value = fields[name];
    delete fields[name];
    if (value !== undefined && value !== null)
      cookies.push(`${name}=${encodeURIComponent(headerValue(name, value, styles[name]))}`);
  }
  return { path, query, headers, cookie: cookies.length === 0 ? null : cookies.join("; ") };
}
