// Cross-language parity: the released Python PowerContextClient and our SDK run the
// same vectors against the same scripted loopback server; their outcomes must agree
// with each other and with each vector's expectation.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pythonTools, repoRoot, requireTools, suiteName, tryImport, venvBin } from "../real/tools.js";
import { camelCase } from "../real/raw-call.js";
import {
  loadVectors,
  startScriptedServer,
  type ParityVector,
  type ReceivedRequest,
  type ScriptedServer,
} from "./scripted-server.js";
import type { SdkError, SdkModule } from "./sdk-shape.js";

const run = promisify(execFile);
const enabled = requireTools(suiteName(import.meta.url), pythonTools());
const vectors = loadVectors();
const TOKEN = "parity-token";

/** One outcome, in the Python client's terms (snake_case fields). */
interface Outcome {
  vector: string;
  outcome: string;
  error_class?: string;
  status_code?: number;
  code?: string | null;
  message?: string | null;
  details?: unknown;
  request_id?: string | null;
  result?: Record<string, unknown>;
}

/**
 * Client options for the TS side. Retries are turned off so that a scripted 502/503 or a
 * closed connection yields one attempt, as with the Python client (which never retries).
 */
function sdkOptions(baseUrl: string, token: string | undefined = TOKEN): Record<string, unknown> {
  return { baseUrl, token, timeoutMs: 5_000, maxRetries: 0 };
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function compareOutcome(vector: ParityVector, actual: Outcome, side: string): string[] {
  const problems: string[] = [];
  for (const [key, wanted] of Object.entries(vector.expect)) {
    if (key === "result") {
      for (const [field, value] of Object.entries(wanted as Record<string, unknown>)) {
        const got = actual.result?.[field];
        if (JSON.stringify(got) !== JSON.stringify(value))
          problems.push(`${side} result.${field}: expected ${JSON.stringify(value)}, got ${JSON.stringify(got)}`);
      }
    } else if (key === "request_id" && actual.outcome === "success") {
    } else if (JSON.stringify((actual as unknown as Record<string, unknown>)[key] ?? null) !== JSON.stringify(wanted)) {
      problems.push(
        `${side} ${key}: expected ${JSON.stringify(wanted)}, got ${JSON.stringify((actual as unknown as Record<string, unknown>)[key])}`,
      );
    }
  }
  return problems;
}

describe.skipIf(!enabled)("parity with the Python PowerContextClient 1.4.1", () => {
  let server: ScriptedServer;
  let python: Outcome[] = [];
  const pythonRequests = new Map<string, readonly ReceivedRequest[]>();

  beforeAll(async () => {
    server = await startScriptedServer(vectors);
    const { stdout } = await run(
      venvBin("python"),
      [fileURLToPath(new URL("./run_python.py", import.meta.url)), "--base-url", server.baseUrl, "--json"],
      { cwd: repoRoot, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
    );
    python = JSON.parse(stdout) as Outcome[];
    for (const v of vectors) pythonRequests.set(v.name, server.received(v.name));
    server.reset();
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  it("the Python client meets every vector's expectation", () => {
    expect(python.map((o) => o.vector)).toEqual(vectors.map((v) => v.name));
    const problems = vectors.flatMap((v, i) => compareOutcome(v, python[i]!, "python").map((p) => `${v.name}: ${p}`));
    console.log(
      python
        .map(
          (o) =>
            `python ${o.vector}: ${o.outcome}${o.status_code ? ` ${o.status_code}` : ""}${o.code ? ` ${o.code}` : ""}`,
        )
        .join("\n"),
    );
    expect(problems, problems.join("\n")).toEqual([]);
    for (const v of vectors) {
      expect(pythonRequests.get(v.name)?.length, `${v.name}: the Python client sends exactly one request`).toBe(1);
    }
  });

  it("our SDK produces the same outcome and sends the same request as the Python client", async (ctx) => {
    const loaded = await tryImport<SdkModule>("@powercontext/sdk");
    if (!loaded.module) {
      requireTools("parity through the SDK", { ok: false, missing: `${loaded.error} (run: npm start)` });
      return ctx.skip();
    }
    const sdk = loaded.module;
    const problems: string[] = [];
    const known: string[] = [];
    for (const [i, vector] of vectors.entries()) {
      const outcomeProblems: string[] = [];
      const client = new sdk.PowerContextClient(sdkOptions(server.urlFor(vector.name)));
      const method = client[camelCase(vector.operation)];
      if (typeof method !== "function") {
        problems.push(`${vector.name}: the SDK has no method ${camelCase(vector.operation)}`);
        continue;
      }
      let outcome: Outcome;
      try {
        const result = await (vector.request === null ? method.call(client) : method.call(client, vector.request));
        outcome = {
          vector: vector.name,
          outcome: "success",
          request_id: null,
          result: result as Record<string, unknown>,
        };
      } catch (error) {
        const e = error as SdkError;
        const base =
          error instanceof sdk.ServerResponseError
            ? "ServerResponseError"
            : error instanceof sdk.InvalidResponseError
              ? "InvalidResponseError"
              : error instanceof sdk.TransportError
                ? "TransportError"
                : `unexpected ${e?.name}: ${e?.message}`;
        outcome = { vector: vector.name, outcome: base, error_class: e?.name, request_id: e?.requestId ?? null };
        if (base === "ServerResponseError") {
          Object.assign(outcome, {
            status_code: e.statusCode,
            code: e.code ?? null,
            message: e.serverMessage ?? null,
            details: e.details ?? null,
          });
        }
      }
      outcomeProblems.push(...compareOutcome(vector, outcome, "sdk").map((p) => `${vector.name}: ${p}`));
      const py = python[i]!;
      for (const key of ["outcome", "status_code", "code", "message", "details", "request_id"] as const) {
        if (outcome.outcome === "success" && key === "request_id") continue;
        if (JSON.stringify(outcome[key] ?? null) !== JSON.stringify(py[key] ?? null)) {
          outcomeProblems.push(
            `${vector.name}: ${key} differs: python ${JSON.stringify(py[key])}, sdk ${JSON.stringify(outcome[key])}`,
          );
        }
      }
      if (vector.sdk_difference === undefined) problems.push(...outcomeProblems);
      else if (outcomeProblems.length === 0) {
        problems.push(`${vector.name}: the SDK now matches the Python client; remove "sdk_difference" from the vector`);
      } else {
        known.push(`${vector.name} (${vector.sdk_difference}): python ${py.outcome}, sdk ${outcome.outcome}`);
      }
      const mine = server.received(vector.name);
      const theirs = pythonRequests.get(vector.name) ?? [];
      if (mine.length !== 1 || theirs.length !== 1) {
        problems.push(`${vector.name}: requests sent: python ${theirs.length}, sdk ${mine.length}`);
      } else {
        const a = theirs[0]!;
        const b = mine[0]!;
        if (a.method !== b.method || a.path !== b.path || a.authorization !== b.authorization) {
          problems.push(
            `${vector.name}: request line differs: python ${a.method} ${a.path} (${a.authorization}), sdk ${b.method} ${b.path} (${b.authorization})`,
          );
        }
        const body = (text: string) => (text ? canonical(JSON.parse(text)) : "");
        if (body(a.body) !== body(b.body))
          problems.push(`${vector.name}: request body differs: python ${a.body}, sdk ${b.body}`);
      }
    }
    if (known.length)
      console.warn(`KNOWN SDK DIFFERENCES from the Python client (${known.length}):\n  ${known.join("\n  ")}`);
    expect(problems, problems.join("\n")).toEqual([]);
  }, 180_000);
});
