// `npm run conformance`: the differential run of the mock against the released server.
// Prints the table per OpenAPI tag and every difference; `--json` prints the report as
// JSON instead. Exit code 0 whatever the agreement: the targets are checked by
// conformance.test.ts, this command only reports.
//
// `npm run conformance -- --random [--seed N] [--k K] [--json] [--check]` runs the
// seeded random differential run instead (random/cli-random.ts).
import { runConformance } from "./run.js";
import { formatReport } from "./report.js";
import { pythonTools, requireTools } from "../real/tools.js";
import { parseRandomOptions, randomCli } from "./random/cli-random.js";

const json = process.argv.includes("--json");
if (!requireTools("npm run conformance", pythonTools())) process.exit(1);
if (process.argv.includes("--random")) {
  process.exitCode = await randomCli(parseRandomOptions(process.argv.slice(2)));
} else {
  const { report } = await runConformance();
  process.stdout.write(json ? `${JSON.stringify(report, null, 1)}\n` : `${formatReport(report)}\n`);
}
