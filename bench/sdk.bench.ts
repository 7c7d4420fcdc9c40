/**
 * SDK benchmark (`npm run bench:sdk`). Not a test: it prints numbers.
 *
 * Throughput against a loopback keep-alive node:http server in this process,
 * for a small GET (get_liveness) and a 100-hit search_memory response:
 * raw undici.request, raw fetch (global and undici with a keep-alive Agent),
 * openapi-fetch, and PowerContextClient with response validation, every one
 * sending the same headers (a bearer token and Accept). Prints the
 * median ops/s of several rounds and the ratios the SDK is held to, each the
 * median of per-round ratios: ours / the raw fetch it sits on (target >= 0.9)
 * and ours / openapi-fetch (target >= 1.0). A fourth contender, raw fetch plus
 * only a closing per-request timeout and the checks every success body must
 * pass, shows the ceiling those requirements leave any client on this transport.
 *
 * Then the bundle size (esbuild, minify, gzip) of an app calling one
 * operation without validators (target <= 6 kB) and of the whole client.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { existsSync } from "node:fs";
import { Agent, fetch as undiciFetch, request as undiciRequest } from "undici";
import createOpenApiClient from "openapi-fetch";
import { build } from "esbuild";

const SDK_SRC = fileURLToPath(new URL("../packages/sdk/src/", import.meta.url));
const RUNTIME_ENTRY = fileURLToPath(new URL("../packages/runtime/src/index.ts", import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 11);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const TOKEN = "pc-bench-token";

// ---------------------------------------------------------------- server
const liveness = JSON.stringify({ status: "ok" });
const search = JSON.stringify({
  memory: { family: "memory", artifact_id: "mem_1", revision: 3 },
  mode: "fts",
  hits: Array.from({ length: 100 }, (_, i) => ({
    citation: { memory_ref: { family: "memory", artifact_id: "mem_1", revision: 3 }, entry_id: `ent_${i}`, entry_version_id: `ver_${i}` },
    text: `Decision ${i}: keep the Cursor window strictly ordered per Scope; retries reuse the original receipt.`,
    score: 1 - i / 200,
    matched_by: ["fts"],
  })),
});

function handle(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const body = req.url === "/health/live" ? liveness : search;
    res.writeHead(200, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      "x-powercontext-request-id": "req-bench",
    });
    res.end(body);
  });
}

// ---------------------------------------------------------------- measuring
type Call = () => Promise<unknown>;

async function opsPerSecond(call: Call): Promise<number> {
  let done = 0;
  const until = performance.now() + ROUND_MS;
  const worker = async (): Promise<void> => {
    while (performance.now() < until) {
      await call();
      done += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return (done * 1000) / (performance.now() - started);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Per-round samples of each contender; round i of every contender ran back to back. */
type Samples = Record<string, number[]>;

async function compare(label: string, contenders: Record<string, Call>): Promise<Samples> {
  const samples: Samples = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
  for (const call of Object.values(contenders)) for (let i = 0; i < 200; i += 1) await call(); // warm up
  for (let round = 0; round < ROUNDS; round += 1) {
    const names = Object.keys(contenders);
    const order = round % 2 === 0 ? names : names.reverse();
    for (const name of order) samples[name]?.push(await opsPerSecond(contenders[name] as Call));
  }
  console.log(`\n${label} (median of ${ROUNDS} rounds x ${ROUND_MS} ms, ${CONCURRENCY} in flight)`);
  for (const [name, values] of Object.entries(samples)) console.log(`  ${name.padEnd(34)} ${median(values).toFixed(0).padStart(8)} ops/s`);
  return samples;
}

/**
 * Prints the median of the per-round ratios ours/theirs. Both ran in the same
 * round, one right after the other, so a change in machine load between
 * rounds cancels out of each ratio.
 */
function ratio(label: string, ours: number[] | undefined, theirs: number[] | undefined, target: number | string): void {
  if (ours === undefined || theirs === undefined) return;
  const value = median(ours.map((sample, round) => sample / (theirs[round] as number)));
  const verdict = typeof target === "string" ? `(${target})` : `(target >= ${target.toFixed(1)}x) ${value >= target ? "ok" : "BELOW"}`;
  console.log(`  ${label.padEnd(48)} ${value.toFixed(3)}x  ${verdict}`);
}

// ---------------------------------------------------------------- bundle size
async function gzipSize(contents: string): Promise<number> {
  const result = await build({
    stdin: { contents, resolveDir: SDK_SRC, loader: "ts" },
    // The runtime's sources, as an app's bundler would see its published build.
    alias: { "@powercontext/runtime": RUNTIME_ENTRY },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  return gzipSync(result.outputFiles[0]?.contents ?? new Uint8Array(), { level: 9 }).byteLength;
}

// ---------------------------------------------------------------- main
async function main(): Promise<void> {
  const server = createServer({ keepAlive: true, keepAliveTimeout: 30_000 }, handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: CONCURRENCY });
  const agentFetch = ((url: string, init: RequestInit) =>
    undiciFetch(url, { ...(init as object), dispatcher: agent })) as unknown as typeof fetch;

  const generated = existsSync(`${SDK_SRC}generated/operations.ts`);
  const searchRequest = { scope_id: "scope-bench", query: "cursor ordering" };
  // Every contender sends what the client sends, so the ratios measure the client, not a
  // difference in the requests: a bearer token (every real call has one) and Accept.
  const getHeaders = { accept: "application/json", authorization: `Bearer ${TOKEN}` };
  const postHeaders = { ...getHeaders, "content-type": "application/json" };

  // Raw fetch plus only what DESIGN §2 asks of every call: a per-request timeout that closes the
  // exchange (an AbortSignal), and the checks of every success body (strict JSON with the
  // unsafe-integer and lone-surrogate rules, then the generated schema validator). The best
  // throughput any client that does both can reach on this transport.
  let checked: { live: Call; search: Call } | null = null;
  let oursGlobal: { live: Call; search: Call };
  let oursAgent: { live: Call; search: Call };
  if (generated) {
    const sdk = await import("../packages/sdk/src/index.js");
    const withGlobal = new sdk.PowerContextClient({ baseUrl: origin, token: TOKEN, fetch: globalThis.fetch, maxRetries: 0 });
    const withAgent = new sdk.PowerContextClient({ baseUrl: origin, token: TOKEN, fetch: agentFetch as never, maxRetries: 0 });
    oursGlobal = { live: () => withGlobal.getLiveness(), search: () => withGlobal.searchMemory(searchRequest) };
    oursAgent = { live: () => withAgent.getLiveness(), search: () => withAgent.searchMemory(searchRequest) };
    const { parseJson } = await import("../packages/runtime/src/transport/parse-json.js");
    const { validatorMap } = await import("../packages/sdk/src/generated/validator-map.js");
    const validate = (operationId: "get_liveness" | "search_memory", text: string): unknown => {
      const data = parseJson(text, { statusCode: 200, requestId: null });
      const validator = validatorMap[operationId]?.responses[200];
      if (validator === undefined || !validator(data, text)) throw new Error(`${operationId}: body does not match the schema`);
      return data;
    };
    const withTimeout = async (url: string, init: RequestInit): Promise<string> => {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), 10_000);
      try {
        return await (await fetch(url, { ...init, signal: controller.signal })).text();
      } finally {
        clearTimeout(timer);
      }
    };
    checked = {
      live: async () => validate("get_liveness", await withTimeout(`${origin}/health/live`, { headers: getHeaders })),
      search: async () =>
        validate(
          "search_memory",
          await withTimeout(`${origin}/v1/memory/search`, { method: "POST", body: JSON.stringify(searchRequest), headers: postHeaders }),
        ),
    };
  } else {
    console.log("packages/sdk/src/generated is missing: measuring the runtime core with inline descriptors and NO validation.");
    const base = { methodName: "", requestLocation: null, pathParameters: [], queryParameters: [], successStatus: 200, errorStatuses: [], scope: false, retryClass: "safe", permission: null, summary: "", requestSchema: null, responseSchema: null, async: null, reconcile: null, pagination: null } as const;
    const live = { ...base, operationId: "get_liveness", method: "GET", path: "/health/live" } as const;
    const find = { ...base, operationId: "search_memory", method: "POST", path: "/v1/memory/search", requestLocation: "body" } as const;
    const { createRuntime } = await import("../packages/runtime/src/core/runtime.js");
    const { runOperation } = await import("../packages/runtime/src/core/run-operation.js");
    const make = (fetchFn: typeof fetch) => {
      const runtime = createRuntime({ baseUrl: origin, token: TOKEN, fetch: fetchFn as never, maxRetries: 0 });
      return { live: () => runOperation(runtime, live, undefined), search: () => runOperation(runtime, find, searchRequest) };
    };
    oursGlobal = make(globalThis.fetch);
    oursAgent = make(agentFetch);
  }

  const openapi = createOpenApiClient<Record<string, never>>({ baseUrl: origin, headers: getHeaders });
  const untyped = openapi as unknown as {
    GET(path: string): Promise<{ data?: unknown }>;
    POST(path: string, init: { body: unknown }): Promise<{ data?: unknown }>;
  };

  const small = await compare("get_liveness: GET, 15-byte body", {
    "raw undici.request (Agent)": async () =>
      (await undiciRequest(`${origin}/health/live`, { headers: getHeaders, dispatcher: agent })).body.json(),
    "raw fetch (global)": async () => (await fetch(`${origin}/health/live`, { headers: getHeaders })).json(),
    "raw fetch (undici + Agent)": async () => (await agentFetch(`${origin}/health/live`, { headers: getHeaders })).json(),
    ...(checked === null ? {} : { "raw fetch + timeout + checks (global)": checked.live }),
    "openapi-fetch (global fetch)": () => untyped.GET("/health/live"),
    "PowerContextClient (global fetch)": oursGlobal.live,
    "PowerContextClient (undici + Agent)": oursAgent.live,
  });
  const large = await compare(`search_memory: POST, 100 hits (${search.length} bytes)`, {
    "raw undici.request (Agent)": async () =>
      (await undiciRequest(`${origin}/v1/memory/search`, { method: "POST", body: JSON.stringify(searchRequest), headers: postHeaders, dispatcher: agent })).body.json(),
    "raw fetch (global)": async () =>
      (await fetch(`${origin}/v1/memory/search`, { method: "POST", body: JSON.stringify(searchRequest), headers: postHeaders })).json(),
    "raw fetch (undici + Agent)": async () =>
      (await agentFetch(`${origin}/v1/memory/search`, { method: "POST", body: JSON.stringify(searchRequest), headers: postHeaders })).json(),
    ...(checked === null ? {} : { "raw fetch + timeout + checks (global)": checked.search }),
    "openapi-fetch (global fetch)": () => untyped.POST("/v1/memory/search", { body: searchRequest }),
    "PowerContextClient (global fetch)": oursGlobal.search,
    "PowerContextClient (undici + Agent)": oursAgent.search,
  });

  for (const [label, m] of [["get_liveness", small], ["search_memory", large]] as const) {
    console.log(`\nratios, ${label}${generated ? " (validation on)" : " (validation OFF)"}`);
    ratio("ours / raw fetch, both on global fetch", m["PowerContextClient (global fetch)"], m["raw fetch (global)"], 0.9);
    ratio("ours / raw fetch, both on undici + Agent", m["PowerContextClient (undici + Agent)"], m["raw fetch (undici + Agent)"], 0.9);
    ratio("ours / openapi-fetch, both on global fetch", m["PowerContextClient (global fetch)"], m["openapi-fetch (global fetch)"], 1.0);
    ratio("raw fetch + timeout + checks / raw fetch, global", m["raw fetch + timeout + checks (global)"], m["raw fetch (global)"], "the ceiling DESIGN §2 leaves any client");
    ratio("ours / raw fetch + timeout + checks, global", m["PowerContextClient (global fetch)"], m["raw fetch + timeout + checks (global)"], "the client's own cost");
  }

  // CPU cost of the client without the network: the same Response objects, handed over by an in-process fetch.
  // Less sensitive to machine load than the loopback numbers above.
  if (generated) {
    const { PowerContextClient } = await import("../packages/sdk/src/index.js");
    const respond = (body: string) => new Response(body, { status: 200, headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) } });
    const inProcess = (async (url: string) => respond(url.endsWith("/health/live") ? liveness : search)) as never;
    const client = new PowerContextClient({ baseUrl: "https://pc.example.com", fetch: inProcess, maxRetries: 0 });
    const cpu = await compare("in-process fetch (no network): client CPU cost", {
      "raw Response.json, 15 bytes": async () => respond(liveness).json(),
      "PowerContextClient getLiveness": () => client.getLiveness(),
      "raw Response.json, 100 hits": async () => respond(search).json(),
      "PowerContextClient searchMemory": () => client.searchMemory(searchRequest),
    });
    console.log("\nratios, in-process (validation on)");
    ratio("ours / raw, get_liveness", cpu["PowerContextClient getLiveness"], cpu["raw Response.json, 15 bytes"], 0.9);
    ratio("ours / raw, search_memory", cpu["PowerContextClient searchMemory"], cpu["raw Response.json, 100 hits"], 0.9);
  }

  // An app calling one operation the way packages/sdk/README.md shows: createCaller with the
  // generated descriptor of that operation (without generated code: the same row written inline).
  const oneOperation = generated
    ? `
    import { createCaller, getLivenessDescriptor } from "./index.js";
    const getLiveness = createCaller({ baseUrl: "https://pc.example.com" }, getLivenessDescriptor);
    getLiveness(undefined).then((body) => console.log(body));
  `
    : `
    import { createCaller } from "@powercontext/runtime";
    const getLiveness = createCaller({ baseUrl: "https://pc.example.com" }, {
      operationId: "get_liveness", methodName: "getLiveness", method: "GET", path: "/health/live",
      requestLocation: null, pathParameters: [], queryParameters: [], successStatus: 200, errorStatuses: [],
      scope: false, retryClass: "safe", permission: null, summary: "", requestSchema: null, responseSchema: null,
      async: null, reconcile: null, pagination: null,
    });
    getLiveness(undefined).then((body) => console.log(body));
  `;
  console.log("\nbundle size (esbuild --bundle --minify, gzip -9)");
  const one = await gzipSize(oneOperation);
  console.log(`  one operation, no validators               ${(one / 1024).toFixed(2)} kB  (target <= 6 kB) ${one <= 6 * 1024 ? "ok" : "ABOVE"}`);
  if (generated) {
    const whole = await gzipSize(`export * from "./index.js";`);
    console.log(`  whole client (table, methods, validators)  ${(whole / 1024).toFixed(2)} kB`);
  } else {
    console.log("  whole client: needs packages/sdk/src/generated");
  }

  await agent.close();
  server.closeAllConnections();
  server.close();
}

await main();
