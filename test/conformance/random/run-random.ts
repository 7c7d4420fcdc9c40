// One random differential run of the conformance suite: a fresh released server (as
// run.ts starts it: SQLite, authentication on, no model) and a fresh mock
// (`inference: "off"`), both reached over loopback with send-step.ts, and the run itself
// (drawing, sending, judging) from @powercontext/msw's verify engine, which
// `powercontext-mock verify` uses against a team's server.
import { loadRelease } from "../../contract/documents.js";
import { startRealServer } from "../../real/server.js";
import { startMockServer } from "../../../packages/msw/src/server/index.js";
import { Contract, type Schema } from "../../../packages/msw/src/verify/random/contract.js";
import type { HttpRequest } from "../../../packages/msw/src/verify/random/requests.js";
import { schedule } from "../../../packages/msw/src/verify/random/requests.js";
import {
  type RandomRunResult,
  runDifferential,
  type Side,
  SilentSideError,
} from "../../../packages/msw/src/verify/random/run.js";
import { RELEASE } from "../../../scripts/contract/release.mjs";
import { MOCK_ADMIN_TOKEN } from "../run.js";
import { realServerSettings } from "../scenario-format.js";
import { send, type Target } from "../send-step.js";
import { RequestValidator } from "./validate.js";

export type { RandomRow, RandomRunResult } from "../../../packages/msw/src/verify/random/run.js";

/** Options of {@link runRandom}. */
export interface RandomRunOptions {
  /** the run's seed: the schedule, every request and the mock's seed */
  readonly seed: number;
  /** requests per operation (default 8) */
  readonly k?: number;
  /** called after every request (progress) */
  readonly onRequest?: (done: number, total: number) => void;
}

/** A loopback server as one side of the run, the administrator's token on every request. */
function side(target: Target): Side {
  return {
    exchange: (http: HttpRequest) =>
      send(
        { method: http.method, path: http.target, auth: "admin", request: {}, headers: http.headers, body: http.body },
        target,
      ),
  };
}

/**
 * Starts both servers, sends K requests per release operation to each, stops both.
 *
 * @throws {Error} when a server does not start, or one side stops answering (five
 *   requests in a row without an answer; the release's log is attached)
 */
export async function runRandom(options: RandomRunOptions): Promise<RandomRunResult> {
  const k = options.k ?? 8;
  const contract = new Contract(loadRelease() as Schema);
  const validator = new RequestValidator(contract);
  const real = await startRealServer({ env: realServerSettings(), readyTimeoutMs: 90_000 });
  try {
    const mock = await startMockServer({ seed: options.seed, inference: "off" });
    try {
      const { rows, realMs, mockMs } = await runDifferential({
        contract,
        seed: options.seed,
        slots: schedule(contract, options.seed, k),
        real: side({ name: "real", baseUrl: real.baseUrl, token: real.token }),
        mock: side({ name: "mock", baseUrl: mock.url, token: MOCK_ADMIN_TOKEN }),
        refusedValid: (request, params, body) => validator.errors(request.operation, params, body).length > 0,
        onRow: (_row, done, total) => options.onRequest?.(done, total),
      });
      return {
        release: `powercontext ${RELEASE.version}`,
        seed: options.seed,
        k,
        operations: contract.operations.length,
        rows,
        realMs,
        mockMs,
      };
    } finally {
      await mock.close();
    }
  } catch (error) {
    if (error instanceof SilentSideError) throw new Error(`${error.message}:\n${real.logs().slice(-3000)}`);
    throw error;
  } finally {
    await real.stop();
  }
}
