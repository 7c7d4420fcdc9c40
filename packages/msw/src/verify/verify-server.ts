// `verifyServer()`: does an app's mock still hold for the server it runs against? The
// contract drift first (the server's /openapi.json against the contract this package
// was generated from), then the mock's face chosen from the server's capabilities, then
// a seeded random run of the same requests to the server and to a fresh embedded mock,
// in Scopes the run creates (scope-plan.ts). docs/verify.md describes the outputs.
import { ConfigurationError, isLoopbackHost, normalizeBaseUrl, redactJson, secretsOf } from "@powercontext/runtime";
import type { InferenceMode } from "../simulator/refusal-facts.js";
import { type MockServer, startMockServer } from "../server/start.js";
import { compareContracts, type DriftReport, type JsonObject } from "./drift.js";
import { chooseFace } from "./face.js";
import { httpSide } from "./http-side.js";
import { operationFacts, scopeOperation } from "./operation-facts.js";
import { Contract, type Schema } from "./random/contract.js";
import { type Floors, RANDOM_TARGETS } from "./random/floors.js";
import { buildRandomReport, type RandomReport } from "./random/report.js";
import { schedule, type Slot } from "./random/requests.js";
import { type RandomRow, runDifferential } from "./random/run.js";
import { scopePlan } from "./scope-plan.js";
import { type VerifyCase, verifyCases } from "./verify-cases.js";

/** Options of {@link verifyServer}. */
export interface VerifyOptions {
  /** the server's base URL, e.g. `https://pc.example.com` */
  readonly server: string;
  /** the server's bearer token (never printed: every output has it removed) */
  readonly token: string;
  /** seed of the requests and of the mock; default a new one (printed in the result) */
  readonly seed?: number;
  /** requests per operation; default 2 */
  readonly k?: number;
  /** send only operations without side effects (retry class `safe`); default false */
  readonly readOnly?: boolean;
  /** allow plaintext `http://` to a host that is not loopback; default false */
  readonly allowInsecure?: boolean;
  /** allow writes to a server that is not on loopback; default false (loopback servers need no flag) */
  readonly allowWrites?: boolean;
  /** most requests of the random run (each goes to both sides); default all K x operations */
  readonly maxRequests?: number;
  /** time limit of the whole run in ms; the run stops there and reports what it did; default none */
  readonly timeoutMs?: number;
  /** least status+code agreement (0 to 1); default the `ci` floor of `RANDOM_TARGETS` */
  readonly minAgreement?: number;
  /** stops the run (Ctrl-C); verify still cleans up and reports */
  readonly signal?: AbortSignal;
  /** called after every request of the random run */
  readonly onProgress?: (done: number, total: number) => void;
}

/** What {@link verifyServer} found; every string has the token removed. */
export interface VerifyResult {
  /** the server's origin and path (checked, no userinfo) */
  readonly server: string;
  readonly seed: number;
  readonly k: number;
  readonly readOnly: boolean;
  /** the mock's face, chosen from the server's capabilities */
  readonly inference: InferenceMode;
  readonly drift: DriftReport;
  readonly random: RandomReport;
  /** one case per drift operation and per random request: what the table counts and the JUnit file lists */
  readonly cases: readonly VerifyCase[];
  /** the floor the run was held to: the least status+code agreement (`minAgreement`) */
  readonly floors: Pick<Floors, "codeRatio">;
  /** the floor the run fell below, in words; empty when it passed */
  readonly below: readonly string[];
  readonly passed: boolean;
  /** why the run stopped early: `timeout`, `interrupted`, or null when it ran to the end */
  readonly stopped: "timeout" | "interrupted" | null;
  /**
   * the names of the Scopes the run created on the server (`verify-<seed>-<n>`); they stay,
   * since the contract has no operation that removes a Scope
   */
  readonly scopes: readonly string[];
  readonly seconds: number;
}

/** A bad option: nothing was sent (exit code 2). */
export class VerifyUsageError extends Error {
  override name = "VerifyUsageError";
}

/** The server could not be reached or did not serve its contract (exit code 2). */
export class VerifyConnectionError extends Error {
  override name = "VerifyConnectionError";
}

/** The administrator token of the embedded mock's documented default principals. */
const MOCK_TOKEN = "pc-admin";

/** The operation whose answer tells the mock's face (an inference model or not). */
const CAPABILITIES = "get_capabilities";

function checkOptions(options: VerifyOptions): { base: string; seed: number; k: number; minAgreement: number } {
  const integer = (value: number | undefined, name: string, min: number) => {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < min))
      throw new VerifyUsageError(`${name} must be an integer of at least ${min}`);
  };
  integer(options.seed, "seed", 0);
  integer(options.k, "k", 1);
  integer(options.maxRequests, "maxRequests", 1);
  if (options.timeoutMs !== undefined && !(options.timeoutMs > 0))
    throw new VerifyUsageError("timeout must be a positive number");
  const minAgreement = options.minAgreement ?? RANDOM_TARGETS.verify.codeRatio;
  if (!(minAgreement >= 0 && minAgreement <= 1)) throw new VerifyUsageError("minAgreement must be from 0 to 1");
  if (typeof options.token !== "string" || options.token === "") throw new VerifyUsageError("the token is empty");
  let base: string;
  try {
    const insecure = options.allowInsecure === true;
    base = normalizeBaseUrl(options.server, { trustTransportSecurity: insecure, customTransport: insecure });
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    throw new VerifyUsageError(`server URL: ${error.message.replace("baseUrl", "the URL")}`);
  }
  if (options.readOnly !== true && options.allowWrites !== true && !isLoopbackHost(new URL(base).hostname))
    throw new VerifyUsageError(
      "the server is not on loopback: pass --read-only, or --allow-writes to let verify create its own Scopes there",
    );
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  return { base, seed, k: options.k ?? 2, minAgreement };
}

/** The JSON body of a 200 answer, or a connection error naming what failed. */
function jsonOf(answer: { status: number; body: unknown }, what: string): JsonObject {
  if (answer.status !== 200 || answer.body === null || typeof answer.body !== "object" || Array.isArray(answer.body))
    throw new VerifyConnectionError(`${what}: the server answered ${answer.status} without a JSON object`);
  return answer.body as JsonObject;
}

async function capabilitiesOf(mock: MockServer, target: string): Promise<unknown> {
  const answer = await httpSide(mock.url, MOCK_TOKEN).send({ method: "GET", target });
  return answer.body;
}

/** Starts a mock of each face, reads its capabilities, and closes it. */
async function faces(target: string): Promise<Record<InferenceMode, unknown>> {
  const out: Partial<Record<InferenceMode, unknown>> = {};
  for (const inference of ["on", "off"] as const) {
    const probe = await startMockServer({ inference });
    try {
      out[inference] = await capabilitiesOf(probe, target);
    } finally {
      await probe.close();
    }
  }
  return out as Record<InferenceMode, unknown>;
}

/**
 * Verifies that the embedded mock answers as `options.server` does (docs/verify.md).
 *
 * @returns the drift, the random run's report, one case per judged item, and whether
 *   the run holds the floors; a run stopped by `signal` or `timeoutMs` reports what it did
 * @throws {VerifyUsageError} for a bad option, before any request is sent
 * @throws {VerifyConnectionError} when the server cannot be reached, or does not serve
 *   its contract at `/openapi.json`
 */
export async function verifyServer(options: VerifyOptions): Promise<VerifyResult> {
  const started = performance.now();
  const { base, seed, k, minAgreement } = checkOptions(options);
  const secrets = secretsOf(options.token);
  const stop = new AbortController();
  const timer =
    options.timeoutMs === undefined ? undefined : setTimeout(() => stop.abort("timeout"), options.timeoutMs);
  const interrupt = () => stop.abort("interrupted");
  options.signal?.addEventListener("abort", interrupt, { once: true });
  if (options.signal?.aborted === true) interrupt();
  try {
    const server = httpSide(base, options.token, stop.signal);
    // loaded when verify runs: `powercontext-mock serve` and the handlers never carry the document
    const { openapiDocumentJson } = await import("../generated/openapi-document.js");
    const contract = new Contract(JSON.parse(openapiDocumentJson) as Schema);
    let served: JsonObject;
    try {
      served = jsonOf(await server.send({ method: "GET", target: "/openapi.json" }), "GET /openapi.json");
    } catch (error) {
      if (error instanceof VerifyConnectionError) throw error;
      const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : "";
      throw new VerifyConnectionError(`cannot reach the server: ${reason}`);
    }
    const drift = compareContracts(contract.document as JsonObject, served);
    const missing = new Set(drift.missing.map((op) => op.operationId));
    const facts = operationFacts(contract);
    const capabilities = contract.operations.find((op) => op.operationId === CAPABILITIES);
    const theirs =
      capabilities === undefined || missing.has(CAPABILITIES)
        ? null
        : (await server.send({ method: "GET", target: capabilities.path })).body;
    const inference = capabilities === undefined ? "on" : chooseFace(theirs, await faces(capabilities.path));
    const readOnly = options.readOnly === true;
    const plan = scopePlan(seed, facts, scopeOperation(facts, "create"), readOnly);
    let slots: Slot[] = schedule(contract, seed, k).filter(
      (slot) =>
        !missing.has(slot.operation.operationId) && (!readOnly || facts.get(slot.operation.operationId)?.readOnly),
    );
    if (plan.setup !== null) slots = [plan.setup, ...slots];
    if (options.maxRequests !== undefined) slots = slots.slice(0, options.maxRequests);
    const mock = await startMockServer({ seed, inference });
    let rows: RandomRow[] = [];
    let times = { realMs: 0, mockMs: 0 };
    try {
      const run = await runDifferential({
        contract,
        seed,
        slots,
        real: server,
        mock: httpSide(mock.url, MOCK_TOKEN, stop.signal),
        prepare: plan.prepare,
        feeds: plan.feeds,
        signal: stop.signal,
        onRow: (_row, done, total) => options.onProgress?.(done, total),
      });
      rows = run.rows;
      times = run;
    } finally {
      await mock.close();
    }
    const scopes = rows
      .filter((row) => row.request.operation === plan.setup?.operation.operationId && row.real.answer.status < 300)
      .map((row) => `${plan.prefix}${row.request.index}`);
    const random = buildRandomReport([
      {
        release: `${base} (${drift.versions.server ?? "no version"})`,
        seed,
        k,
        operations: new Set(slots.map((s) => s.operation.operationId)).size,
        rows,
        ...times,
      },
    ]);
    const floors = { codeRatio: minAgreement };
    const below =
      random.overall.codeRatio < minAgreement
        ? [`status+code agreement ${random.overall.codeRatio.toFixed(4)} is below ${minAgreement}`]
        : [];
    const reason = stop.signal.reason;
    const result: VerifyResult = {
      server: base,
      seed,
      k,
      readOnly,
      inference,
      drift,
      random,
      cases: verifyCases(drift, rows),
      floors,
      below,
      passed: below.length === 0 && reason !== "interrupted",
      stopped: reason === "timeout" || reason === "interrupted" ? reason : null,
      scopes,
      seconds: (performance.now() - started) / 1000,
    };
    return redactJson(result, secrets) as VerifyResult;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", interrupt);
  }
}
