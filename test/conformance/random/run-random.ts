// One random differential run: a fresh released server (as run.ts starts it: SQLite,
// authentication on, no model) and a fresh mock (`inference: "off"`), the same logical
// requests sent to each, one at a time, in the schedule's order (requests.ts). Each
// request is drawn when its turn comes, from the ids the release's earlier answers
// and the mock's held at the same place, then resolved and sent to the release, then to
// the mock.
import { loadRelease } from "../../contract/documents.js";
import { startRealServer } from "../../real/server.js";
import { startMockServer } from "../../../packages/msw/src/server/index.js";
import { RELEASE } from "../../../scripts/contract/release.mjs";
import { MOCK_ADMIN_TOKEN } from "../run.js";
import { realServerSettings } from "../scenario-format.js";
import { type Answer, send, type Target } from "../send-step.js";
import { Contract, type Schema } from "./contract.js";
import { Catalogue, type RecordedAnswer, resolveValue } from "./identity.js";
import { codeOf, judge, type Verdict } from "./judge.js";
import { drawRequest, type HttpRequest, type LogicalRequest, schedule, toHttp } from "./requests.js";
import { RequestValidator } from "./validate.js";

/** Options of {@link runRandom}. */
export interface RandomRunOptions {
  /** the run's seed: the schedule, every request and the mock's seed */
  readonly seed: number;
  /** requests per operation (default 8) */
  readonly k?: number;
  /** called after every request (progress) */
  readonly onRequest?: (done: number, total: number) => void;
}

/** One side's answer, as kept for the report (the body cut to a few thousand characters). */
export interface KeptAnswer {
  readonly status: number;
  readonly code: string | null;
  readonly body: string;
}

/** One request of the run with both answers and the verdict. */
export interface RandomRow {
  readonly request: LogicalRequest;
  readonly real: { readonly http: KeptRequest; readonly answer: KeptAnswer };
  readonly mock: { readonly http: KeptRequest; readonly answer: KeptAnswer };
  readonly verdict: Verdict;
  /** references the mock's answers did not hold (the request differs from the release's there) */
  readonly unresolvedOnMock: number;
  /** the request was drawn valid but the release's contract refuses it (a fault of the instrument) */
  readonly refusedValid: boolean;
}

/** A request as sent, cut for the report. */
export interface KeptRequest {
  readonly method: string;
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
}

/** A whole run. */
export interface RandomRunResult {
  readonly release: string;
  readonly seed: number;
  readonly k: number;
  readonly operations: number;
  readonly rows: readonly RandomRow[];
  /** time the servers took to answer, in ms */
  readonly realMs: number;
  readonly mockMs: number;
}

const KEEP = 1_500;

function cut(text: string): string {
  return text.length > KEEP ? `${text.slice(0, KEEP)}... (${text.length} characters)` : text;
}

function keepRequest(http: HttpRequest): KeptRequest {
  return {
    method: http.method,
    target: cut(http.target),
    headers: http.headers,
    body: http.body === undefined ? undefined : cut(http.body),
  };
}

function keepAnswer(answer: Answer): KeptAnswer {
  const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
  return { status: answer.status, code: codeOf(answer), body: cut(text ?? "") };
}

function recorded(answer: Answer, http: HttpRequest): RecordedAnswer {
  return { status: answer.status, body: answer.body, etag: answer.headers.get("etag"), sent: http.strings };
}

/** Sends one request; a request with no answer in time is the status 0 answer `<no answer>`. */
async function exchange(http: HttpRequest, target: Target): Promise<{ answer: Answer; ms: number }> {
  const started = performance.now();
  try {
    const answer = await send(
      { method: http.method, path: http.target, auth: "admin", request: {}, headers: http.headers, body: http.body },
      target,
    );
    return { answer, ms: performance.now() - started };
  } catch (error) {
    const body = { error: { code: "<no answer>", message: (error as Error).message } };
    return {
      answer: { status: 0, contentType: "application/json", body, headers: new Headers() },
      ms: performance.now() - started,
    };
  }
}

/**
 * Starts both servers, sends K requests per release operation to each, stops both.
 *
 * @throws {Error} when a server does not start, or one side stops answering (five
 *   requests in a row without an answer)
 */
export async function runRandom(options: RandomRunOptions): Promise<RandomRunResult> {
  const k = options.k ?? 8;
  const contract = new Contract(loadRelease() as Schema);
  const validator = new RequestValidator(contract);
  const slots = schedule(contract, options.seed, k);
  const real = await startRealServer({ env: realServerSettings(), readyTimeoutMs: 90_000 });
  try {
    const mock = await startMockServer({ seed: options.seed, inference: "off" });
    try {
      const realTarget: Target = { name: "real", baseUrl: real.baseUrl, token: real.token };
      const mockTarget: Target = { name: "mock", baseUrl: mock.url, token: MOCK_ADMIN_TOKEN };
      const catalogue = new Catalogue();
      const realAnswers: RecordedAnswer[] = [];
      const mockAnswers: RecordedAnswer[] = [];
      const rows: RandomRow[] = [];
      let [realMs, mockMs, silent] = [0, 0, 0];
      for (const [index, slot] of slots.entries()) {
        const { request } = drawRequest(contract, slot.operation, { seed: options.seed, index, k: slot.k, catalogue });
        const realHttp = toHttp(request, realAnswers);
        const mockHttp = toHttp(request, mockAnswers);
        const left = await exchange(realHttp, realTarget);
        const right = await exchange(mockHttp, mockTarget);
        realMs += left.ms;
        mockMs += right.ms;
        silent = left.answer.status === 0 || right.answer.status === 0 ? silent + 1 : 0;
        if (silent >= 5)
          throw new Error(
            `five requests in a row without an answer (last: ${request.operation}):\n${real.logs().slice(-3000)}`,
          );
        realAnswers.push(recorded(left.answer, realHttp));
        mockAnswers.push(recorded(right.answer, mockHttp));
        catalogue.add(index, realAnswers[index]!, mockAnswers[index]!);
        const refusedValid =
          request.fault === null &&
          validator.errors(
            request.operation,
            resolveValue(request.params, realAnswers, []) as Record<string, unknown>,
            resolveValue(request.body, realAnswers, []),
          ).length > 0;
        rows.push({
          request,
          real: { http: keepRequest(realHttp), answer: keepAnswer(left.answer) },
          mock: { http: keepRequest(mockHttp), answer: keepAnswer(right.answer) },
          verdict: judge(left.answer, right.answer),
          unresolvedOnMock: mockHttp.unresolved.length,
          refusedValid,
        });
        options.onRequest?.(index + 1, slots.length);
      }
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
  } finally {
    await real.stop();
  }
}
