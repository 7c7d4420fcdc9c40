// `npm run conformance`: the differential run of the mock against the released server.
// Prints the table per OpenAPI tag and every difference; `--json` prints the report as
// JSON instead. Exit code 0 whatever the agreement: the targets are checked by
// conformance.test.ts, this command only reports.
import { runConformance } from "./run.js";
import { formatReport } from "./report.js";
import { pythonTools, requireTools } from "../real/tools.js";

const json = process.argv.includes("--json");
if (!requireTools("npm run conformance", pythonTools())) process.exit(1);
const { report } = await runConformance();
process.stdout.write(json ? `${JSON.stringify(report, null, 1)}\n` : `${formatReport(report)}\n`);
