// The step-by-step comparison of the whole-contract parity run (recipes/compare-outcomes.ts):
// what counts as agreement, and what the counts count.
import { describe, expect, it } from "vitest";
import { compareOutcomes, countComparison, formatComparison } from "./recipes/compare-outcomes.js";
import type { StepOutcome } from "./recipes/run-recipes.js";

const ok = (step: string, operation = step): StepOutcome => ({
  step,
  operation,
  outcome: "success",
  status: 200,
  code: null,
  accepted: true,
  as_expected: true,
});
const steps = [
  { id: "a", operation: "op_a" },
  { id: "b", operation: "op_b" },
  { id: "b2", operation: "op_b" },
];

describe("compareOutcomes", () => {
  it("agrees when status, code and acceptance are the same, and counts operations once", () => {
    const rows = compareOutcomes(
      steps,
      [ok("a", "op_a"), ok("b", "op_b"), ok("b2", "op_b")],
      [ok("a", "op_a"), ok("b", "op_b"), ok("b2", "op_b")],
    );
    expect(rows.every((r) => r.agree)).toBe(true);
    expect(countComparison(rows)).toEqual({ steps: 3, calledByBoth: 2, disagreements: 0, successes: 2 });
  });

  it("disagrees on a different status, code or acceptance, and on a step one side did not run", () => {
    const refused: StepOutcome = { ...ok("a", "op_a"), outcome: "invalid_response", accepted: false };
    const coded: StepOutcome = {
      ...ok("b", "op_b"),
      outcome: "server_error",
      status: 422,
      code: "invalid_request",
      accepted: null,
    };
    const rows = compareOutcomes(steps, [ok("a", "op_a"), ok("b", "op_b"), ok("b2", "op_b")], [refused, coded]);
    expect(rows.map((r) => r.agree)).toEqual([false, false, false]);
    expect(countComparison(rows)).toMatchObject({ disagreements: 3, calledByBoth: 2, successes: 0 });
    expect(formatComparison(rows)).toContain("(not run)");
  });

  it("does not count a skipped step as called, and disagrees when only one side skipped", () => {
    const skipped: StepOutcome = {
      step: "a",
      operation: "op_a",
      outcome: "skipped",
      status: null,
      code: null,
      accepted: null,
      as_expected: false,
    };
    const failedEarly: StepOutcome = { ...skipped, outcome: "invalid_input" };
    const rows = compareOutcomes(steps.slice(0, 1), [skipped], [failedEarly]);
    expect(rows[0]?.agree).toBe(false);
    expect(countComparison(rows).calledByBoth).toBe(0);
  });
});
