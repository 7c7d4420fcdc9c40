// The suite's report: agreement per OpenAPI tag (steps, status, code, shape), the sweep's
// count, totals as ratios, and every difference, as a text table or as JSON.
import type { StepComparison } from "./compare.js";
import type { SweepResult } from "./sweep.js";

/** Counts of one tag (or of all steps). */
export interface Agreement {
  readonly steps: number;
  readonly status: number;
  /** status and code agree */
  readonly code: number;
  /** status, code and shape agree */
  readonly shape: number;
  /** steps whose values were compared, and how many agreed */
  readonly valuesCompared: number;
  readonly values: number;
}

/** The whole result of one run. */
export interface ConformanceReport {
  readonly release: string;
  readonly byTag: Readonly<Record<string, Agreement>>;
  readonly total: Agreement;
  /** stateful steps whose status and code agree, as a fraction of compared steps */
  readonly codeRatio: number;
  /** ... whose status, code and shape agree */
  readonly shapeRatio: number;
  readonly sweep: { readonly operations: number; readonly statusAgree: number };
  readonly differences: readonly StepComparison[];
  readonly sweepDifferences: readonly SweepResult[];
}

function count(rows: readonly StepComparison[]): Agreement {
  return {
    steps: rows.length,
    status: rows.filter((r) => r.status).length,
    code: rows.filter((r) => r.code).length,
    shape: rows.filter((r) => r.shape).length,
    valuesCompared: rows.filter((r) => r.values !== null).length,
    values: rows.filter((r) => r.values === true).length,
  };
}

/** Tallies the comparisons and the sweep. */
export function buildReport(
  rows: readonly StepComparison[],
  sweep: readonly SweepResult[],
  release: string,
): ConformanceReport {
  const tags = [...new Set(rows.map((r) => r.tag))].sort();
  const total = count(rows);
  return {
    release,
    byTag: Object.fromEntries(tags.map((tag) => [tag, count(rows.filter((r) => r.tag === tag))])),
    total,
    codeRatio: total.steps === 0 ? 0 : total.code / total.steps,
    shapeRatio: total.steps === 0 ? 0 : total.shape / total.steps,
    sweep: { operations: sweep.length, statusAgree: sweep.filter((s) => s.agree).length },
    differences: rows.filter((r) => r.details.length > 0),
    sweepDifferences: sweep.filter((s) => !s.agree),
  };
}

function percent(part: number, whole: number): string {
  return whole === 0 ? "-" : `${((100 * part) / whole).toFixed(1)}%`;
}

/** The report as Markdown: the table per tag, totals, the sweep, then every difference. */
export function formatReport(report: ConformanceReport): string {
  const lines = [
    `Conformance of the mock to ${report.release} (stateful scenarios, per OpenAPI tag)`,
    "",
    "| tag | steps | status agree | code agree | shape agree | values agree |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
  ];
  const row = (name: string, a: Agreement) =>
    `| ${name} | ${a.steps} | ${a.status} | ${a.code} | ${a.shape} | ${a.values}/${a.valuesCompared} |`;
  for (const [tag, agreement] of Object.entries(report.byTag)) lines.push(row(tag, agreement));
  lines.push(row("**all**", report.total));
  lines.push(
    "",
    `status+code agree: ${percent(report.total.code, report.total.steps)}; also shape: ${percent(report.total.shape, report.total.steps)}`,
    `sweep (one synthesized request per release operation): status agrees on ${report.sweep.statusAgree} of ${report.sweep.operations}`,
    "",
    `## Differences in the scenarios (${report.differences.length})`,
    "",
  );
  for (const d of report.differences) {
    lines.push(
      `- ${d.scenario} / ${d.step}${d.operation ? ` (${d.operation})` : ""}: real ${d.real.status ?? "-"} ${d.real.code ?? ""} | mock ${d.mock.status ?? "-"} ${d.mock.code ?? ""} | ${d.details.join("; ")}`,
    );
  }
  lines.push("", `## Differences in the sweep (${report.sweepDifferences.length})`, "");
  for (const s of report.sweepDifferences) {
    lines.push(
      `- ${s.operation}: real ${s.real.status} ${s.real.code ?? ""} | mock ${s.mock.status} ${s.mock.code ?? ""}`,
    );
  }
  return lines.join("\n");
}
