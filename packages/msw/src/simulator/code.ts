import type { HandlerResult, SimRequest } from "./types.js";
import { objectBody, scopeField } from "./validate.js";

/**
 * The code index of a default 1.4.1 install: it is disabled. Every query but `status` is
 * refused (`503 code_disabled`, a fact of the operation's `x-powercontext-refusals`); a
 * `status` query answers the disabled status, with the members the release's status
 * model gives by default (the schema's defaults fill the rest).
 */
export function codeStatus(request: SimRequest): HandlerResult {
  const body = objectBody(request.body);
  return {
    status: 200,
    body: { schema: "powercontext.code-status.v1", scope_id: scopeField(body), status: "disabled", fingerprint: null },
  };
}
