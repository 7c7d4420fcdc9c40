// The random run's report as Markdown: the overall numbers, the tables per tag and per
// fault kind, the operations that disagree, the disagreement classes (ranked, each with
// its first example) and the member-path differences.
import type { Example, RandomReport, Tally } from "../../../packages/msw/src/verify/random/report.js";

function percent(part: number, whole: number): string {
  return whole === 0 ? "-" : `${((100 * part) / whole).toFixed(1)}%`;
}

function ratio(part: number, whole: number): string {
  return `${percent(part, whole)} (${part}/${whole})`;
}

/** The command that runs the same requests again. */
export function replayCommand(seeds: readonly number[], k: number): string {
  return `npm run conformance -- --random --seed ${seeds.join(",")} --k ${k}`;
}

function tallyRow(name: string, t: Tally): string {
  return [
    name,
    t.requests,
    ratio(t.agree, t.requests),
    ratio(t.validAgree, t.valid),
    ratio(t.faultedAgree, t.faulted),
    `${t.real2xx} / ${t.mock2xx}`,
    t.mockOnly5xx,
    ratio(t.pathsAgree, t.pathsCompared),
  ].join(" | ");
}

const TALLY_HEAD = [
  "| requests | status+code agree | valid agree | faulted agree | 2xx release / mock | mock-only 5xx | 2xx/2xx paths agree |",
  "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
];

function table(title: string, rows: Readonly<Record<string, Tally>>): string[] {
  const [head, rule] = TALLY_HEAD as [string, string];
  return [
    `| ${title} ${head}`,
    `| --- ${rule}`,
    ...Object.entries(rows).map(([name, t]) => `| ${tallyRow(name, t)} |`),
  ];
}

function exampleLines(example: Example): string[] {
  const request = (side: Example["real"]) =>
    `${side.http.method} ${side.http.target}${Object.keys(side.http.headers).length > 0 ? ` ${JSON.stringify(side.http.headers)}` : ""}${side.http.body === undefined ? "" : ` ${side.http.body}`}`;
  const sameRequest = request(example.real) === request(example.mock);
  return [
    `   - example: seed ${example.seed}, request ${example.index}, ${example.operation}${example.fault ? `; fault ${example.fault}` : ""}`,
    `   - ${sameRequest ? "request" : "release got"}: \`${request(example.real)}\``,
    ...(sameRequest ? [] : [`   - mock got: \`${request(example.mock)}\``]),
    `   - release: ${example.real.answer.status} \`${example.real.answer.body}\``,
    `   - mock: ${example.mock.answer.status} \`${example.mock.answer.body}\``,
  ];
}

/**
 * The report as Markdown.
 *
 * @param limit most disagreement classes and path classes written out (the JSON has all)
 */
export function formatRandomReport(report: RandomReport, limit = 40): string {
  const o = report.overall;
  const lines = [
    `# Random differential run: the mock against ${report.release}`,
    "",
    `seed ${report.seeds.join(", ")}; K=${report.k}: ${o.requests} requests over ${report.operations} operations. Replay: \`${replayCommand(report.seeds, report.k)}\``,
    "",
    "| measure | value |",
    "| --- | ---: |",
    `| status+code agree | ${ratio(o.agree, o.requests)} |`,
    `| valid requests agree | ${ratio(o.validAgree, o.valid)} |`,
    `| faulted requests agree | ${ratio(o.faultedAgree, o.faulted)} |`,
    `| 2xx answers: release / mock | ${o.real2xx} / ${o.mock2xx} (deviation ${percent(Math.round(o.twoXxDeviation * 1000), 1000)}) |`,
    `| mock-only 5xx / release-only 5xx | ${o.mockOnly5xx} / ${o.realOnly5xx} |`,
    `| 2xx/2xx member paths agree | ${ratio(o.pathsAgree, o.pathsCompared)} |`,
    `| requests with ids the mock's answers did not hold (of them disagreeing) | ${o.unresolvedOnMock} (${o.unresolvedDisagree}) |`,
    `| drawn valid but refused by the release's contract (0 expected) | ${o.refusedValid} |`,
    `| answer time: release / mock | ${o.seconds.real.toFixed(1)} s / ${o.seconds.mock.toFixed(1)} s |`,
    "",
    "## Per OpenAPI tag",
    "",
    ...table("tag", report.byTag),
    `| **all** | ${tallyRow("", o).split(" | ").slice(1).join(" | ")} |`,
    "",
    "## Per fault kind",
    "",
    ...table("fault", report.byFault),
    "",
    `## Operations that disagree (${report.disagreeing.length} of ${report.operations})`,
    "",
    "| operation | tag | status+code agree | 2xx/2xx paths agree |",
    "| --- | --- | ---: | ---: |",
    ...report.disagreeing.map(
      (d) =>
        `| ${d.operation} | ${d.tag} | ${ratio(d.agree, d.requests)} | ${d.pathsCompared === 0 ? "-" : ratio(d.pathsAgree, d.pathsCompared)} |`,
    ),
    "",
    `## Disagreement classes (${report.classes.length}; release answer, mock answer, fault), by count`,
    "",
  ];
  report.classes.slice(0, limit).forEach((c, i) => {
    const operations =
      c.operations.length > 6 ? `${c.operations.slice(0, 6).join(", ")}, ...` : c.operations.join(", ");
    lines.push(
      `${i + 1}. **release ${c.real}, mock ${c.mock}, ${c.fault}**: ${c.count} requests, ${c.operations.length} operations (${operations})`,
      ...exampleLines(c.example),
    );
  });
  if (report.classes.length > limit) lines.push(`... ${report.classes.length - limit} more classes in --json`);
  lines.push("", `## Member paths of 2xx/2xx answers that differ, by operation (${report.pathClasses.length})`, "");
  report.pathClasses.slice(0, limit).forEach((c, i) => {
    const paths = (list: readonly string[]) => (list.length > 8 ? `${list.slice(0, 8).join(" ")} ...` : list.join(" "));
    lines.push(
      `${i + 1}. **${c.operation}**: ${c.count} answers; only the release: ${paths(c.onlyReal) || "-"}; only the mock: ${paths(c.onlyMock) || "-"}`,
      ...exampleLines(c.example),
    );
  });
  return lines.join("\n");
}
