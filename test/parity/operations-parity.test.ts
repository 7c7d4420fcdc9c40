// Parity of background Operations (flush_memory's 202 and polling, 409 operation_blocked, the
// Operation API) between our TypeScript SDK and our Python client (python/, on top of the
// released PowerContextClient 1.4.1). Each vector in operation-vectors/ is run twice, each
// time against a fresh embedded mock server with the same seed and setup: once with the SDK
// here, once with test/parity/run_operations_python.py. Every step must give the same
// outcome on both sides (class, status, error code, operation id, result) and match the
// vector's expectation.
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import * as sdk from "@powercontext/sdk";
import { startMockServer, type MockServer } from "@powercontext/msw/server";
import { pythonTools, repoRoot, requireTools, suiteName, venvBin } from "../real/tools.js";

const run = promisify(execFile);
const enabled = requireTools(suiteName(import.meta.url), pythonTools());
const SEED = 11;
const vectorsDir = fileURLToPath(new URL("./operation-vectors/", import.meta.url));

interface Step {
  readonly name: string;
  readonly call:
    | "flush_memory"
    | "wait_for_operation"
    | "get_operation"
    | "list_operations"
    | "cancel_operation"
    | "retry_operation";
  readonly token: string | null;
  readonly args: Record<string, unknown>;
  readonly expect: { readonly outcome: string; readonly status_code?: number; readonly code?: string };
}
interface Vector {
  readonly name: string;
  readonly setup: {
    readonly sources?: { scope_id: string; source_id: string; content: string }[];
    readonly flush_timing?: Record<string, number>;
    readonly fail_next_flush_attempts?: number;
  };
  readonly steps: readonly Step[];
}
interface Outcome {
  step: string;
  outcome: string;
  status_code?: number;
  code?: string | null;
  operation_id?: string | null;
  result?: unknown;
}

const vectorFiles = readdirSync(vectorsDir)
  .filter((f) => f.endsWith(".json"))
  .sort();
const vectors: Vector[] = vectorFiles.map((f) => JSON.parse(readFileSync(join(vectorsDir, f), "utf8")) as Vector);

async function prepared(vector: Vector): Promise<MockServer> {
  // The Scopes the vector names exist from the start, as on a server where they were created.
  const named = [...(vector.setup.sources ?? []).map((s) => s.scope_id), ...vector.steps.map((s) => s.args.scope_id)];
  const scopes = [...new Set(named.filter((id): id is string => typeof id === "string"))];
  const mock = await startMockServer({ port: 0, seed: SEED, simulatorOptions: { scopes } });
  // Topic Memory attempts run on the wall clock and draw ids from the seeded random: off, so
  // that both runs draw the same ids however long each waited before its first request
  mock.simulator.controls.setProcessingEnabled(false);
  for (const source of vector.setup.sources ?? []) {
    const answer = mock.simulator.handle("capture_content_source", { token: "pc-admin", body: source });
    if (answer.status !== 202) throw new Error(`setup capture answered ${answer.status}`);
  }
  if (vector.setup.flush_timing) mock.simulator.controls.setFlushTiming(vector.setup.flush_timing);
  if (vector.setup.fail_next_flush_attempts)
    mock.simulator.controls.failNextFlushAttempts(vector.setup.fail_next_flush_attempts);
  return mock;
}

function resolve(value: unknown, outcomes: Map<string, Outcome>): unknown {
  if (typeof value === "string" && value.startsWith("$")) {
    const [step, ...path] = value.slice(1).split(".");
    return path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], outcomes.get(step!));
  }
  if (value && typeof value === "object" && !Array.isArray(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, outcomes)]));
  }
  return value;
}

async function callSdk(client: sdk.PowerContextClient, step: Step, args: Record<string, unknown>): Promise<unknown> {
  const s = (key: string) => (args[key] as number) * 1000;
  switch (step.call) {
    case "flush_memory":
      return client.flushMemory(args.request as never, { deadlineMs: s("deadline_s") });
    case "wait_for_operation":
      return client.waitForOperation(args.operation_id as string, { deadlineMs: s("deadline_s") });
    case "get_operation":
      return client.getOperation({ operation_id: args.operation_id } as never);
    case "list_operations":
      return client.listOperations(args as never);
    case "cancel_operation":
      return client.cancelOperation(args as never);
    case "retry_operation":
      return client.retryOperation(args as never);
  }
}

function outcomeOf(step: string, error: unknown): Outcome {
  if (error instanceof sdk.OperationBlockedError)
    return {
      step,
      outcome: "ServerResponseError",
      status_code: error.statusCode,
      code: error.code,
      operation_id: error.operationId,
    };
  if (error instanceof sdk.ServerResponseError)
    return { step, outcome: "ServerResponseError", status_code: error.statusCode, code: error.code };
  if (error instanceof sdk.OperationPendingError)
    return { step, outcome: "OperationPendingError", operation_id: error.operationId };
  if (error instanceof sdk.OperationFailedError)
    return { step, outcome: "OperationFailedError", operation_id: error.operationId, code: error.error.code };
  if (error instanceof sdk.OperationCancelledError)
    return { step, outcome: "OperationCancelledError", operation_id: error.operationId };
  if (error instanceof sdk.InvalidResponseError) return { step, outcome: "InvalidResponseError" };
  if (error instanceof sdk.TransportError) return { step, outcome: "TransportError" };
  throw error;
}

async function runSdk(vector: Vector): Promise<Outcome[]> {
  const mock = await prepared(vector);
  const outcomes = new Map<string, Outcome>();
  try {
    for (const step of vector.steps) {
      const args = resolve(step.args, outcomes) as Record<string, unknown>;
      const client = new sdk.PowerContextClient({
        baseUrl: mock.url,
        token: step.token ?? undefined,
        timeoutMs: 5_000,
        maxRetries: 0,
      });
      let outcome: Outcome;
      try {
        const result = await callSdk(client, step, args);
        outcome = { step: step.name, outcome: "success", result };
        const id = (result as Record<string, unknown> | null)?.operation_id;
        if (typeof id === "string") outcome.operation_id = id;
      } catch (error) {
        outcome = outcomeOf(step.name, error);
      }
      outcomes.set(step.name, outcome);
    }
  } finally {
    await mock.close();
  }
  return [...outcomes.values()];
}

/** Every vector with the Python client in one process, each against its own prepared mock server. */
async function runPython(): Promise<Record<string, Outcome[]>> {
  const mocks: MockServer[] = [];
  try {
    const args = [fileURLToPath(new URL("./run_operations_python.py", import.meta.url))];
    for (const vector of vectors) {
      const mock = await prepared(vector);
      mocks.push(mock);
      args.push("--run", join(vectorsDir, `${vector.name}.json`), mock.url);
    }
    const { stdout } = await run(venvBin("python"), args, {
      cwd: repoRoot,
      timeout: 170_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return JSON.parse(stdout) as Record<string, Outcome[]>;
  } finally {
    await Promise.all(mocks.map((m) => m.close()));
  }
}

/** Instants are the mock's wall clock, which differs between the two runs: compared as present, not by value. */
function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => [k, normalize(v)]),
    );
  }
  if (typeof value === "string" && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(value))
    return "<instant>";
  return value;
}

function compared(o: Outcome): Outcome {
  return normalize({
    ...o,
    code: o.code ?? null,
    operation_id: o.operation_id ?? null,
    result: o.result ?? null,
  }) as Outcome;
}

describe.skipIf(!enabled)("Operation parity: our SDK and our Python client against the embedded mock server", () => {
  let pythonRuns: Record<string, Outcome[]> = {};
  beforeAll(async () => {
    pythonRuns = await runPython();
  }, 180_000);

  it("has vectors", () => {
    expect(vectors.length).toBeGreaterThanOrEqual(6);
    expect(vectorFiles).toEqual(vectors.map((v) => `${v.name}.json`));
  });

  for (const vector of vectors) {
    it(`${vector.name}: every step agrees`, async () => {
      const ours = await runSdk(vector);
      const python = pythonRuns[vector.name] ?? [];
      console.log(
        `${vector.name}: ${vector.steps.map((s, i) => `${s.name} sdk ${ours[i]?.outcome} / python ${python[i]?.outcome}`).join("; ")}`,
      );
      expect(python.map((o) => o.step)).toEqual(vector.steps.map((s) => s.name));
      const problems: string[] = [];
      for (const [i, step] of vector.steps.entries()) {
        const a = compared(ours[i]!);
        const p = compared(python[i]!);
        for (const [side, o] of [
          ["sdk", a],
          ["python", p],
        ] as const) {
          const want = step.expect;
          if (
            o.outcome !== want.outcome ||
            (want.status_code !== undefined && o.status_code !== want.status_code) ||
            (want.code !== undefined && o.code !== want.code)
          ) {
            problems.push(
              `${step.name}: ${side} expected ${JSON.stringify(want)}, got ${JSON.stringify(o).slice(0, 300)}`,
            );
          }
        }
        if (JSON.stringify(a) !== JSON.stringify(p))
          problems.push(
            `${step.name}: sdk ${JSON.stringify(a).slice(0, 400)}\n   python ${JSON.stringify(p).slice(0, 400)}`,
          );
      }
      expect(problems, problems.join("\n")).toEqual([]);
    }, 120_000);
  }
});
