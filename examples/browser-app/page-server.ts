/**
 * The page server of the browser app: serves the page and its bundle, and
 * forwards every other path to the PowerContext server with the token added.
 * The browser sees one origin, so it sends no CORS preflight (which the 1.4.1
 * server answers with 401), and the token stays on this side.
 */
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

/** A running page server. */
export interface PageServer {
  /** `http://127.0.0.1:PORT`: open it in a browser. */
  readonly url: string;
  close(): Promise<void>;
}

/** Headers that describe one hop, or that `fetch` already undid (the body arrives decoded). */
const HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-encoding",
  "content-length",
  "host",
  "authorization",
  "cookie",
  "origin",
  "referer",
]);

/**
 * Serves `dir/index.html` and `dir/app.js` on a loopback port; forwards other
 * requests to `upstream` with `Authorization: Bearer token`.
 *
 * @param port - default 0 (a free port)
 */
export async function startPageServer(options: {
  dir: string;
  upstream: string;
  token: string;
  port?: number;
}): Promise<PageServer> {
  const files: Record<string, [string, string]> = {
    "/": ["index.html", "text/html; charset=utf-8"],
    "/app.js": ["app.js", "text/javascript; charset=utf-8"],
  };
  const server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0]!;
    const file = files[path];
    const work =
      file !== undefined && request.method === "GET"
        ? serveFile(response, join(options.dir, file[0]), file[1])
        : forward(request, response, options.upstream, options.token);
    work.catch(() => {
      if (!response.headersSent) response.writeHead(502, { "content-type": "text/plain" });
      response.end("the PowerContext server could not be reached");
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function serveFile(response: ServerResponse, file: string, type: string): Promise<void> {
  const body = await readFile(file);
  response.writeHead(200, { "content-type": type, "cache-control": "no-store" }).end(body);
}

async function forward(
  request: IncomingMessage,
  response: ServerResponse,
  upstream: string,
  token: string,
): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (!HOP.has(name) && typeof value === "string") headers.set(name, value);
  }
  if (token !== "") headers.set("authorization", `Bearer ${token}`);
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const answer = await fetch(new URL(request.url ?? "/", upstream), {
    method: request.method ?? "GET",
    headers,
    body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
    redirect: "manual",
  });
  const out: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!HOP.has(name)) out[name] = value;
  });
  response.writeHead(answer.status, out).end(Buffer.from(await answer.arrayBuffer()));
}
