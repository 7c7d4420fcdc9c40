// The undici adapter's body handling at its edges, over loopback HTTP. A body
// given up before anybody read it must go away quietly (undici destroys such a
// body with an AbortError, which without a listener escaped as an uncaught
// exception after the call had ended with its own timeout); an encoded body
// that undici destroyed before the first read must end that read with an
// error (it used to leave the read pending for ever); and a Content-Length
// body is bound by the attempt's limit as a whole, since undici's bodyTimeout
// restarts with every chunk.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ATTEMPT_TIMEOUT } from "../../src/transport/port.js";
import { undiciTransport } from "../../src/transport/undici-adapter.js";

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** A GET of `url` through the adapter, with the attempt's limit in ms and the caller's signal. */
function get(url: string, timeoutMs: number, signal?: AbortSignal) {
  return undiciTransport().send({ method: "GET", url, headers: {}, body: undefined, timeoutMs, signal });
}

/** A server that sends a whole small body at once. */
function wholeBody(): Promise<string> {
  return serve((_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": "5" });
    res.end("[1,2]");
  });
}

/** Settles with what `promise` settles with, or "pending" after `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | "pending"> {
  return Promise.race([promise, new Promise<"pending">((resolve) => setTimeout(resolve, ms, "pending"))]);
}

function uncaughtDuring(run: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const record = (error: unknown): void => void seen.push(error);
  process.on("uncaughtException", record);
  return run()
    .then(() => new Promise((resolve) => setTimeout(resolve, 50)))
    .then(() => seen)
    .finally(() => process.off("uncaughtException", record));
}

describe("the undici adapter's body", () => {
  it("on a body never read, raises nothing when the attempt's limit passes before the first read", async () => {
    const url = await wholeBody();
    const errors = await uncaughtDuring(async () => {
      const response = await get(url, 80);
      await new Promise((resolve) => setTimeout(resolve, 150));
      await expect(response.read()).rejects.toMatchObject({ code: ATTEMPT_TIMEOUT });
    });
    expect(errors).toEqual([]);
  });

  it("called directly on a body never read, raises nothing", async () => {
    const url = await wholeBody();
    const errors = await uncaughtDuring(async () => {
      const response = await get(url, 5000);
      response.cancel();
      await expect(response.read()).resolves.toBeNull();
    });
    expect(errors).toEqual([]);
  });

  it("an encoded body the server cut before the first read ends the read with an error, not never", async () => {
    const gzipped = gzipSync(Buffer.from(JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => i) })));
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      res.write(gzipped.subarray(0, 5));
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const response = await get(url, 5000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const outcome = await within(
      response.read().then(
        () => "read",
        (error: unknown) => error,
      ),
      2000,
    );
    expect(outcome).toBeInstanceOf(Error);
  });

  it.each([
    [
      "throws on every read",
      () =>
        new Proxy(
          {},
          {
            get: () => {
              throw new Error("reason read");
            },
          },
        ),
    ],
    [
      "is a revoked Proxy",
      () => {
        const { proxy, revoke } = Proxy.revocable({}, {});
        revoke();
        return proxy;
      },
    ],
  ])("an abort whose reason %s, while the body streams, ends the read and raises nothing", async (_what, reason) => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"items":[');
      setTimeout(() => res.end("]}"), 1000);
    });
    const controller = new AbortController();
    const errors = await uncaughtDuring(async () => {
      const response = await get(url, 5000, controller.signal);
      const read = (async () => {
        while ((await response.read()) !== null);
        return "read to the end";
      })().catch((error: unknown) => error);
      setTimeout(() => controller.abort(reason()), 50);
      expect(await within(read, 2000)).toBeInstanceOf(Error);
    });
    expect(errors).toEqual([]);
  });

  it("an encoded body whose read starts after the caller aborted ends the read with an error", async () => {
    const gzipped = gzipSync(Buffer.from("[1,2,3]"));
    const url = await serve((_req, res) => {
      res.writeHead(200, {
        "content-type": "application/json",
        "content-encoding": "gzip",
        "content-length": String(gzipped.byteLength),
      });
      res.end(gzipped);
    });
    const controller = new AbortController();
    const response = await get(url, 5000, controller.signal);
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const outcome = await within(
      response.read().then(
        () => "read",
        (error: unknown) => error,
      ),
      2000,
    );
    expect(outcome).toBeInstanceOf(Error);
  });

  it("a Content-Length body that trickles in is cut at the attempt's limit", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "60" });
      const timer = setInterval(() => res.write(" "), 40);
      res.on("close", () => clearInterval(timer));
    });
    const started = performance.now();
    const response = await get(url, 300);
    await expect(response.read()).rejects.toMatchObject({ code: ATTEMPT_TIMEOUT });
    expect(performance.now() - started).toBeLessThan(1500);
  });
});
