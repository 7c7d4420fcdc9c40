// The differential conformance run in `npm test`: one fresh released server and one fresh
// mock, every scenario and the sweep (run.ts), held to the floors of targets.json.
// Without the venv it skips loudly; under CI=true it fails instead (test/real/tools.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadOurs, loadRelease, operationsOf } from "../contract/documents.js";
import { pythonTools, requireTools, suiteName } from "../real/tools.js";
import { foundDifferences, judgeDifferences, loadListedDifferences } from "./listed-differences.js";
import { formatReport } from "./report.js";
import { runConformance, type RunResult } from "./run.js";
import { loadScenarios } from "./scenario-format.js";
import { loadTargets } from "./targets.js";

const run = requireTools(suiteName(import.meta.url), pythonTools());
const targets = loadTargets();

describe.runIf(run)("the mock against the released server, scenario by scenario", () => {
  let result: RunResult;

  beforeAll(async () => {
    result = await runConformance();
    console.log(formatReport(result.report).split("\n## Differences")[0]);
  }, 600_000);

  afterAll(() => {
    // nothing to stop: runConformance stops both servers itself
  });

  it("calls every release operation in at least one stateful scenario", () => {
    const called = new Set(loadScenarios().flatMap((s) => s.steps.map((step) => step.operation)));
    const missing = operationsOf(loadRelease())
      .map((o) => o.operationId)
      .filter((id) => !called.has(id));
    expect(missing).toEqual([]);
  });

  it("follows every list operation of the release to its end in some scenario", () => {
    const followed = new Set(
      loadScenarios().flatMap((s) => s.steps.filter((step) => step.follow).map((step) => step.operation)),
    );
    const release = new Set(operationsOf(loadRelease()).map((o) => o.operationId));
    const lists = operationsOf(loadOurs())
      .filter((o) => o.operation["x-powercontext-pagination"] !== undefined && release.has(o.operationId))
      .map((o) => o.operationId);
    expect(lists.length).toBeGreaterThan(10);
    expect(lists.filter((id) => !followed.has(id))).toEqual([]);
  });

  it("compares a meaningful number of steps, and sweeps all 126 operations", () => {
    expect(result.report.total.steps).toBeGreaterThan(250);
    expect(result.report.sweep.operations).toBe(126);
  });

  it(`agrees on status and code on at least ${targets.codeRatio} of the steps, and on shape too on ${targets.shapeRatio}`, () => {
    expect(result.report.codeRatio).toBeGreaterThanOrEqual(targets.codeRatio);
    expect(result.report.shapeRatio).toBeGreaterThanOrEqual(targets.shapeRatio);
  });

  it(`agrees on the sweep's status for at least ${targets.sweepStatusAgree} of 126 operations`, () => {
    expect(result.report.sweep.statusAgree).toBeGreaterThanOrEqual(targets.sweepStatusAgree);
  });

  it.runIf(targets.listDifferences)("lists every remaining difference in docs/compatibility.md, and no other", () => {
    const { unlisted, unused } = judgeDifferences(
      foundDifferences(result.rows, result.report.sweepDifferences),
      loadListedDifferences(),
    );
    expect(
      unlisted.map((f) => `${f.name}: ${f.text}`),
      "differences without a row in docs/compatibility.md",
    ).toEqual([]);
    expect(
      unused.map((r) => `line ${r.line}: ${r.pattern}`),
      "rows that match no difference",
    ).toEqual([]);
  });
});
