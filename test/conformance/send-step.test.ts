import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, type Target } from "./send-step.js";

/**
 * A loopback server that, like the release after an unhandled error, answers 500
 * and then drops the connection without `Connection: close`; any other request is
 * 200. A step after that 500 must reach it on a new connection.
 */
let server: Server;
let target: Target;

beforeAll(async () => {
  const dropped = new WeakSet<object>();
  server = createServer((request, response) => {
    // The connection of the failed request is gone: what arrives on it next is cut off.
    if (dropped.has(request.socket)) {
      request.socket.destroy();
      return;
    }
    request.resume();
    request.on("end", () => {
      if (request.url === "/crash") {
        response.writeHead(500, { "content-type": "application/json", "content-length": "2" });
        response.end("{}");
        dropped.add(request.socket);
        return;
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end('{"ok":true}');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  target = { name: "real", baseUrl: `http://127.0.0.1:${port}`, token: "t" };
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("send over loopback", () => {
  it("sends the step after a 5xx answer on a new connection", async () => {
    const step = (path: string) => ({
      method: "POST",
      path,
      auth: "admin" as const,
      request: {},
      headers: {},
      body: "{}",
    });
    for (let round = 0; round < 5; round += 1) {
      expect((await send(step("/fine"), target)).status).toBe(200);
      expect((await send(step("/crash"), target)).status).toBe(500);
      const next = await send(step("/fine"), target);
      expect([next.status, next.body]).toEqual([200, { ok: true }]);
    }
  });
});
