import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createRuntime } from "../../src/core/runtime.js";
import { runOperation } from "../../src/core/run-operation.js";
import { TimeoutError } from "../../src/errors.js";
import { createNodeTransport, type NodeTransport } from "../../src/transport/node.js";
import { classDescriptor } from "../helpers/descriptors.js";

let server: Server | undefined;
let transport: NodeTransport | undefined;
afterEach(async () => {
  await transport?.close().catch(() => undefined);
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

describe("timeouts with a bounded connection pool, over real loopback HTTP", () => {
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
