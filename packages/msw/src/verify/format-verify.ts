// The terminal report of `powercontext-mock verify`: the contract drift, a table per
// OpenAPI tag (the same cases the JSON and the JUnit file count), the kinds of
// difference ranked by count with the first request of each, and the verdict.
import type { Tally } from "./random/report.js";
import { DRIFT_SUITE } from "./verify-cases.js";
import type { VerifyResult } from "./verify-server.js";

function percent(part: number, whole: number): string {
  return whole === 0 ? "-" : `${((100 * part) / whole).toFixed(1)}%`;
}

/** Columns padded to their widest cell, the first left-aligned, the others right-aligned. */
function table(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => row[i]?.length ?? 0))) ?? [];
  return rows.map((row) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  "),
  );
}

function tagRow(name: string, t: Tally, differ: number): string[] {
  return [
    name,
    String(t.requests),
    String(differ),
    percent(t.agree, t.requests),
    `${t.real2xx}/${t.mock2xx}`,
    String(t.mockOnly5xx),
    percent(t.pathsAgree, t.pathsCompared),
  ];
}

/** The drift section: versions, and every operation missing, added or changed. */
function driftLines(result: VerifyResult): string[] {
  const { drift } = result;
  const lines = [
    `Contract drift: server ${drift.versions.server ?? "(no version)"}, this mock's contract ${drift.versions.contract ?? "(no version)"}`,
    `  ${drift.missing.length} operations the server does not serve (not judged), ${drift.added.length} it serves beyond the contract, ${drift.changed.length} changed (${drift.breaking} breaking changes)`,
  ];
  for (const op of drift.missing) lines.push(`  missing  ${op.operationId} (${op.method} ${op.path})`);
  for (const op of drift.added) lines.push(`  added    ${op.operationId} (${op.method} ${op.path})`);
  for (const op of drift.changed)
    for (const c of op.changes)
      lines.push(`  changed  ${op.operationId} ${c.at}: ${c.change}${c.breaking ? " [breaking]" : ""}`);
  return lines;
}

/**
 * The report for a terminal.
 *
 * @param limit most kinds of difference written out with their example (the JSON has all)
 */
export function formatVerify(result: VerifyResult, limit = 20): string {
  const { random } = result;
  const o = random.overall;
  const differBy = new Map<string, number>();
  for (const c of result.cases)
    if (!c.agree && c.skipped === undefined) differBy.set(c.suite, (differBy.get(c.suite) ?? 0) + 1);
  const driftCases = result.cases.filter((c) => c.suite === DRIFT_SUITE);
  const lines = [
    `powercontext-mock verify: ${result.server}, seed ${result.seed}, K=${result.k}${result.readOnly ? ", read-only" : ""}, mock with inference ${result.inference}`,
    "",
    ...driftLines(result),
    "",
    `Random run: ${o.requests} requests over ${random.operations} operations, each to the server and to the mock`,
    ...table([
      ["tag", "requests", "differ", "status+code agree", "2xx server/mock", "mock-only 5xx", "paths agree"],
      ...Object.entries(random.byTag).map(([tag, t]) => tagRow(tag, t, differBy.get(`random ${tag}`) ?? 0)),
      tagRow(
        "all",
        o,
        [...differBy].filter(([s]) => s !== DRIFT_SUITE).reduce((n, [, v]) => n + v, 0),
      ),
    ]).map((line) => `  ${line}`),
    `  cases: ${result.cases.length} (${driftCases.length} contract drift, ${o.requests} requests); differ: ${[...differBy.values()].reduce((a, b) => a + b, 0)}`,
    "",
  ];
  if (random.classes.length > 0 || random.pathClasses.length > 0) lines.push("Differences, by kind and count:");
  for (const c of random.classes.slice(0, limit)) {
    lines.push(
      `  ${c.count} x server ${c.real}, mock ${c.mock} (${c.fault}) in ${c.operations.slice(0, 5).join(", ")}${c.operations.length > 5 ? ", ..." : ""}`,
      `    e.g. request ${c.example.index}: ${c.example.real.http.method} ${c.example.real.http.target}${c.example.real.http.body === undefined ? "" : ` ${c.example.real.http.body.slice(0, 200)}`}`,
      `    server: ${c.example.real.answer.body.slice(0, 200)}`,
      `    mock:   ${c.example.mock.answer.body.slice(0, 200)}`,
    );
  }
  for (const c of random.pathClasses.slice(0, limit))
    lines.push(
      `  ${c.count} x ${c.operation}: 2xx bodies differ; only the server ${c.onlyReal.slice(0, 4).join(" ") || "-"}; only the mock ${c.onlyMock.slice(0, 4).join(" ") || "-"}`,
    );
  if (random.classes.length + random.pathClasses.length > 2 * limit) lines.push("  ... more in --json");
  if (result.scopes.length > 0)
    lines.push(
      "",
      `Scopes created on the server (kept: the contract cannot remove a Scope): ${result.scopes.join(", ")}`,
    );
  if (result.stopped !== null) lines.push("", `Stopped early (${result.stopped}); the numbers cover what ran.`);
  lines.push(
    "",
    result.passed
      ? `PASS: status+code agreement ${percent(o.agree, o.requests)} holds the floor ${result.floors.codeRatio} (${result.seconds.toFixed(1)} s)`
      : `FAIL: ${result.below.length > 0 ? result.below.join("; ") : "the run was interrupted"} (${result.seconds.toFixed(1)} s)`,
  );
  return lines.join("\n");
}
