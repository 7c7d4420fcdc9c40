import { bodyModelFault } from "../contract/request-check.js";
import type { SimOperation } from "../contract/operation-table.js";
import { withDefaults } from "../resources/defaults.js";
import type { JsonRecord } from "../members.js";
import type { SimRequest } from "../types.js";
import { AccessInvalid } from "./resolve.js";

/**
 * The access payload: the request as the release's access layer reads it before it
 * resolves anything.
 * - Without a body and without query parameters: the path parameters, as sent
 *   (percent-decoded once, no type conversion).
 * - A request in the query (a list): every query parameter as sent (the last value
 *   of a repeated one), then the path parameters over them. Not validated.
 * - A request in the body: the body read whatever its media type, refused unless it
 *   is an object the request model accepts, then taken as the model dumps it (every
 *   optional member it leaves out with its default, or null), over the path parameters.
 *
 * @throws AccessInvalid for a body the access layer cannot read
 */
export function accessPayload(op: SimOperation, request: SimRequest): JsonRecord {
  const path: JsonRecord = Object.create(null) as JsonRecord;
  for (const p of op.parameters.path) {
    const value = request.params?.[p.name];
    if (value !== undefined) path[p.name] = value;
  }
  if (op.body === null) {
    if (op.parameters.query.length === 0) return path;
    const query: JsonRecord = Object.create(null) as JsonRecord;
    for (const [name, values] of Object.entries(request.queryAll ?? {})) {
      const last = values?.[values.length - 1];
      if (last !== undefined) query[name] = last;
    }
    for (const [name, value] of Object.entries(request.query ?? {}))
      if (!Object.hasOwn(query, name) && value !== undefined) query[name] = value;
    return Object.assign(query, path);
  }
  if (bodyModelFault(op, request)) throw new AccessInvalid("resource");
  return Object.assign(path, withDefaults(op, request.body as JsonRecord));
}
