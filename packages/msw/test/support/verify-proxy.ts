// A loopback proxy in front of a server, for the verify tests: a server that differs on
// purpose. It forwards every request, and can answer some itself (`intercept`), rewrite
// a JSON answer's text (`rewrite`), and wait before answering (`delayMs`). It records
// every request it received.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request the proxy received. */
export interface Seen {
  readonly method: string;
  /** path and query */
  readonly target: string;
}

/** What the proxy does besides forwarding. */
export interface ProxyOptions {
  /** an answer of the proxy's own for a request, or undefined to forward it */
  readonly intercept?: (seen: Seen) => { status: number; body: unknown } | undefined;
  /** rewrites the text of a JSON answer from the server */
  readonly rewrite?: (seen: Seen, text: string) => string;
  /** wait before each answer, in ms */
  readonly delayMs?: number;
}

/** A listening proxy. */
export interface LoopbackProxy {
  readonly url: string;
  readonly seen: Seen[];
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : Buffer.concat(chunks);
}

/** Starts a proxy on 127.0.0.1 in front of `target` (a base URL without a trailing slash). */
export async function startProxy(target: string, options: ProxyOptions = {}): Promise<LoopbackProxy> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    // a server closed under a request in flight (the end of a test) drops that request, as a real proxy would
    forward(request, response).catch(() => response.destroy());
  });
  const forward = async (request: IncomingMessage, response: ServerResponse) => {
    const entry = { method: request.method ?? "GET", target: request.url ?? "/" };
    seen.push(entry);
    const body = await bodyOf(request);
    if (options.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    const own = options.intercept?.(entry);
    if (own !== undefined) {
      response.writeHead(own.status, { "content-type": "application/json" }).end(JSON.stringify(own.body));
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers))
      if (typeof value === "string" && name !== "host" && name !== "connection") headers[name] = value;
    const answer = await fetch(`${target}${entry.target}`, {
      method: entry.method,
      headers,
      body: body === undefined ? undefined : new Uint8Array(body),
      redirect: "manual",
    });
    let text = await answer.text();
    const type = answer.headers.get("content-type") ?? "";
    if (type.includes("json") && options.rewrite !== undefined) text = options.rewrite(entry, text);
    const out: Record<string, string> = {};
    for (const name of ["content-type", "etag", "location", "retry-after"]) {
      const value = answer.headers.get(name);
      if (value !== null) out[name] = value;
    }
    response.writeHead(answer.status, out).end(text);
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
