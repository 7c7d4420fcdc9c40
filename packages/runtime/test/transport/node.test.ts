import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createRuntime } from "../../src/core/runtime.js";
import { runOperation } from "../../src/core/run-operation.js";
import { TimeoutError, TransportError } from "../../src/errors.js";
import { createNodeTransport, type NodeTransport } from "../../src/transport/node.js";
import { classDescriptor } from "../helpers/descriptors.js";

let server: Server | undefined;
let transport: NodeTransport | undefined;

afterEach(async () => {
  await transport?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
  transport = undefined;
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer({ keepAlive: true }, handler);
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("Node transport over real loopback HTTP", () => {
  it("retries a safe call when the server closes a reused keep-alive socket, and a never call does not", async () => {
    let requests = 0;
    const origin = await listen((req, res) => {
      req.resume();
      req.on("end", () => {
        requests += 1;
        // Every second request: read it, then drop the socket without answering.
        if (requests % 2 === 0) {
          req.socket.destroy();
          return;
        }
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"ok":true}');
      });
    });
    transport = await createNodeTransport({ keepAliveTimeoutMs: 10_000 });
    const runtime = createRuntime({ baseUrl: origin, fetch: transport.fetch, retry: { baseDelayMs: 0, maxDelayMs: 0 } });
    await expect(runOperation(runtime, classDescriptor("safe"), {})).resolves.toMatchObject({ data: { ok: true } });
    // Request 2 is dropped after the server read it; request 3 succeeds.
    await expect(runOperation(runtime, classDescriptor("safe"), {})).resolves.toMatchObject({ data: { ok: true } });
    expect(requests).toBe(3);

    const error = await runOperation(runtime, classDescriptor("never"), {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).phase).toBe("exchange");
    expect(requests).toBe(4);
  });

  it("classifies a refused connection as a connect failure, retried even for never", async () => {
    const origin = await listen((_req, res) => res.end());
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
    transport = await createNodeTransport({ connectTimeoutMs: 1000 });
    const attempts: number[] = [];
    const runtime = createRuntime({
      baseUrl: origin,
      fetch: transport.fetch,
      maxRetries: 2,
      retry: { baseDelayMs: 0, maxDelayMs: 0 },
      onRetry: (event) => attempts.push(event.attempt),
    });
    const error = await runOperation(runtime, classDescriptor("never"), {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).phase).toBe("connect");
    expect(attempts).toEqual([1, 2]);
  });

  it("on a server that stops answering, a timed-out attempt closes its socket at once", async () => {
    const closed: number[] = [];
    let opened = 0;
    const origin = await listen((req) => {
      // Read the request, never answer; note when the client closes the socket.
      const id = (opened += 1);
      req.resume();
      req.socket.once("close", () => closed.push(id));
    });
    transport = await createNodeTransport();
    const runtime = createRuntime({ baseUrl: origin, fetch: transport.fetch, timeoutMs: 50, maxRetries: 0 });
    const error = await runOperation(runtime, classDescriptor("safe"), {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    await vi.waitFor(() => expect(closed).toEqual([1]), { timeout: 1000 });
  });

  // createNodeTransport({ connections }) caps sockets per origin: a timed-out
  // exchange must be aborted, or it keeps the only socket while every call
  // queued behind it times out although the server answers at once.
  it("with connections: 1, a timed-out exchange does not hold the only socket", async () => {
    let requests = 0;
    const origin = await listen((req, res) => {
      requests += 1;
      req.resume();
      if (requests === 1) return; // the first request never gets an answer
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"ok":true}');
    });
    transport = await createNodeTransport({ connections: 1 });
    const runtime = createRuntime({ baseUrl: origin, fetch: transport.fetch, timeoutMs: 200, maxRetries: 0 });
    const first = await runOperation(runtime, classDescriptor("safe"), {}).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(TimeoutError);
    await expect(runOperation(runtime, classDescriptor("safe"), {})).resolves.toMatchObject({ data: { ok: true } });
  });
});
