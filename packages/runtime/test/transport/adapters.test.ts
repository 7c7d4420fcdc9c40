// The transport behaviours over real loopback HTTP, once per adapter of the
// port: the fetch adapter (Node's global fetch, or undici's fetch on an agent
// of createNodeTransport) and the undici adapter (the Node default, or a
// caller's dispatcher). Everything above the port must behave the same.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, constants, deflateSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ClientOptions } from "../../src/config/options.js";
import { runOperation } from "../../src/core/run-operation.js";
import {
  AbortError,
  ConfigurationError,
  InvalidRequestError,
  InvalidResponseError,
  ServerResponseError,
  TimeoutError,
  TransportError,
} from "../../src/errors.js";
import { createRuntime } from "../../src/node-platform.js";
import { createNodeTransport, type NodeTransport } from "../../src/transport/node.js";
import { classDescriptor } from "../helpers/descriptors.js";

let server: Server | undefined;
let owned: NodeTransport | undefined;

afterEach(async () => {
  await owned?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
  owned = undefined;
});

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer({ keepAlive: true }, handler);
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

type Adapter = "fetch" | "undici";

/** Client options selecting `adapter`; with `transport`, its agent (owned by the test, closed after it). */
function via(adapter: Adapter, transport?: NodeTransport): Pick<ClientOptions, "fetch" | "dispatcher"> {
  if (adapter === "fetch") return { fetch: transport?.fetch ?? (globalThis.fetch as never) };
  return transport === undefined ? {} : { dispatcher: transport.dispatcher };
}

/** The messages of an error and its causes, one per line. */
function causes(error: unknown): string {
  const lines: string[] = [];
  for (let current = error; current instanceof Error; current = current.cause) lines.push(current.message);
  return lines.join("\n");
}

const fast = { retry: { baseDelayMs: 0, maxDelayMs: 0 } };

function answer(
  res: ServerResponse,
  status: number,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
    ...headers,
  });
  res.end(body);
}

describe.each<Adapter>(["fetch", "undici"])("the %s adapter over loopback HTTP", (adapter) => {
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
        answer(res, 200, '{"ok":true}');
      });
    });
    owned = await createNodeTransport({ keepAliveTimeoutMs: 10_000 });
    const runtime = createRuntime({ baseUrl: origin, ...via(adapter, owned), ...fast });
    await expect(runOperation(runtime, classDescriptor("safe"), {})).resolves.toMatchObject({ data: { ok: true } });
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
    const attempts: number[] = [];
    const runtime = createRuntime({
      baseUrl: origin,
      ...via(adapter),
      maxRetries: 2,
      ...fast,
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
      const id = (opened += 1);
      req.resume();
      req.socket.once("close", () => closed.push(id));
    });
    const runtime = createRuntime({ baseUrl: origin, ...via(adapter), timeoutMs: 100, maxRetries: 0 });
    const error = await runOperation(runtime, classDescriptor("safe"), {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).limit).toBe("attempt");
    await vi.waitFor(() => expect(closed).toEqual([1]), { timeout: 500, interval: 10 });
  });

  it("settles a stalled attempt at its timeoutMs, and a stalled call at its deadlineMs, not at a coarse tick", async () => {
    const origin = await listen((req) => req.resume());
    const runtime = createRuntime({ baseUrl: origin, ...via(adapter), ...fast, timeoutMs: 150, maxRetries: 0 });
    let started = performance.now();
    expect(await runOperation(runtime, classDescriptor("safe"), {}).catch((e: unknown) => e)).toBeInstanceOf(
      TimeoutError,
    );
    const attempt = performance.now() - started;
    expect(attempt).toBeGreaterThanOrEqual(145);
    expect(attempt).toBeLessThan(450);
    const retrying = createRuntime({
      baseUrl: origin,
      ...via(adapter),
      retry: { baseDelayMs: 10, maxDelayMs: 10 },
      timeoutMs: 5000,
      maxRetries: 3,
    });
    started = performance.now();
    const error = await runOperation(retrying, classDescriptor("safe"), {}, { deadlineMs: 300 }).catch(
      (e: unknown) => e,
    );
    const total = performance.now() - started;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).limit).toBe("deadline");
    expect(total).toBeGreaterThanOrEqual(295);
    expect(total).toBeLessThan(600);
  });

  it("refuses a caller header no HTTP message can carry before sending, without retrying", async () => {
    let requests = 0;
    const origin = await listen((_req, res) => {
      requests += 1;
      answer(res, 200, '{"ok":true}');
    });
    const retries: unknown[] = [];
    const runtime = createRuntime({
      baseUrl: origin,
      ...via(adapter),
      ...fast,
      onRetry: (event) => retries.push(event),
    });
    const refused = {
      "x-a": "a\r\nb",
      "x-nul": "a\u0000b",
      "x-wide": "\u20ac",
      "bad name": "value-of-bad-name",
      "transfer-encoding": "chunked",
      "Content-Length": "3",
      "x-number": 1,
    };
    for (const [name, value] of Object.entries(refused)) {
      const error = await runOperation(
        runtime,
        classDescriptor("safe"),
        {},
        { headers: { [name]: value as string } },
      ).catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(InvalidRequestError);
      expect((error as Error).message, name).not.toContain(String(value));
    }
    expect(requests).toBe(0);
    expect(retries).toEqual([]);
    expect(() => createRuntime({ baseUrl: origin, ...via(adapter), headers: { "x-a": "a\nb" } })).toThrow(
      ConfigurationError,
    );
    await expect(
      runOperation(runtime, classDescriptor("safe"), {}, { headers: { "x-latin": "caf\u00e9", "x-ok": "a b\tc" } }),
    ).resolves.toMatchObject({ data: { ok: true } });
    expect(requests).toBe(1);
  });

  it("a body that trickles past the attempt's limit is a timeout, and its socket is closed", async () => {
    let closed = false;
    const origin = await listen((req, res) => {
      req.resume();
      req.socket.once("close", () => (closed = true));
      res.writeHead(200, { "content-type": "application/json" });
      res.write("[");
      const timer = setInterval(() => res.write("1,"), 40);
      res.once("close", () => clearInterval(timer));
    });
    const runtime = createRuntime({ baseUrl: origin, ...via(adapter), timeoutMs: 300, maxRetries: 0 });
    const started = Date.now();
    const error = await runOperation(runtime, classDescriptor("safe"), {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeLessThan(1500);
    await vi.waitFor(() => expect(closed).toBe(true), { timeout: 500, interval: 10 });
  });

  it("with connections: 1, a timed-out exchange does not hold the only socket", async () => {
    let requests = 0;
    const origin = await listen((req, res) => {
      requests += 1;
      req.resume();
      if (requests === 1) return; // the first request never gets an answer
      answer(res, 200, '{"ok":true}');
    });
    owned = await createNodeTransport({ connections: 1 });
    const runtime = createRuntime({ baseUrl: origin, ...via(adapter, owned), timeoutMs: 200, maxRetries: 0 });
    const first = await runOperation(runtime, classDescriptor("safe"), {}).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(TimeoutError);
    await expect(runOperation(runtime, classDescriptor("safe"), {})).resolves.toMatchObject({ data: { ok: true } });
  });

  it("with connections: 1 held by a stalled exchange, a queued call still ends at its own timeout, abort or deadline", async () => {
    let requests = 0;
    const origin = await listen((req, res) => {
      requests += 1;
      req.resume();
      if (requests === 1) return; // the first request holds the only connection, unanswered
      answer(res, 200, '{"ok":true}');
    });
    owned = await createNodeTransport({ connections: 1 });
    const runtime = createRuntime({ baseUrl: origin, ...via(adapter, owned), timeoutMs: 1500, maxRetries: 0 });
    const stalled = runOperation(runtime, classDescriptor("safe"), {}).catch((e: unknown) => e);
    await vi.waitFor(() => expect(requests).toBe(1), { timeout: 1000, interval: 5 });
    const started = performance.now();
    const settle = (promise: Promise<unknown>) =>
      promise.then(
        () => ["resolved", performance.now() - started] as const,
        (error: unknown) => [(error as Error).name, performance.now() - started] as const,
      );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const [timedOut, aborted, late] = await Promise.all([
      settle(runOperation(runtime, classDescriptor("safe"), {}, { timeoutMs: 200 })),
      settle(runOperation(runtime, classDescriptor("safe"), {}, { signal: controller.signal })),
      settle(runOperation(runtime, classDescriptor("safe"), {}, { deadlineMs: 300 })),
    ]);
    expect(timedOut[0]).toBe("TimeoutError");
    expect(timedOut[1]).toBeLessThan(600);
    expect(aborted[0]).toBe("AbortError");
    expect(aborted[1]).toBeLessThan(500);
    expect(late[0]).toBe("TimeoutError");
    expect(late[1]).toBeLessThan(700);
    expect(await stalled).toBeInstanceOf(TimeoutError);
    // None of the queued calls was sent when the connection came free.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(requests).toBe(1);
  });

  it("a caller's abort ends the exchange with AbortError (its reason as cause) and closes its socket", async () => {
    let closed = false;
    const origin = await listen((req) => {
      req.resume();
      req.socket.once("close", () => (closed = true));
    });
    const runtime = createRuntime({ baseUrl: origin, ...via(adapter), maxRetries: 0 });
    const controller = new AbortController();
    const reason = new Error("the user went away");
    const call = runOperation(runtime, classDescriptor("safe"), {}, { signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    setTimeout(() => controller.abort(reason), 50);
    const error = await call;
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toBe(reason);
    await vi.waitFor(() => expect(closed).toBe(true), { timeout: 500, interval: 10 });
  });

  it("a result's headers, built only when read, are the response's as received (repeated names joined)", async () => {
    const origin = await listen((req, res) => {
      req.resume();
      req.on("end", () => {
        res.setHeader("x-multi", ["a", "b"]);
        answer(res, 200, '{"ok":true}', { etag: '"v7"', "x-powercontext-request-id": "req-7" });
      });
    });
    const runtime = createRuntime({ baseUrl: origin, ...via(adapter) });
    const result = await runOperation(runtime, classDescriptor("safe"), {});
    // Read after the call has ended and its body is consumed: nothing was lost by building them late.
    expect(result.headers).toBeInstanceOf(Headers);
    expect(result.headers.get("etag")).toBe('"v7"');
    expect(result.headers.get("x-multi")).toBe("a, b");
    expect(result.headers.get("content-type")).toBe("application/json");
    expect(result.headers).toBe(result.headers);
    expect(result.data).toEqual({ ok: true });
  });

  it("does not follow a redirect: the 3xx is the outcome and the server sees one request", async () => {
    let requests = 0;
    const origin = await listen((req, res) => {
      requests += 1;
      req.resume();
      res.writeHead(302, { location: "/elsewhere", "content-length": "0" });
      res.end();
    });
    const runtime = createRuntime({ baseUrl: origin, ...via(adapter), maxRetries: 0 });
    const error = await runOperation(runtime, classDescriptor("safe"), {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerResponseError);
    expect((error as ServerResponseError).statusCode).toBe(302);
    expect(requests).toBe(1);
  });

  // 16 MiB of zeros compress to about 16 KiB: a Content-Length far below the cap.
  const zeros = Buffer.alloc(16 * 1024 * 1024, 0x20);
  const encodings: Record<string, (data: Buffer) => Buffer> = {
    gzip: (data) => gzipSync(data),
    deflate: (data) => deflateSync(data),
    br: (data) => brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } }),
  };
  it.each(Object.keys(encodings))("caps the decoded body, not the %s bytes on the wire", async (encoding) => {
    const compressed = (encodings[encoding] as (data: Buffer) => Buffer)(zeros);
    expect(compressed.byteLength).toBeLessThan(1024 * 1024);
    const origin = await listen((req, res) => {
      req.resume();
      answer(res, 200, compressed, { "content-encoding": encoding });
    });
    const runtime = createRuntime({ baseUrl: origin, ...via(adapter), maxRetries: 0 });
    const error = await runOperation(runtime, classDescriptor("safe"), {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).issues).toEqual(["body exceeds 1048576 bytes"]);
  });

  it("refuses an answer listing more than five content codings as a broken exchange, before decoding any", async () => {
    // Six layers of gzip, each one undone would be a decoder: fetch refuses the list, and so must every adapter.
    let body = Buffer.from('{"ok":true}');
    for (let layer = 0; layer < 6; layer += 1) body = gzipSync(body);
    const origin = await listen((req, res) => {
      req.resume();
      answer(res, 200, body, { "content-encoding": Array(6).fill("gzip").join(", ") });
    });
    const runtime = createRuntime({ baseUrl: origin, ...via(adapter), maxRetries: 0 });
    const error = await runOperation(runtime, classDescriptor("safe"), {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).phase).toBe("exchange");
    expect(causes(error)).toContain("too many content-encodings in response: 6, maximum allowed is 5");
  });

  it("refuses 3,000 content codings at once, without building their decoders", async () => {
    const body = gzipSync(Buffer.from('{"ok":true}'));
    const origin = await listen((req, res) => {
      req.resume();
      answer(res, 200, body, { "content-encoding": Array(3000).fill("gzip").join(",") });
    });
    const runtime = createRuntime({ baseUrl: origin, ...via(adapter), maxRetries: 0 });
    const error = await runOperation(runtime, classDescriptor("safe"), {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(causes(error)).toContain("too many content-encodings in response: 3000, maximum allowed is 5");
  });

  it("accepts five content codings", async () => {
    let body = Buffer.from('{"ok":true}');
    for (let layer = 0; layer < 5; layer += 1) body = gzipSync(body);
    const origin = await listen((req, res) => {
      req.resume();
      answer(res, 200, body, { "content-encoding": Array(5).fill("gzip").join(", ") });
    });
    const runtime = createRuntime({ baseUrl: origin, ...via(adapter), maxRetries: 0 });
    await expect(runOperation(runtime, classDescriptor("safe"), {})).resolves.toMatchObject({ data: { ok: true } });
  });

  it.each(Object.keys(encodings))("decodes a %s body within the cap", async (encoding) => {
    const compressed = (encodings[encoding] as (data: Buffer) => Buffer)(Buffer.from('{"ok":true}'));
    const origin = await listen((req, res) => {
      req.resume();
      answer(res, 200, compressed, { "content-encoding": encoding });
    });
    const runtime = createRuntime({ baseUrl: origin, ...via(adapter), maxRetries: 0 });
    await expect(runOperation(runtime, classDescriptor("safe"), {})).resolves.toMatchObject({ data: { ok: true } });
  });
});
