// One random differential run over two sides: the same logical requests sent to a
// server and to a mock, one at a time, in the schedule's order (requests.ts). Each
// request is drawn when its turn comes, from the ids both sides' earlier answers hold
// at the same place (identity.ts), then resolved and sent to the server, then to the
// mock, and the two answers judged (judge.ts). How a side is reached (which server,
// which token, which HTTP client) is the caller's: the conformance suite starts a fresh
// release, `powercontext-mock verify` talks to a team's server.
import { redact, redactJson, secretSpellings } from "@powercontext/runtime";
import type { Contract } from "./contract.js";
import { Catalogue, type RecordedAnswer, resolveValue } from "./identity.js";
import { type Answer, codeOf, judge, type Verdict } from "./judge.js";
import { type Drawn, drawRequest, type HttpRequest, type LogicalRequest, type Slot, toHttp } from "./requests.js";

/** One side of a run: sends a request (the bearer token is the side's to add) and reads the whole answer. */
export interface Side {
  /**
   * @throws {Error} when no answer comes (the run records it as status 0, `<no answer>`)
   */
  exchange(http: HttpRequest): Promise<Answer>;
}

/** One side's answer, as kept for the report (the body cut to a few thousand characters). */
export interface KeptAnswer {
  readonly status: number;
  readonly code: string | null;
  readonly body: string;
}

/** A request as sent, cut for the report. */
export interface KeptRequest {
  readonly method: string;
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
}

/** One request of the run with both answers and the verdict. */
export interface RandomRow {
  readonly request: LogicalRequest;
  readonly real: { readonly http: KeptRequest; readonly answer: KeptAnswer };
  readonly mock: { readonly http: KeptRequest; readonly answer: KeptAnswer };
  readonly verdict: Verdict;
  /** references the mock's answers did not hold (the request differs from the server's there) */
  readonly unresolvedOnMock: number;
  /** the request was drawn valid but the server's contract refuses it (a fault of the instrument) */
  readonly refusedValid: boolean;
  /** wall time of both exchanges, in ms */
  readonly ms: number;
}

/** A whole run. */
export interface RandomRunResult {
  /** what the server is, for the report (`powercontext 1.4.1`) */
  readonly release: string;
  readonly seed: number;
  readonly k: number;
  readonly operations: number;
  readonly rows: readonly RandomRow[];
  /** time the servers took to answer, in ms */
  readonly realMs: number;
  readonly mockMs: number;
}

/** Options of {@link runDifferential}. */
export interface DifferentialOptions {
  readonly contract: Contract;
  readonly seed: number;
  /** the requests, in order (`schedule()`, possibly filtered or cut) */
  readonly slots: readonly Slot[];
  /** the server (the side whose answers decide which ids are drawn) */
  readonly real: Side;
  readonly mock: Side;
  /** the request to send for a drawn one (the same on both sides); default the drawn request as it is */
  readonly prepare?: (drawn: Drawn, index: number) => LogicalRequest;
  /** whether the server's answer to a request may offer its ids to later requests; default all 2xx answers */
  readonly feeds?: (request: LogicalRequest, answer: Answer) => boolean;
  /** true when a request drawn valid is refused by the contract (the instrument's own check); default never */
  readonly refusedValid?: (request: LogicalRequest, params: Record<string, unknown>, body: unknown) => boolean;
  /** called after every request, with the row (progress) */
  readonly onRow?: (row: RandomRow, done: number, total: number) => void;
  /** stops the run before the next request; the rows so far are returned */
  readonly signal?: AbortSignal;
  /** what the kept requests and answers must not show (a token and its forms); default none */
  readonly secrets?: readonly string[];
}

/** Thrown when a side stops answering: five requests in a row without an answer. */
export class SilentSideError extends Error {
  constructor(readonly operation: string) {
    super(`five requests in a row without an answer (last: ${operation})`);
    this.name = "SilentSideError";
  }
}

const KEEP = 1_500;
const SILENT_LIMIT = 5;

function cut(text: string): string {
  return text.length > KEEP ? `${text.slice(0, KEEP)}... (${text.length} characters)` : text;
}

/** How deep a kept answer's JSON is shown; deeper values become the runtime's truncation marker. */
const KEEP_DEPTH = 64;

function keepRequest(http: HttpRequest, secrets: readonly string[]): KeptRequest {
  const spellings = secretSpellings(secrets);
  return {
    method: http.method,
    target: cut(redact(http.target, spellings)),
    headers: redactJson(http.headers, spellings) as Readonly<Record<string, string>>,
    body: http.body === undefined ? undefined : cut(redact(http.body, spellings)),
  };
}

/**
 * The answer as a report keeps it: the secrets removed before anything is cut or
 * written as JSON (so no part of a secret survives a cut or an escape), nesting
 * bounded, the text cut to a size a report can show.
 */
function keepAnswer(answer: Answer, secrets: readonly string[]): KeptAnswer {
  const spellings = secretSpellings(secrets);
  const body =
    typeof answer.body === "string"
      ? redact(answer.body, spellings)
      : JSON.stringify(redactJson(answer.body, spellings, KEEP_DEPTH));
  return { status: answer.status, code: codeOf(answer), body: cut(redact(body ?? "", spellings)) };
}

function recorded(answer: Answer, http: HttpRequest): RecordedAnswer {
  return { status: answer.status, body: answer.body, etag: answer.headers.get("etag"), sent: http.strings };
}

/** What went wrong, with the causes a fetch error chains (the socket's code and words). */
function failure(error: unknown): string {
  const parts: string[] = [];
  for (let at: unknown = error, depth = 0; at !== undefined && at !== null && depth < 4; depth += 1) {
    if (!(at instanceof Error)) {
      parts.push(String(at));
      break;
    }
    const code = (at as { code?: unknown }).code;
    parts.push(typeof code === "string" ? `${at.message} (${code})` : at.message);
    at = at.cause;
  }
  return parts.join(": ");
}

/** Sends one request; a request with no answer is the status 0 answer `<no answer>`. */
async function exchange(http: HttpRequest, side: Side): Promise<{ answer: Answer; ms: number }> {
  const started = performance.now();
  try {
    return { answer: await side.exchange(http), ms: performance.now() - started };
  } catch (error) {
    const body = { error: { code: "<no answer>", message: failure(error) } };
    return {
      answer: { status: 0, contentType: "application/json", body, headers: new Headers() },
      ms: performance.now() - started,
    };
  }
}

/**
 * Sends the slots' requests to both sides and judges each pair of answers.
 *
 * @returns the rows (fewer than the slots when `signal` stopped the run) and each side's time in ms
 * @throws {SilentSideError} when a side stops answering (five requests in a row without an answer)
 */
export async function runDifferential(
  options: DifferentialOptions,
): Promise<{ rows: RandomRow[]; realMs: number; mockMs: number }> {
  const { contract, seed, slots } = options;
  const secrets = options.secrets ?? [];
  const catalogue = new Catalogue();
  const realAnswers: (RecordedAnswer | undefined)[] = [];
  const mockAnswers: (RecordedAnswer | undefined)[] = [];
  const rows: RandomRow[] = [];
  let [realMs, mockMs, silent] = [0, 0, 0];
  const stopped = () => options.signal?.aborted === true;
  for (const [index, slot] of slots.entries()) {
    if (stopped()) break;
    const drawn = drawRequest(contract, slot.operation, { seed, index, k: slot.k, catalogue });
    const request = options.prepare?.(drawn, index) ?? drawn.request;
    const realHttp = toHttp(request, realAnswers);
    const mockHttp = toHttp(request, mockAnswers);
    const left = await exchange(realHttp, options.real);
    const right = await exchange(mockHttp, options.mock);
    // a request cut short by the stop has no answer to judge
    if (stopped()) break;
    realMs += left.ms;
    mockMs += right.ms;
    silent = left.answer.status === 0 || right.answer.status === 0 ? silent + 1 : 0;
    if (silent >= SILENT_LIMIT) throw new SilentSideError(request.operation);
    const [realRecord, mockRecord] = [recorded(left.answer, realHttp), recorded(right.answer, mockHttp)];
    const feeds = options.feeds?.(request, left.answer) ?? true;
    realAnswers.push(feeds ? realRecord : undefined);
    mockAnswers.push(feeds ? mockRecord : undefined);
    if (feeds) catalogue.add(index, realRecord, mockRecord);
    const refusedValid =
      request.fault === null &&
      options.refusedValid !== undefined &&
      options.refusedValid(
        request,
        resolveValue(request.params, realAnswers, []) as Record<string, unknown>,
        resolveValue(request.body, realAnswers, []),
      );
    const row: RandomRow = {
      request,
      real: { http: keepRequest(realHttp, secrets), answer: keepAnswer(left.answer, secrets) },
      mock: { http: keepRequest(mockHttp, secrets), answer: keepAnswer(right.answer, secrets) },
      verdict: judge(left.answer, right.answer),
      unresolvedOnMock: mockHttp.unresolved.length,
      refusedValid,
      ms: left.ms + right.ms,
    };
    rows.push(row);
    options.onRow?.(row, index + 1, slots.length);
  }
  return { rows, realMs, mockMs };
}
