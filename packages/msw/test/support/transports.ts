import { setupServer } from "msw/node";
import { createPowerContextHandlers } from "../../src/handlers/create-handlers.js";
import { simOperations, type SimOperationId } from "../../src/simulator/contract/operation-table.js";
import type { PowerContextSimulator } from "../../src/simulator/simulator.js";
import { startMockServer } from "../../src/server/start.js";

/**
 * The two ways a test reaches a simulator from the outside: real HTTP to the
 * embedded server, and fetch intercepted by the msw handlers. Scenarios run
 * the same calls through both and compare the answers.
 */

/** One call: path parameters, query and a JSON body (or raw text sent as is). */
export interface Call {
  readonly token?: string | null;
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  readonly rawBody?: string;
}

/** What came back. */
export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

/** A started transport in front of one simulator. */
export interface Transport {
  readonly name: string;
  call(operationId: SimOperationId, call?: Call): Promise<Answer>;
  close(): Promise<void>;
}

/** Names of the transports, for `describe.each`. */
export const transportNames = ["http server", "msw handlers"] as const;

const MSW_BASE = "http://pc.transport.test";
let mswServer: ReturnType<typeof setupServer> | undefined;

/** Starts the named transport in front of `sim`. */
export async function startTransport(
  name: (typeof transportNames)[number],
  sim: PowerContextSimulator,
): Promise<Transport> {
  if (name === "http server") {
    const server = await startMockServer({ simulator: sim });
    return { name, call: (operationId, call) => send(server.url, operationId, call), close: () => server.close() };
  }
  const msw = (mswServer ??= setupServer());
  // Requests to a loopback HTTP transport of the same test pass through; anything else is an error.
  msw.listen({
    onUnhandledRequest: (request, print) => (new URL(request.url).hostname === "127.0.0.1" ? undefined : print.error()),
  });
  msw.resetHandlers(...createPowerContextHandlers(sim, { baseUrl: MSW_BASE }));
  return {
    name,
    call: (operationId, call) => send(MSW_BASE, operationId, call),
    close: async () => {
      mswServer?.resetHandlers();
      mswServer?.close();
    },
  };
}

async function send(base: string, operationId: SimOperationId, call: Call = {}): Promise<Answer> {
  const { method, path } = simOperations[operationId];
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(call.params?.[name] ?? ""));
  const url = new URL(base + filled);
  for (const [key, value] of Object.entries(call.query ?? {})) url.searchParams.append(key, value);
  const headers: Record<string, string> = { "Content-Type": "application/json", ...call.headers };
  const token = call.token === undefined ? "pc-admin" : call.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  const body =
    method === "GET" ? undefined : (call.rawBody ?? (call.body === undefined ? undefined : JSON.stringify(call.body)));
  const res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  const json = (res.headers.get("content-type") ?? "").includes("json");
  return {
    status: res.status,
    headers: Object.fromEntries(res.headers),
    body: text ? (json ? (JSON.parse(text) as unknown) : text) : null,
  };
}
