// The random run's floors (test/conformance/targets.json, member `random`): a ratchet at
// the agreement last measured, for the fixed-seed run of npm test and for the run on a
// new seed in .ci/run, raised as the mock improves toward `final`, the targets.
import { readFileSync } from "node:fs";
import type { RandomReport } from "./report-random.js";

/** The least agreement a run must reach (and the most 5xx and 2xx deviation it may show). */
export interface Floors {
  readonly k: number;
  /** least fraction of requests whose status and code agree */
  readonly codeRatio: number;
  /** least fraction of 2xx/2xx answers with the same member paths */
  readonly pathRatio: number;
  /** most requests the mock answers 5xx and the release does not */
  readonly mockOnly5xx: number;
  /** most |mock 2xx / release 2xx - 1| */
  readonly twoXxDeviation: number;
}

/** The `random` member of targets.json. */
export interface RandomTargets {
  /** the run of npm test: one fixed seed, small K */
  readonly test: Floors & { readonly seed: number };
  /** the run of .ci/run: a new seed each time */
  readonly ci: Floors;
  /** the targets, which the floors rise to */
  readonly final: Omit<Floors, "k">;
}

function checked(floors: unknown, where: string, needsK = true): void {
  const f = floors as Partial<Floors> | undefined;
  const fraction = (v: unknown) => typeof v === "number" && v >= 0 && v <= 1;
  if (
    !f ||
    !fraction(f.codeRatio) ||
    !fraction(f.pathRatio) ||
    !Number.isInteger(f.mockOnly5xx) ||
    typeof f.twoXxDeviation !== "number" ||
    (needsK && !(Number.isInteger(f.k) && (f.k ?? 0) > 0))
  )
    throw new Error(
      `test/conformance/targets.json random.${where}: codeRatio and pathRatio are fractions, mockOnly5xx a count, twoXxDeviation a number${needsK ? ", k a positive integer" : ""}`,
    );
}

/**
 * Reads the random run's floors from test/conformance/targets.json.
 *
 * @throws {Error} when a member is missing or out of range
 */
export function loadRandomTargets(): RandomTargets {
  const targets = JSON.parse(readFileSync(new URL("../targets.json", import.meta.url), "utf8")) as {
    random?: RandomTargets;
  };
  const random = targets.random;
  checked(random?.test, "test");
  if (!Number.isInteger(random?.test.seed))
    throw new Error("test/conformance/targets.json random.test.seed: an integer");
  checked(random?.ci, "ci");
  checked(random?.final, "final", false);
  return random as RandomTargets;
}

/** The floors a report falls below, in words (empty when it holds them all). */
export function belowFloors(report: RandomReport, floors: Omit<Floors, "k">): string[] {
  const o = report.overall;
  const out: string[] = [];
  if (o.codeRatio < floors.codeRatio)
    out.push(`status+code agreement ${o.codeRatio.toFixed(4)} is below the floor ${floors.codeRatio}`);
  if (o.pathRatio < floors.pathRatio)
    out.push(`2xx/2xx member-path agreement ${o.pathRatio.toFixed(4)} is below the floor ${floors.pathRatio}`);
  if (o.mockOnly5xx > floors.mockOnly5xx)
    out.push(`${o.mockOnly5xx} mock-only 5xx answers, more than the ceiling ${floors.mockOnly5xx}`);
  if (o.twoXxDeviation > floors.twoXxDeviation)
    out.push(
      `the mock's 2xx count deviates ${o.twoXxDeviation.toFixed(4)} from the release's, more than ${floors.twoXxDeviation}`,
    );
  if (o.refusedValid > 0) out.push(`${o.refusedValid} requests drawn as valid are refused by the release's contract`);
  return out;
}
