// The cases of `powercontext-mock verify`: one per operation of the contract drift (an
// operation the server lacks is skipped, not failed; one with a breaking change fails)
// and one per random request (it fails when status, code or member paths differ). The
// terminal table, the JSON and the JUnit file all count these.
import type { DriftReport } from "./drift.js";
import type { VerifyCase } from "./junit.js";
import type { KeptAnswer, KeptRequest, RandomRow } from "./random/run.js";

export type { VerifyCase } from "./junit.js";

/** The suite of the contract drift's cases. */
export const DRIFT_SUITE = "contract drift";

function answerLine(answer: KeptAnswer): string {
  return `${answer.status}${answer.code === null ? "" : ` ${answer.code}`}`;
}

function requestLine(http: KeptRequest): string {
  const headers = Object.keys(http.headers).length > 0 ? ` ${JSON.stringify(http.headers)}` : "";
  return `${http.method} ${http.target}${headers}${http.body === undefined ? "" : ` ${http.body}`}`;
}

/** What differs between the two answers of a row, in one line; null when they agree. */
export function rowDifference(row: RandomRow): string | null {
  const { verdict } = row;
  if (!verdict.code) return `server ${answerLine(row.real.answer)}, mock ${answerLine(row.mock.answer)}`;
  if (verdict.paths === false) {
    const list = (paths: readonly string[]) => (paths.length === 0 ? "-" : paths.slice(0, 6).join(" "));
    return `member paths: only the server ${list(verdict.onlyReal)}; only the mock ${list(verdict.onlyMock)}`;
  }
  return null;
}

/** The request as each side got it and both answers, for a failing case. */
export function rowEvidence(row: RandomRow): string {
  const [real, mock] = [requestLine(row.real.http), requestLine(row.mock.http)];
  const fault = row.request.fault;
  return [
    `${row.request.operation}, request ${row.request.index}${fault === null ? "" : `, fault ${fault.kind}: ${fault.detail}`}`,
    real === mock ? `request: ${real}` : `server got: ${real}\nmock got: ${mock}`,
    `server: ${row.real.answer.status} ${row.real.answer.body}`,
    `mock: ${row.mock.answer.status} ${row.mock.answer.body}`,
  ].join("\n");
}

/** The cases of a run: the drift's operations first, then every request in run order. */
export function verifyCases(drift: DriftReport, rows: readonly RandomRow[]): VerifyCase[] {
  const cases: VerifyCase[] = [];
  for (const op of drift.missing)
    cases.push({
      suite: DRIFT_SUITE,
      name: op.operationId,
      agree: true,
      difference: null,
      evidence: null,
      seconds: 0,
      skipped: `the server does not serve ${op.method} ${op.path}`,
    });
  for (const op of drift.changed) {
    const breaking = op.changes.filter((c) => c.breaking);
    cases.push({
      suite: DRIFT_SUITE,
      name: op.operationId,
      agree: breaking.length === 0,
      difference: breaking.length === 0 ? null : breaking.map((c) => `${c.at}: ${c.change}`).join("; "),
      evidence: op.changes.map((c) => `${c.breaking ? "breaking" : "compatible"} ${c.at}: ${c.change}`).join("\n"),
      seconds: 0,
    });
  }
  for (const row of rows) {
    const difference = rowDifference(row);
    cases.push({
      suite: `random ${row.request.tag}`,
      name: `${row.request.operation} #${row.request.index}`,
      agree: difference === null,
      difference,
      evidence: difference === null ? null : rowEvidence(row),
      seconds: row.ms / 1000,
    });
  }
  return cases;
}
