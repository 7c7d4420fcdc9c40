import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_MAX_REQUEST_BODY_BYTES } from "../../src/server/body-limit.js";
import { startMockServer, type MockServer } from "../../src/server/start.js";

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ENVELOPE = { error: { code: "request_too_large", message: expect.any(String), details: null } };
const capture = (content: string) => JSON.stringify({ scope_id: "s1", source_id: "a", content });

/** Sends only the head of a request declaring `length` body bytes, plus `sent` bytes of it; resolves with the raw answer. */
function declareLength(url: string, length: number, sent: number): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let text = "";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within 5 s; got ${JSON.stringify(text)}`));
    }, 5_000);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      text += chunk;
      const [head, body] = text.split("\r\n\r\n");
      const declared = /content-length: (\d+)/i.exec(head ?? "");
      if (declared && body !== undefined && Buffer.byteLength(body) >= Number(declared[1])) {
        clearTimeout(timer);
        socket.destroy();
        resolve(text);
      }
    });
    socket.on("error", reject);
    socket.write(
      `POST /v1/sources/content HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer pc-admin\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n` +
        "x".repeat(sent),
    );
  });
}

/** Streams a chunked body of up to `maxBytes` until the server answers; resolves with the answer and the bytes written. */
function streamUntilAnswered(url: string, maxBytes: number) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: unknown; written: number }>(
    (resolve, reject) => {
      const req = httpRequest(`${url}/v1/sources/content`, {
        method: "POST",
        headers: {
          Authorization: "Bearer pc-admin",
          "Content-Type": "application/json",
          "Transfer-Encoding": "chunked",
        },
      });
      let written = 0;
      let answered = false;
      const chunk = Buffer.alloc(16 * 1024, 0x20);
      const pump = () => {
        while (!answered && written < maxBytes) {
          written += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
        if (!answered) req.end();
      };
      req.on("response", (res) => {
        answered = true;
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (part: string) => (text += part));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text), written }),
        );
      });
      req.on("error", (error) => {
        if (!answered) reject(error);
      });
      req.setTimeout(10_000, () => req.destroy(new Error("no answer within 10 s")));
      pump();
    },
  );
}

describe("request-body limit of the HTTP mock server", () => {
  it("refuses a declared 300 MiB body with 413 and the envelope before reading it", async () => {
    server = await startMockServer();
    const raw = await declareLength(server.url, 300 * 1024 * 1024, 1024);
    const [head, body] = raw.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 413 /);
    expect(head).toMatch(/x-powercontext-request-id: req_\w+/i);
    expect(head).toMatch(/connection: close/i);
    expect(JSON.parse(body ?? "")).toEqual(ENVELOPE);
    expect(server.simulator.inspect.snapshot()).toMatchObject({ scopes: [] });
  });

  it("stops reading a streamed body at the limit and answers before the client has sent it all", async () => {
    server = await startMockServer({ maxRequestBodyBytes: 64 * 1024 });
    const buffersBefore = process.memoryUsage().arrayBuffers;
    const answer = await streamUntilAnswered(server.url, 256 * 1024 * 1024);
    // Server and client share this process: neither side may end up holding the upload.
    expect(process.memoryUsage().arrayBuffers - buffersBefore).toBeLessThan(32 * 1024 * 1024);
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual(ENVELOPE);
    expect(answer.headers["x-powercontext-request-id"]).toMatch(/^req_/);
    expect(answer.written).toBeLessThan(64 * 1024 * 1024);
    // The server still answers normally afterwards.
    const live = await fetch(`${server.url}/health/live`);
    expect(live.status).toBe(200);
  });

  it("reads a body of exactly the limit and refuses one byte more", async () => {
    const body = capture("x".repeat(1000));
    server = await startMockServer({
      maxRequestBodyBytes: Buffer.byteLength(body),
      simulatorOptions: { scopes: ["s1"] },
    });
    const send = (text: string) =>
      fetch(`${server!.url}/v1/sources/content`, {
        method: "POST",
        headers: { Authorization: "Bearer pc-admin", "Content-Type": "application/json" },
        body: text,
      });
    expect((await send(body)).status).toBe(202);
    const refused = await send(capture("x".repeat(1001)));
    expect(refused.status).toBe(413);
    expect(await refused.json()).toEqual(ENVELOPE);
    expect(DEFAULT_MAX_REQUEST_BODY_BYTES).toBe(16 * 1024 * 1024);
  });

  it("rejects a limit that is not a positive integer", async () => {
    await expect(startMockServer({ maxRequestBodyBytes: 0 })).rejects.toThrow(RangeError);
  });
});
