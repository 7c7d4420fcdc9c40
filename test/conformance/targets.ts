// targets.json as data: the floors the conformance run must reach, and the switches of
// the checks that are not on yet.
import { readFileSync } from "node:fs";

/** The contents of targets.json. */
export interface Targets {
  /** least fraction of stateful steps whose status and code agree */
  readonly codeRatio: number;
  /** least fraction whose status, code and shape agree */
  readonly shapeRatio: number;
  /** least number of release operations whose sweep status agrees */
  readonly sweepStatusAgree: number;
  /** the targets, which the floors rise to */
  readonly final: { readonly codeRatio: number; readonly shapeRatio: number; readonly sweepStatusAgree: number };
  /** check docs/compatibility.md's behaviour table against the run, both ways */
  readonly listDifferences: boolean;
  /** check name -> why it fails today; the check then asserts that it still fails */
  readonly knownFailures: Readonly<Record<string, string>>;
}

/**
 * Reads test/conformance/targets.json.
 *
 * @throws {Error} when a floor is missing or outside 0..1 (ratios) or 0..126 (the sweep)
 */
export function loadTargets(): Targets {
  const targets = JSON.parse(readFileSync(new URL("./targets.json", import.meta.url), "utf8")) as Targets;
  const ratio = (value: unknown) => typeof value === "number" && value >= 0 && value <= 1;
  if (
    !ratio(targets.codeRatio) ||
    !ratio(targets.shapeRatio) ||
    !Number.isInteger(targets.sweepStatusAgree) ||
    targets.sweepStatusAgree > 126
  ) {
    throw new Error(
      "test/conformance/targets.json: codeRatio and shapeRatio are fractions, sweepStatusAgree a count of at most 126",
    );
  }
  return targets;
}
