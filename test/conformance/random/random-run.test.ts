// The random differential run in npm test: one fixed seed, K small
// (RANDOM_TARGETS.test), a fresh released server and a fresh mock, held to the floors. .ci/run
// runs a longer one on a new seed each time (`npm run conformance -- --random --check`).
// Without the venv it skips loudly; under CI=true it fails instead (test/real/tools.ts).
import { beforeAll, describe, expect, it } from "vitest";
import { pythonTools, requireTools, suiteName } from "../../real/tools.js";
import { belowFloors, RANDOM_TARGETS } from "../../../packages/msw/src/verify/random/floors.js";
import { formatRandomReport } from "./format-random.js";
import { buildRandomReport, type RandomReport } from "../../../packages/msw/src/verify/random/report.js";
import { runRandom } from "./run-random.js";

const run = requireTools(suiteName(import.meta.url), pythonTools());
const targets = RANDOM_TARGETS;

describe.runIf(run)(
  `random requests, seed ${targets.test.seed}, K=${targets.test.k}, on the release and the mock`,
  () => {
    let report: RandomReport;

    beforeAll(async () => {
      report = buildRandomReport([await runRandom({ seed: targets.test.seed, k: targets.test.k })]);
      console.log(formatRandomReport(report, 10).split("\n## Operations that disagree")[0]);
    }, 600_000);

    it("sends K requests for every release operation, about one in four faulted, none refused by the contract when drawn valid", () => {
      expect(report.operations).toBe(126);
      expect(report.overall.requests).toBe(126 * targets.test.k);
      expect(report.overall.faulted / report.overall.requests).toBeGreaterThan(0.15);
      expect(report.overall.faulted / report.overall.requests).toBeLessThan(0.35);
      expect(report.overall.refusedValid).toBe(0);
    });

    it("reaches real state: more than one request in ten answered 2xx by the release", () => {
      expect(report.overall.real2xx).toBeGreaterThan(0.1 * report.overall.requests);
    });

    it("holds the floors of RANDOM_TARGETS.test", () => {
      expect(belowFloors(report, targets.test)).toEqual([]);
    });
  },
);
