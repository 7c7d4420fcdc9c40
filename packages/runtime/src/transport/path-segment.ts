import { InvalidRequestError } from "../errors.js";

/**
 * A value that would be read as a dot segment: `.` or `..`, also with either
 * dot percent-encoded (`%2e`, `%2E%2e`, ...), which the WHATWG URL parser (so
 * fetch) and servers that decode before routing treat as the plain dots.
 */
export const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * Percent-encodes one path parameter value as a single path segment.
 *
 * `.` and `..` are refused rather than encoded: `%2E%2E` is still a dot
 * segment for the WHATWG URL parser, so `fetch` would remove it together with
 * the segment before it (`/v1/operations/..` becomes `/v1/`) and the request
 * would reach another resource. No identifier of the contract is a dot
 * segment, so refusing loses nothing.
 *
 * @param operationId for the error message.
 * @param name the parameter's wire name, for the error message.
 * @param value the parameter's value as text.
 * @returns the encoded segment (`encodeURIComponent`, so `/`, `?`, `#` and `%` are escaped).
 * @throws InvalidRequestError before anything is sent when `value` is a dot segment.
 */
export function encodePathSegment(operationId: string, name: string, value: string): string {
  if (DOT_SEGMENT.test(value)) {
    throw new InvalidRequestError(
      `${operationId}: path parameter ${name} must not be "." or ".." (a dot segment would change the path)`,
      [`/${name} must not be a dot segment`],
    );
  }
  return encodeURIComponent(value);
}
