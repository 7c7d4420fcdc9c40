// A loopback HTTP server that answers each parity vector's requests exactly as the
// vector scripts it. Both the Python client and our SDK talk to it, so both see the
// same bytes. Each vector lives under its own base path:
//
//   <baseUrl>/__vectors/<vector name>/v1/...   -> the vector's scripted answer
//
// Run standalone (prints the base URL on its first line, stops on SIGTERM/SIGINT):
//   node --import tsx test/parity/scripted-server.ts [vectors dir]
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export interface ScriptedAnswer {
  /** close the connection without answering */
  readonly close?: boolean;
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** body serialized as JSON (content type application/json unless headers say otherwise) */
  readonly json?: unknown;
  /** body sent as-is */
  readonly text?: string;
}

export interface ParityVector {
  readonly name: string;
  readonly description: string;
  readonly operation: string;
  readonly request: Record<string, unknown> | null;
  readonly server: ScriptedAnswer;
  /** the Python client's outcome (the reference behaviour, docs/compatibility.md) */
  readonly expect: ExpectedOutcome;
  /**
   * Set when our SDK is known to produce a different outcome, with the reason. The parity
   * test then requires the difference to persist (so the marker is removed once fixed).
   */
  readonly sdk_difference?: string;
}

export interface ExpectedOutcome {
  readonly outcome: "success" | "ServerResponseError" | "InvalidResponseError" | "TransportError";
  readonly status_code?: number;
  readonly code?: string | null;
  readonly message?: string | null;
  readonly details?: unknown;
  readonly request_id?: string | null;
  readonly result?: Record<string, unknown>;
}

export interface ReceivedRequest {
  readonly method: string;
  /** path below the vector prefix, with query */
  readonly path: string;
  readonly authorization: "bearer" | "none" | "other";
  readonly contentType: string | null;
  readonly body: string;
}

export const defaultVectorsDir = fileURLToPath(new URL("./vectors", import.meta.url));

export function loadVectors(dir: string = defaultVectorsDir): ParityVector[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as ParityVector);
}

export interface ScriptedServer {
  readonly baseUrl: string;
  /** base URL a client uses for one vector */
  urlFor(vector: string): string;
  received(vector: string): readonly ReceivedRequest[];
  reset(): void;
  close(): Promise<void>;
}

const PREFIX = /^\/__vectors\/([A-Za-z0-9._-]+)(\/.*)$/;

export async function startScriptedServer(vectors: readonly ParityVector[]): Promise<ScriptedServer> {
  const byName = new Map(vectors.map((v) => [v.name, v]));
  const log = new Map<string, ReceivedRequest[]>();

  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const match = PREFIX.exec(req.url ?? "");
    const vector = match ? byName.get(match[1]!) : undefined;
    if (!match || !vector) {
      res.writeHead(599, { "content-type": "text/plain" }).end("no such parity vector");
      return;
    }
    const auth = req.headers.authorization;
    const entry: ReceivedRequest = {
      method: req.method ?? "",
      path: match[2]!,
      authorization: auth === undefined ? "none" : /^Bearer \S+$/.test(auth) ? "bearer" : "other",
      contentType: req.headers["content-type"] ?? null,
      body,
    };
    log.set(vector.name, [...(log.get(vector.name) ?? []), entry]);
    const answer = vector.server;
    if (answer.close) {
      req.socket.destroy();
      return;
    }
    const headers: Record<string, string> = { ...(answer.headers ?? {}) };
    const hasType = Object.keys(headers).some((h) => h.toLowerCase() === "content-type");
    let payload = "";
    if (answer.json !== undefined) {
      payload = JSON.stringify(answer.json);
      if (!hasType) headers["Content-Type"] = "application/json";
    } else if (answer.text !== undefined) {
      payload = answer.text;
    }
    headers["Content-Length"] = String(Buffer.byteLength(payload));
    res.writeHead(answer.status ?? 200, headers).end(payload);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => handle(req, res, Buffer.concat(chunks).toString("utf8")));
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    urlFor: (name) => `${baseUrl}/__vectors/${name}`,
    received: (name) => log.get(name) ?? [],
    reset: () => log.clear(),
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

const invokedDirectly = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  const dir = process.argv[2] ?? defaultVectorsDir;
  const running = await startScriptedServer(loadVectors(dir));
  process.stdout.write(`${running.baseUrl}\n`);
  const stop = () => void running.close().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
