// `npm run conformance -- --random [--seed N[,M...]] [--k K] [--json] [--check]`: the
// random differential run (README.md, "The random run"). Prints the seed first, so any
// run can be replayed; with several seeds, one fresh pair of servers per seed and one
// report over all of them. `--check` exits 1 when the report falls below the `ci` floors
// of RANDOM_TARGETS (the package's floors.ts), as .ci/run uses it; without it the exit
// code is 0 whatever the agreement.
import { randomInt } from "node:crypto";
import { belowFloors, RANDOM_TARGETS } from "../../../packages/msw/src/verify/random/floors.js";
import { formatRandomReport, replayCommand } from "./format-random.js";
import { buildRandomReport } from "../../../packages/msw/src/verify/random/report.js";
import { type RandomRunResult, runRandom } from "./run-random.js";

/** The random run's command-line options. */
export interface RandomCliOptions {
  readonly seeds: readonly number[];
  readonly k: number;
  readonly json: boolean;
  readonly check: boolean;
}

function value(argv: readonly string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  return at === -1 ? undefined : argv[at + 1];
}

/**
 * Reads the options; a run without `--seed` gets a new seed.
 *
 * @throws {Error} for a seed or K that is not a non-negative integer (K: positive)
 */
export function parseRandomOptions(argv: readonly string[]): RandomCliOptions {
  const seedText = value(argv, "--seed");
  const seeds = seedText === undefined ? [randomInt(1, 2 ** 31 - 1)] : seedText.split(",").map(Number);
  const k = Number(value(argv, "--k") ?? "8");
  if (seeds.some((s) => !Number.isSafeInteger(s) || s < 0))
    throw new Error(`--seed: non-negative integers, got ${seedText}`);
  if (!Number.isInteger(k) || k < 1) throw new Error(`--k: a positive integer, got ${value(argv, "--k")}`);
  return { seeds, k, json: argv.includes("--json"), check: argv.includes("--check") };
}

/** Runs the random run(s) and prints the report; returns the exit code. */
export async function randomCli(options: RandomCliOptions): Promise<number> {
  process.stderr.write(
    `random differential run: seed ${options.seeds.join(",")}, K=${options.k} (replay: ${replayCommand(options.seeds, options.k)})\n`,
  );
  const runs: RandomRunResult[] = [];
  for (const seed of options.seeds) {
    runs.push(
      await runRandom({
        seed,
        k: options.k,
        onRequest: (done, total) => {
          if (done % 200 === 0 || done === total) process.stderr.write(`  seed ${seed}: ${done}/${total}\n`);
        },
      }),
    );
  }
  const report = buildRandomReport(runs);
  process.stdout.write(options.json ? `${JSON.stringify(report, null, 1)}\n` : `${formatRandomReport(report)}\n`);
  if (!options.check) return 0;
  const failures = belowFloors(report, RANDOM_TARGETS.ci);
  for (const failure of failures) process.stderr.write(`below the floor: ${failure}\n`);
  process.stderr.write(
    failures.length === 0
      ? `random run holds the floors of targets.json (seed ${options.seeds.join(",")})\n`
      : `random run failed; replay: ${replayCommand(options.seeds, options.k)}\n`,
  );
  return failures.length === 0 ? 0 : 1;
}
