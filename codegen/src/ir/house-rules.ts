import { RETRY_CLASSES, type LintProfile } from "../domain/types.js";
import { SpecError } from "../errors.js";
import { isErrorEnvelope } from "../load/lint.js";
import type { ApiIr, OperationIr } from "./model.js";

/** The response header that carries the server's request id, unless the spec names another. */
export const DEFAULT_REQUEST_ID_HEADER = "X-PowerContext-Request-ID";

/** Findings of {@link checkHouseRules}. */
export interface HouseRuleFindings {
  readonly errors: SpecError[];
  readonly warnings: SpecError[];
}

/**
 * Our house rules, checked over the IR (never a narrowing of what the IR can hold):
 *
 * - every operation declares `x-powercontext-retry-class` (strict only; `upstream`
 *   fills a default and says nothing);
 * - the request-id header ({@link ApiIr.requestIdHeader}) is declared: once, on the
 *   document (`x-powercontext-request-id-header`), or else on every response;
 * - every 4xx/5xx response uses the error envelope `{"error": {"code", "message",
 *   "details"}}`, unless it carries `x-powercontext-error-envelope: false`;
 * - a JSON body is not offered beside other media types the client never sends.
 *
 * Under `strict` these are errors, under `upstream` warnings (the retry class excepted).
 * Pure; never throws.
 */
export function checkHouseRules(ir: ApiIr, profile: LintProfile): HouseRuleFindings {
  const errors: SpecError[] = [];
  const warnings: SpecError[] = [];
  const soft = profile === "strict" ? errors : warnings;
  for (const op of ir.operations) {
    if (op.retryClassDefaulted && profile === "strict") {
      errors.push(
        new SpecError(
          "missing_retry_class",
          { pointer: op.pointer },
          `operation has no x-powercontext-retry-class (one of ${RETRY_CLASSES.join(", ")})`,
        ),
      );
    }
    checkResponses(ir, op, soft);
  }
  return { errors, warnings };
}

function checkResponses(ir: ApiIr, op: OperationIr, soft: SpecError[]): void {
  const header = ir.requestIdHeader.toLowerCase();
  for (const response of op.responses) {
    if (!ir.requestIdHeaderDeclared && !response.headers.some((h) => h.name.toLowerCase() === header)) {
      soft.push(
        new SpecError(
          "request_id_header",
          { pointer: response.pointer },
          `response does not declare the ${ir.requestIdHeader} header`,
        ),
      );
    }
    if (response.status >= 400 && !response.envelopeWaived && !isErrorEnvelope(response.schema, ir.lookup)) {
      soft.push(
        new SpecError(
          "error_envelope",
          { pointer: response.pointer },
          `error response does not use the error envelope {"error": {"code", "message", "details"}}`,
        ),
      );
    }
  }
}
