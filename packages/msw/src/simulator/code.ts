import type { HandlerResult, SimRequest } from "./types.js";

/**
 * The code index of a default 1.4.1 install: it is disabled. Every query but `status` is
 * refused (`503 code_disabled`, a fact of the operation's `x-powercontext-refusals`); a
 * `status` query answers the disabled status and its reason, with the members the
 * release's status model gives by default (the schema's defaults fill the rest).
 */
export function codeStatus(request: SimRequest): HandlerResult {
  // The Scope is the path's (the operation's contract and access layer checked it).
  const scopeId = String(request.params?.scope_id ?? "");
  return {
    status: 200,
    body: {
      schema: "powercontext.code-status.v1",
      scope_id: scopeId,
      status: "disabled",
      fingerprint: null,
      reason: "code_disabled",
    },
  };
}
