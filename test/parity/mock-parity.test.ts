// Cross-language parity against the embedded mock server: the released Python
// PowerContextClient and our SDK run the same scenario, each against its own mock server
// started with the same seed, clock and setup, so both see the same state, ids and
// request ids. For the operations both clients have, their outcomes must agree (Memory is
// on the release's Atomic Memory records on both sides). A step may still name a deliberate
// difference with pythonRefuses (the Python client refuses, our SDK accepts).
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pythonTools, repoRoot, requireTools, suiteName, tryImport, venvBin } from "../real/tools.js";
import { camelCase } from "../real/raw-call.js";
import type { SdkError, SdkModule } from "./sdk-shape.js";

const run = promisify(execFile);
const enabled = requireTools(suiteName(import.meta.url), pythonTools());

const SEED = 7;
const BLOCKED_SCOPE = "scope-parity-blocked";
const SCOPE = "scope-parity";

interface Step {
  readonly name: string;
  readonly operation: string;
  /** bearer token (the mock's defaults: pc-admin, pc-writer, pc-reader); null: none */
  readonly token: string | null;
  readonly request: Record<string, unknown> | null;
  /** what both clients must produce */
  readonly expect: {
    readonly outcome: "success" | "ServerResponseError";
    readonly status_code?: number;
    readonly code?: string;
  };
  /**
   * Set where our contract keeps a 0.0.2 shape that 1.4.1 changed: the SDK must produce
   * `expect`, the Python client InvalidResponseError with the same request id.
   */
  readonly pythonRefuses?: string;
}

function scenario(blockId: string): Step[] {
  const ok = { outcome: "success" } as const;
  const failed = (status_code: number, code: string) =>
    ({ outcome: "ServerResponseError", status_code, code }) as const;
  return [
    { name: "liveness", operation: "get_liveness", token: null, request: null, expect: ok },
    { name: "readiness", operation: "get_readiness", token: null, request: null, expect: ok },
    { name: "capabilities", operation: "get_capabilities", token: "pc-reader", request: null, expect: ok },
    {
      name: "capabilities-anonymous",
      operation: "get_capabilities",
      token: null,
      request: null,
      expect: failed(401, "unauthorized"),
    },
    {
      name: "capture",
      operation: "capture_content_source",
      token: "pc-writer",
      request: { scope_id: SCOPE, source_id: "src-parity-1", content: "Deploys are frozen on Fridays." },
      expect: ok,
    },
    {
      name: "capture-again",
      operation: "capture_content_source",
      token: "pc-writer",
      request: { scope_id: SCOPE, source_id: "src-parity-2", content: "Hotfixes need two reviewers." },
      expect: ok,
    },
    {
      name: "capture-reader-forbidden",
      operation: "capture_content_source",
      token: "pc-reader",
      request: { scope_id: SCOPE, source_id: "src-parity-3", content: "Not allowed." },
      expect: failed(403, "forbidden"),
    },
    { name: "flush", operation: "flush_memory", token: "pc-writer", request: { scope_id: SCOPE }, expect: ok },
    { name: "flush-idle", operation: "flush_memory", token: "pc-writer", request: { scope_id: SCOPE }, expect: ok },
    {
      name: "flush-reader-forbidden",
      operation: "flush_memory",
      token: "pc-reader",
      request: { scope_id: SCOPE },
      expect: failed(403, "forbidden"),
    },
    {
      name: "remember",
      operation: "remember_memory",
      token: "pc-writer",
      request: { scope_id: SCOPE, kind: "fact", text: "Friday deploys need an exception." },
      expect: ok,
    },
    {
      name: "search",
      operation: "search_memory",
      token: "pc-reader",
      request: { scope_id: SCOPE, query: "deploys" },
      expect: ok,
    },
    { name: "list", operation: "list_memory_entries", token: "pc-reader", request: { scope_id: SCOPE }, expect: ok },
    {
      name: "topic-status-idle",
      operation: "get_topic_memory_processing_status",
      token: "pc-reader",
      request: { scope_id: SCOPE },
      expect: ok,
    },
    {
      name: "topic-status-blocked",
      operation: "get_topic_memory_processing_status",
      token: "pc-reader",
      request: { scope_id: BLOCKED_SCOPE },
      expect: ok,
    },
    {
      name: "topic-block",
      operation: "get_topic_memory_processing_block",
      token: "pc-reader",
      request: { scope_id: BLOCKED_SCOPE, block_id: blockId },
      expect: ok,
    },
    {
      name: "topic-block-unknown",
      operation: "get_topic_memory_processing_block",
      token: "pc-reader",
      request: { scope_id: BLOCKED_SCOPE, block_id: "blk-parity-unknown" },
      // our contract's code; 1.4.1 says topic_memory_block_not_found (docs/compatibility.md, "Error codes")
      expect: failed(404, "topic_memory_block_not_found"),
    },
    {
      name: "topic-retry-reader-forbidden",
      operation: "retry_topic_memory_processing",
      token: "pc-reader",
      request: { scope_id: BLOCKED_SCOPE, block_id: blockId },
      expect: failed(403, "forbidden"),
    },
    {
      name: "topic-retry",
      operation: "retry_topic_memory_processing",
      token: "pc-admin",
      request: { scope_id: BLOCKED_SCOPE, block_id: blockId },
      expect: ok,
    },
    {
      name: "topic-retry-replay",
      operation: "retry_topic_memory_processing",
      token: "pc-admin",
      request: { scope_id: BLOCKED_SCOPE, block_id: blockId },
      expect: ok,
    },
    {
      name: "topic-block-receipt",
      operation: "get_topic_memory_processing_block",
      token: "pc-reader",
      request: { scope_id: BLOCKED_SCOPE, block_id: blockId },
      expect: ok,
    },
  ];
}

/** One outcome, in the Python client's terms. */
interface Outcome {
  vector: string;
  outcome: string;
  status_code?: number;
  code?: string | null;
  message?: string | null;
  details?: unknown;
  request_id?: string | null;
  result?: unknown;
}

interface Simulator {
  handle(operationId: string, request: { token?: string | null; body?: unknown }): { status?: number };
  readonly controls: { exhaustTopicBudget(scopeId: string): void };
  readonly inspect: { blocks(scopeId?: string): { block_id: string }[] };
}
interface MockServer {
  readonly url: string;
  readonly simulator: Simulator;
  close(): Promise<void>;
}
interface MswModule {
  startMockServer(options: {
    port: number;
    seed: number;
    simulatorOptions: { clock: unknown; scopes?: string[] };
  }): Promise<MockServer>;
  ManualClock: new () => unknown;
}

/** Same seed, a manual clock and the same in-process setup: a Topic Memory block in BLOCKED_SCOPE. */
async function startPreparedMock(msw: MswModule): Promise<{ mock: MockServer; blockId: string }> {
  const mock = await msw.startMockServer({
    port: 0,
    seed: SEED,
    simulatorOptions: { clock: new msw.ManualClock(), scopes: [SCOPE, BLOCKED_SCOPE] },
  });
  for (const [i, content] of ["Builds run on every push.", "Release notes are drafted on Thursdays."].entries()) {
    const answer = mock.simulator.handle("capture_content_source", {
      token: "pc-admin",
      body: { scope_id: BLOCKED_SCOPE, source_id: `src-blocked-${i + 1}`, content },
    });
    expect(answer.status).toBe(202);
  }
  mock.simulator.controls.exhaustTopicBudget(BLOCKED_SCOPE);
  const blocks = mock.simulator.inspect.blocks(BLOCKED_SCOPE);
  expect(blocks).toHaveLength(1);
  return { mock, blockId: blocks[0]!.block_id };
}

/** Timestamps compared as instants (the two clients render fractions of a second differently). */
function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => [k, normalize(v)]),
    );
  }
  if (typeof value === "string" && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(value)) {
    return new Date(value).toISOString();
  }
  return value;
}

describe.skipIf(!enabled)("parity with the Python PowerContextClient 1.4.1 against the embedded mock server", () => {
  let msw: MswModule | null = null;
  let sdk: SdkModule | null = null;
  let python: Outcome[] = [];
  let steps: Step[] = [];
  let workDir = "";

  beforeAll(async () => {
    const loadedMsw = await tryImport<MswModule>("@powercontext/msw/server");
    const loadedSdk = await tryImport<SdkModule>("@powercontext/sdk");
    if (!loadedMsw.module || !loadedSdk.module) {
      requireTools("mock parity", { ok: false, missing: `${loadedMsw.error || loadedSdk.error}` });
      return;
    }
    msw = loadedMsw.module;
    sdk = loadedSdk.module;
    const { mock, blockId } = await startPreparedMock(msw);
    steps = scenario(blockId);
    workDir = await mkdtemp(join(tmpdir(), "mock-parity-"));
    const stepsFile = join(workDir, "steps.json");
    await writeFile(
      stepsFile,
      JSON.stringify(steps.map(({ name, operation, token, request }) => ({ name, operation, token, request }))),
    );
    try {
      const { stdout } = await run(
        venvBin("python"),
        [fileURLToPath(new URL("./run_python.py", import.meta.url)), "--steps", stepsFile, "--base-url", mock.url],
        { cwd: repoRoot, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      );
      python = JSON.parse(stdout) as Outcome[];
    } finally {
      await mock.close();
    }
  }, 180_000);

  afterAll(async () => {
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it("our SDK and the Python client agree on every step", async (ctx) => {
    if (!msw || !sdk) return ctx.skip();
    const m = sdk;
    const { mock, blockId } = await startPreparedMock(msw);
    expect(scenario(blockId)).toEqual(steps);
    const ours: Outcome[] = [];
    try {
      for (const step of steps) {
        const client = new m.PowerContextClient({
          baseUrl: mock.url,
          token: step.token ?? undefined,
          timeoutMs: 5_000,
          maxRetries: 0,
        });
        const method = client[camelCase(step.operation)]!;
        try {
          const result = await (step.request === null ? method.call(client) : method.call(client, step.request));
          ours.push({ vector: step.name, outcome: "success", result });
        } catch (error) {
          const e = error as SdkError;
          const base =
            error instanceof m.ServerResponseError
              ? "ServerResponseError"
              : error instanceof m.InvalidResponseError
                ? "InvalidResponseError"
                : error instanceof m.TransportError
                  ? "TransportError"
                  : `unexpected ${e?.name}: ${e?.message}`;
          const outcome: Outcome = { vector: step.name, outcome: base, request_id: e?.requestId ?? null };
          if (base === "ServerResponseError") {
            Object.assign(outcome, {
              status_code: e.statusCode,
              code: e.code ?? null,
              message: e.serverMessage ?? null,
              details: e.details ?? null,
            });
          }
          ours.push(outcome);
        }
      }
    } finally {
      await mock.close();
    }

    expect(python.map((o) => o.vector)).toEqual(steps.map((s) => s.name));
    console.log(
      steps
        .map(
          (s, i) =>
            `${s.name}: sdk ${ours[i]!.outcome}${ours[i]!.status_code ? ` ${ours[i]!.status_code}` : ""}, python ${python[i]!.outcome}${python[i]!.status_code ? ` ${python[i]!.status_code}` : ""}`,
        )
        .join("\n"),
    );
    const problems: string[] = [];
    for (const [i, step] of steps.entries()) {
      const a = ours[i]!;
      const p = python[i]!;
      const want = step.expect;
      const sides: [string, Outcome][] = step.pythonRefuses
        ? [["sdk", a]]
        : [
            ["sdk", a],
            ["python", p],
          ];
      for (const [side, o] of sides) {
        if (
          o.outcome !== want.outcome ||
          (want.status_code !== undefined && o.status_code !== want.status_code) ||
          (want.code !== undefined && o.code !== want.code)
        ) {
          problems.push(
            `${step.name}: ${side} expected ${want.outcome} ${want.status_code ?? ""} ${want.code ?? ""}, got ${JSON.stringify(o).slice(0, 300)}`,
          );
        }
      }
      if (step.pythonRefuses) {
        if (p.outcome !== "InvalidResponseError" || !/^req_/.test(p.request_id ?? "")) {
          problems.push(
            `${step.name}: python expected InvalidResponseError with the mock's request id (${step.pythonRefuses}), got ${JSON.stringify(p).slice(0, 300)}`,
          );
        }
        continue;
      }
      for (const key of ["outcome", "status_code", "code", "message", "details", "request_id"] as const) {
        if (a.outcome === "success" && key === "request_id") continue;
        if (JSON.stringify(a[key] ?? null) !== JSON.stringify(p[key] ?? null)) {
          problems.push(
            `${step.name}: ${key} differs: python ${JSON.stringify(p[key])}, sdk ${JSON.stringify(a[key])}`,
          );
        }
      }
      if (
        a.outcome === "success" &&
        p.outcome === "success" &&
        JSON.stringify(normalize(a.result)) !== JSON.stringify(normalize(p.result))
      ) {
        problems.push(
          `${step.name}: result differs:\n  python ${JSON.stringify(normalize(p.result))}\n  sdk    ${JSON.stringify(normalize(a.result))}`,
        );
      }
    }
    expect(problems, problems.join("\n")).toEqual([]);
  }, 180_000);
});
