// One conformance run: a fresh released server and a fresh mock, the scenarios played
// against each (real first, then mock, one request at a time), compared step by step,
// then the sweep. Used by `npm run conformance` (cli.ts) and by conformance.test.ts.
import { loadOurs, loadRelease, operationsOf as documentOperations, type JsonObject } from "../contract/documents.js";
import { operationsOf, type OpenApiDocument } from "../real/openapi.js";
import { startRealServer } from "../real/server.js";
import { startMockServer } from "../../packages/msw/src/server/index.js";
import { RELEASE } from "../../scripts/contract/release.mjs";
import { compareObservations, type StepComparison } from "./compare.js";
import { play } from "./play.js";
import { buildReport, type ConformanceReport } from "./report.js";
import { loadScenarios, realServerSettings, type Scenario } from "./scenario-format.js";
import type { Target } from "./send-step.js";
import { sweep, type SweepOperation } from "./sweep.js";
import { Synthesizer } from "./synthesize.js";

/** The mock's administrator token (packages/msw/principals.default.json). */
export const MOCK_ADMIN_TOKEN = "pc-admin";

/** Options of {@link runConformance}. */
export interface RunOptions {
  /** the mock's seed (default 1) */
  readonly seed?: number;
  /** scenarios to play (default: all of them, recipes first) */
  readonly scenarios?: readonly Scenario[];
  /** run the one-request-per-operation sweep too (default true) */
  readonly sweep?: boolean;
}

/** A run's report plus every step's comparison. */
export interface RunResult {
  readonly report: ConformanceReport;
  readonly rows: readonly StepComparison[];
}

/** The tag an operation is counted under: its first OpenAPI tag in openapi.yaml. */
function tagLookup(document: JsonObject): (operation: string | null, fallback: string) => string {
  const tags = new Map(
    documentOperations(document).map((o) => [
      o.operationId,
      String((o.operation.tags as string[] | undefined)?.[0] ?? "untagged"),
    ]),
  );
  return (operation, fallback) => (operation === null ? fallback : (tags.get(operation) ?? fallback));
}

/** The release's operations, with openapi.yaml's entries for them (the sweep sends what our contract says). */
function releaseOperations(ours: JsonObject): SweepOperation[] {
  const summaries = operationsOf(ours as OpenApiDocument);
  const paths = ours.paths as Record<string, JsonObject>;
  return documentOperations(loadRelease()).map((entry) => {
    const summary = summaries.get(entry.operationId);
    if (summary === undefined) throw new Error(`release operation ${entry.operationId} is not in openapi.yaml`);
    const pathItem = paths[summary.path]!;
    return { summary, operation: pathItem[summary.method.toLowerCase()] as JsonObject, pathItem };
  });
}

/**
 * Starts both servers, plays the scenarios and the sweep, stops both servers.
 *
 * @throws {Error} when a server does not start, a request gets no answer in 30 s, or a
 *   scenario names an operation openapi.yaml does not have
 */
export async function runConformance(options: RunOptions = {}): Promise<RunResult> {
  const ours = loadOurs();
  const operations = operationsOf(ours as OpenApiDocument);
  const scenarios = options.scenarios ?? loadScenarios();
  const real = await startRealServer({ env: realServerSettings(), readyTimeoutMs: 90_000 });
  try {
    // The release runs as a default install, without an inference model: the mock's other face.
    const mock = await startMockServer({ seed: options.seed ?? 1, inference: "off" });
    try {
      const realTarget: Target = { name: "real", baseUrl: real.baseUrl, token: real.token };
      const mockTarget: Target = { name: "mock", baseUrl: mock.url, token: MOCK_ADMIN_TOKEN };
      const realSide = await play(scenarios, realTarget, { operations });
      const mockSide = await play(scenarios, mockTarget, { operations });
      const tagOf = tagLookup(ours);
      const rows = compareObservations(realSide, mockSide, tagOf, new Map(scenarios.map((s) => [s.name, s.tag])));
      const swept =
        options.sweep === false
          ? []
          : await sweep(releaseOperations(ours), new Synthesizer(ours), realTarget, mockTarget);
      return { report: buildReport(rows, swept, `powercontext ${RELEASE.version}`), rows };
    } finally {
      await mock.close();
    }
  } finally {
    await real.stop();
  }
}
