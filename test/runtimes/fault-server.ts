/**
 * The server side of the runtime conformance suite (docs/runtimes.md): a
 * loopback HTTP front that forwards to the embedded mock server, except where
 * a check scripted a fault for a route, and counts what arrived. Runs on Node
 * (the harness); the suite itself runs in the runtime under test and drives
 * this front over HTTP:
 *
 * - `POST /__conformance/script` `{ route, steps }`: the next requests of
 *   `route` (`"POST /v1/memory/remember"`) meet `steps` in order, then are
 *   forwarded again; the route's counters start from zero.
 * - `GET /__conformance/arrivals?route=...`: `{ arrivals, forwarded, headers }`,
 *   how many requests of the route the server read in full, how many reached
 *   the mock, and the `traceparent`, `idempotency-key` headers of each arrival.
 *
 * Every other request is served by the steps of its route, else forwarded.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** What one scripted request meets. */
export type FaultStep =
  /** A fixed answer; `body` a string sent as it is, anything else as JSON. */
  | { kind: "answer"; status: number; headers?: Record<string, string>; body?: unknown }
  /** The request is read in full, then the connection is destroyed without an answer (nothing reaches the mock). */
  | { kind: "drop" }
  /** The request is forwarded (it takes effect), then the connection is destroyed before the answer. */
  | { kind: "forward-drop" }
  /** No answer for `ms`, then the connection is destroyed. */
  | { kind: "stall"; ms: number };

interface RouteState {
  steps: FaultStep[];
  arrivals: number;
  forwarded: number;
  headers: Array<Record<string, string | null>>;
}

/** A listening front. */
export interface FaultServer {
  /** Base URL, `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Stops listening and destroys every open connection. */
  close(): Promise<void>;
}

/** Headers a check may ask about; nothing else is kept (never `authorization`). */
const KEPT_HEADERS = ["traceparent", "idempotency-key", "if-none-match", "if-match"] as const;
/** The longest a scripted stall lasts, in ms, whatever a check asks. */
const MAX_STALL_MS = 10_000;

function readAll(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

function json(response: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  response.end(body);
}

/** Forwards one request to the mock and returns its answer (status, headers, bytes). */
async function forward(
  mockUrl: string,
  frontUrl: string,
  request: IncomingMessage,
  body: Buffer,
): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === "string" && !["host", "connection", "content-length"].includes(name)) headers[name] = value;
  }
  const answer = await fetch(`${mockUrl}${request.url ?? "/"}`, {
    method: request.method ?? "GET",
    headers,
    ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
    redirect: "manual",
  });
  const out: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!["content-encoding", "transfer-encoding", "connection", "content-length", "keep-alive"].includes(name))
      // The mock's own origin in a Location becomes the front's (the path is what matters).
      out[name] = name === "location" ? value.replace(mockUrl, frontUrl) : value;
  });
  return { status: answer.status, headers: out, body: Buffer.from(await answer.arrayBuffer()) };
}

/**
 * Starts the front on 127.0.0.1 (a free port) in front of the mock at `mockUrl`.
 * Its sockets are tracked so that `close` ends every one.
 */
export async function startFaultServer(mockUrl: string): Promise<FaultServer> {
  const routes = new Map<string, RouteState>();
  let port = 0;
  const sockets = new Set<Socket>();
  const stateOf = (route: string): RouteState => {
    let state = routes.get(route);
    if (state === undefined) {
      state = { steps: [], arrivals: 0, forwarded: 0, headers: [] };
      routes.set(route, state);
    }
    return state;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const body = await readAll(request);
    const url = new URL(request.url ?? "/", "http://front");
    if (url.pathname === "/__conformance/script") {
      const { route, steps } = JSON.parse(body.toString("utf8")) as { route: string; steps: FaultStep[] };
      routes.set(route, { steps: [...steps], arrivals: 0, forwarded: 0, headers: [] });
      json(response, 200, { ok: true });
      return;
    }
    if (url.pathname === "/__conformance/arrivals") {
      const state = stateOf(url.searchParams.get("route") ?? "");
      json(response, 200, { arrivals: state.arrivals, forwarded: state.forwarded, headers: state.headers });
      return;
    }
    const state = stateOf(`${request.method} ${url.pathname}`);
    state.arrivals += 1;
    state.headers.push(
      Object.fromEntries(KEPT_HEADERS.map((name) => [name, (request.headers[name] as string | undefined) ?? null])),
    );
    const step = state.steps.shift();
    if (step?.kind === "drop") {
      request.socket.destroy();
      return;
    }
    if (step?.kind === "stall") {
      setTimeout(() => request.socket.destroy(), Math.min(step.ms, MAX_STALL_MS)).unref();
      return;
    }
    if (step?.kind === "answer") {
      const text = typeof step.body === "string" ? step.body : step.body === undefined ? "" : JSON.stringify(step.body);
      const headers: Record<string, string> = {
        "content-type": "application/json",
        "x-powercontext-request-id": `req_front_${state.arrivals}`,
        ...step.headers,
      };
      response.writeHead(step.status, { ...headers, "content-length": Buffer.byteLength(text) });
      response.end(text);
      return;
    }
    const answer = await forward(mockUrl, `http://127.0.0.1:${port}`, request, body);
    state.forwarded += 1;
    if (step?.kind === "forward-drop") {
      request.socket.destroy();
      return;
    }
    response.writeHead(answer.status, { ...answer.headers, "content-length": answer.body.length });
    response.end(answer.body);
  };

  const server: Server = createServer({ keepAliveTimeout: 30_000 }, (request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) json(response, 500, { error: { code: "front_failure", message: String(error) } });
      else response.destroy();
    });
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
