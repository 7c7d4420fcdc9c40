// The report of a random run: overall numbers (status+code agreement, valid and faulted
// requests, each side's 2xx count, 5xx only one side answers, 2xx/2xx member paths), a
// table per OpenAPI tag, the operations that disagree, and the disagreement classes
// ranked by count with their first example (the request as each side got it and both
// answers). The conformance suite writes it as Markdown, `powercontext-mock verify` as a
// table per tag; both as JSON.
import type { RandomRow, RandomRunResult } from "./run.js";

/** Counts over a set of requests. */
export interface Tally {
  readonly requests: number;
  /** status and code agree */
  readonly agree: number;
  readonly valid: number;
  readonly validAgree: number;
  readonly faulted: number;
  readonly faultedAgree: number;
  readonly real2xx: number;
  readonly mock2xx: number;
  /** the mock answers 5xx (or nothing), the release does not */
  readonly mockOnly5xx: number;
  readonly realOnly5xx: number;
  /** both 2xx, and how many of those have the same member paths */
  readonly pathsCompared: number;
  readonly pathsAgree: number;
}

/** A kind of disagreement: both answers' status and code, and the fault (or "valid"). */
export interface DisagreementClass {
  readonly real: string;
  readonly mock: string;
  readonly fault: string;
  readonly count: number;
  readonly operations: readonly string[];
  readonly example: Example;
}

/** 2xx/2xx answers of one operation with other member paths. */
export interface PathClass {
  readonly operation: string;
  readonly count: number;
  readonly onlyReal: readonly string[];
  readonly onlyMock: readonly string[];
  readonly example: Example;
}

/** One request of the run, shown whole (bodies cut). */
export interface Example {
  /** the run it is from, and its place in that run */
  readonly seed: number;
  readonly index: number;
  readonly operation: string;
  readonly fault: string | null;
  readonly real: RandomRow["real"];
  readonly mock: RandomRow["mock"];
}

/** The whole report (of one run, or of several runs taken together). */
export interface RandomReport {
  readonly release: string;
  readonly seeds: readonly number[];
  readonly k: number;
  readonly operations: number;
  readonly overall: Tally & {
    readonly codeRatio: number;
    readonly pathRatio: number;
    /** |mock 2xx / release 2xx - 1| */
    readonly twoXxDeviation: number;
    /** requests whose ids the mock's earlier answers did not hold (and how many of them disagree) */
    readonly unresolvedOnMock: number;
    readonly unresolvedDisagree: number;
    /** drawn valid, refused by the release's contract: a fault of the instrument, 0 expected */
    readonly refusedValid: number;
    readonly seconds: { readonly real: number; readonly mock: number };
  };
  readonly byTag: Readonly<Record<string, Tally>>;
  readonly byFault: Readonly<Record<string, Tally>>;
  /** operations with at least one disagreement (status, code or paths), fewest agreeing first */
  readonly disagreeing: readonly {
    readonly operation: string;
    readonly tag: string;
    readonly requests: number;
    readonly agree: number;
    readonly pathsCompared: number;
    readonly pathsAgree: number;
  }[];
  readonly classes: readonly DisagreementClass[];
  readonly pathClasses: readonly PathClass[];
}

const is2xx = (status: number) => status >= 200 && status < 300;
const is5xx = (status: number) => status >= 500 || status === 0;

function tally(rows: readonly RandomRow[]): Tally {
  const count = (test: (row: RandomRow) => boolean) => rows.filter(test).length;
  const valid = (row: RandomRow) => row.request.fault === null;
  return {
    requests: rows.length,
    agree: count((r) => r.verdict.code),
    valid: count(valid),
    validAgree: count((r) => valid(r) && r.verdict.code),
    faulted: count((r) => !valid(r)),
    faultedAgree: count((r) => !valid(r) && r.verdict.code),
    real2xx: count((r) => is2xx(r.real.answer.status)),
    mock2xx: count((r) => is2xx(r.mock.answer.status)),
    mockOnly5xx: count((r) => is5xx(r.mock.answer.status) && !is5xx(r.real.answer.status)),
    realOnly5xx: count((r) => is5xx(r.real.answer.status) && !is5xx(r.mock.answer.status)),
    pathsCompared: count((r) => r.verdict.paths !== null),
    pathsAgree: count((r) => r.verdict.paths === true),
  };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

type SeededRow = RandomRow & { readonly seed: number };

function example(row: SeededRow): Example {
  const fault = row.request.fault;
  return {
    seed: row.seed,
    index: row.request.index,
    operation: row.request.operation,
    fault: fault === null ? null : `${fault.kind} at ${fault.part}${fault.pointer || " (whole)"}: ${fault.detail}`,
    real: row.real,
    mock: row.mock,
  };
}

const answerText = (answer: RandomRow["real"]["answer"]) => `${answer.status} ${answer.code ?? ""}`.trim();
const byCount = <T extends { count: number }>(a: T, b: T) => b.count - a.count;

/**
 * Tallies one run, or several runs together (their requests pooled; each example names its seed).
 *
 * @throws {Error} for no runs, or runs of different K
 */
export function buildRandomReport(runs: readonly RandomRunResult[]): RandomReport {
  const first = runs[0];
  if (first === undefined || runs.some((run) => run.k !== first.k))
    throw new Error("runs of one K are reported together");
  const rows: SeededRow[] = runs.flatMap((run) => run.rows.map((row) => ({ ...row, seed: run.seed })));
  const overall = tally(rows);
  const unresolved = rows.filter((r) => r.unresolvedOnMock > 0);
  const byOperation = groupBy(rows, (r) => r.request.operation);
  const disagreeing = [...byOperation.entries()]
    .map(([operation, group]) => ({ operation, tag: group[0]!.request.tag, ...tally(group) }))
    .filter((t) => t.agree < t.requests || t.pathsAgree < t.pathsCompared)
    .sort((a, b) => a.agree / a.requests - b.agree / b.requests || a.operation.localeCompare(b.operation))
    .map(({ operation, tag, requests, agree, pathsCompared, pathsAgree }) => ({
      operation,
      tag,
      requests,
      agree,
      pathsCompared,
      pathsAgree,
    }));
  const failed = rows.filter((r) => !r.verdict.code);
  const classes = [
    ...groupBy(failed, (r) =>
      [answerText(r.real.answer), answerText(r.mock.answer), r.request.fault?.kind ?? "valid"].join("\u0000"),
    ).values(),
  ]
    .map((group): DisagreementClass => {
      const first = group[0]!;
      return {
        real: answerText(first.real.answer),
        mock: answerText(first.mock.answer),
        fault: first.request.fault?.kind ?? "valid",
        count: group.length,
        operations: [...new Set(group.map((r) => r.request.operation))].sort(),
        example: example(first),
      };
    })
    .sort(byCount);
  const pathClasses = [
    ...groupBy(
      rows.filter((r) => r.verdict.paths === false),
      (r) => r.request.operation,
    ).entries(),
  ]
    .map(
      ([operation, group]): PathClass => ({
        operation,
        count: group.length,
        onlyReal: group[0]!.verdict.onlyReal,
        onlyMock: group[0]!.verdict.onlyMock,
        example: example(group[0]!),
      }),
    )
    .sort(byCount);
  const tags = [...new Set(rows.map((r) => r.request.tag))].sort();
  const faults = [...new Set(rows.map((r) => r.request.fault?.kind ?? "valid"))].sort();
  return {
    release: first.release,
    seeds: runs.map((run) => run.seed),
    k: first.k,
    operations: first.operations,
    overall: {
      ...overall,
      codeRatio: overall.requests === 0 ? 0 : overall.agree / overall.requests,
      pathRatio: overall.pathsCompared === 0 ? 1 : overall.pathsAgree / overall.pathsCompared,
      twoXxDeviation: overall.real2xx === 0 ? 1 : Math.abs(overall.mock2xx / overall.real2xx - 1),
      unresolvedOnMock: unresolved.length,
      unresolvedDisagree: unresolved.filter((r) => !r.verdict.code).length,
      refusedValid: rows.filter((r) => r.refusedValid).length,
      seconds: {
        real: runs.reduce((sum, run) => sum + run.realMs, 0) / 1000,
        mock: runs.reduce((sum, run) => sum + run.mockMs, 0) / 1000,
      },
    },
    byTag: Object.fromEntries(tags.map((tag) => [tag, tally(rows.filter((r) => r.request.tag === tag))])),
    byFault: Object.fromEntries(
      faults.map((kind) => [kind, tally(rows.filter((r) => (r.request.fault?.kind ?? "valid") === kind))]),
    ),
    disagreeing,
    classes,
    pathClasses,
  };
}
