// The sweep: one synthesized request per release operation (synthesize.ts), sent to both
// servers after the scenarios, compared on status (the code is reported beside it).
import type { OperationSummary } from "../real/openapi.js";
import { errorCode, send, type Target } from "./send-step.js";
import type { Synthesizer } from "./synthesize.js";

/** One operation's answers from both sides. */
export interface SweepResult {
  readonly operation: string;
  readonly real: { readonly status: number; readonly code: string | null };
  readonly mock: { readonly status: number; readonly code: string | null };
  readonly agree: boolean;
}

/** An operation of openapi.yaml with its raw document entries, for the synthesizer. */
export interface SweepOperation {
  readonly summary: OperationSummary;
  readonly operation: Record<string, unknown>;
  readonly pathItem: Record<string, unknown>;
}

/** Sends each operation's synthesized request to the real server, then the mock, one at a time. */
export async function sweep(
  operations: readonly SweepOperation[],
  synthesizer: Synthesizer,
  real: Target,
  mock: Target,
): Promise<SweepResult[]> {
  const results: SweepResult[] = [];
  for (const { summary, operation, pathItem } of operations) {
    const request = synthesizer.request(operation, pathItem);
    const resolved = { operation: summary, auth: "admin" as const, request, headers: {} };
    const [left, right] = [await send(resolved, real), await send(resolved, mock)];
    results.push({
      operation: summary.operationId,
      real: { status: left.status, code: errorCode(left) },
      mock: { status: right.status, code: errorCode(right) },
      agree: left.status === right.status,
    });
  }
  return results;
}
