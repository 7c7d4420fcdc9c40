// Comparing the two runners' outcomes step by step: the released Python client's
// (run_recipes.py) and our SDK's (run-recipes.ts), each against its own fresh server.
import type { StepOutcome } from "./run-recipes.js";

/** One step of the comparison. */
export interface ComparedStep {
  readonly step: string;
  readonly operation: string;
  readonly python: StepOutcome | undefined;
  readonly sdk: StepOutcome | undefined;
  /** same status, same error code, same accepted judgement, and both called (or both skipped) */
  readonly agree: boolean;
}

/** The counts the parity run is judged by. */
export interface ComparisonCounts {
  readonly steps: number;
  /** operations both runners called (at least one step not skipped on either side) */
  readonly calledByBoth: number;
  readonly disagreements: number;
  /** operations that reached a success status on both sides */
  readonly successes: number;
}

function same(a: StepOutcome, b: StepOutcome): boolean {
  return (
    a.status === b.status &&
    a.code === b.code &&
    a.accepted === b.accepted &&
    (a.outcome === "skipped") === (b.outcome === "skipped")
  );
}

/** Pairs the outcomes by step id, in the order of `steps`. */
export function compareOutcomes(
  steps: readonly { id: string; operation: string }[],
  python: readonly StepOutcome[],
  sdk: readonly StepOutcome[],
): ComparedStep[] {
  const byStep = (outcomes: readonly StepOutcome[]) => new Map(outcomes.map((o) => [o.step, o]));
  const py = byStep(python);
  const ts = byStep(sdk);
  return steps.map(({ id, operation }) => {
    const a = py.get(id);
    const b = ts.get(id);
    return { step: id, operation, python: a, sdk: b, agree: a !== undefined && b !== undefined && same(a, b) };
  });
}

/** The counts of a comparison. */
export function countComparison(rows: readonly ComparedStep[]): ComparisonCounts {
  const called = (o: StepOutcome | undefined) => o !== undefined && o.outcome !== "skipped";
  const calledByBoth = new Set(rows.filter((r) => called(r.python) && called(r.sdk)).map((r) => r.operation));
  const successes = new Set(
    rows.filter((r) => r.python?.outcome === "success" && r.sdk?.outcome === "success").map((r) => r.operation),
  );
  return {
    steps: rows.length,
    calledByBoth: calledByBoth.size,
    disagreements: rows.filter((r) => !r.agree).length,
    successes: successes.size,
  };
}

function cell(o: StepOutcome | undefined): string {
  if (o === undefined) return "(not run)";
  const accepted = o.accepted === null ? "" : o.accepted ? " ok" : " refused";
  return `${String(o.status ?? "-")} ${o.code ?? o.outcome}${accepted}`;
}

/** The table: step, operation, Python status/code, SDK status/code, agree; then the counts. */
export function formatComparison(rows: readonly ComparedStep[]): string {
  const lines = [`${"step".padEnd(36)} ${"operation".padEnd(34)} ${"python".padEnd(40)} ${"sdk".padEnd(40)} agree`];
  for (const r of rows) {
    lines.push(
      `${r.step.slice(0, 36).padEnd(36)} ${r.operation.slice(0, 34).padEnd(34)} ${cell(r.python).slice(0, 40).padEnd(40)} ${cell(r.sdk).slice(0, 40).padEnd(40)} ${r.agree ? "yes" : "NO"}`,
    );
  }
  const counts = countComparison(rows);
  lines.push(
    `steps: ${counts.steps}; operations called by both: ${counts.calledByBoth}; disagreements: ${counts.disagreements}; operations reaching a success status on both: ${counts.successes}`,
  );
  return lines.join("\n");
}
