// Cancelling an undici response body that nobody has started to read: the
// body must go away quietly. undici destroys a body whose end was not yet
// consumed with an AbortError; with no listener on the stream, that error
// escaped as an uncaught exception after the call had already ended with its
// own timeout.
import { createServer, type Server } from "node:http";
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

/** A server that sends a whole small body at once. */
async function wholeBody(): Promise<string> {
  server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": "5" });
    res.end("[1,2]");
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
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

describe("the undici adapter's cancel", () => {
  it("on a body never read, raises nothing when the attempt's limit passes before the first read", async () => {
    const url = await wholeBody();
    const errors = await uncaughtDuring(async () => {
      const response = await undiciTransport().send({ method: "GET", url, headers: {}, body: undefined, timeoutMs: 80, signal: undefined });
      await new Promise((resolve) => setTimeout(resolve, 150));
      await expect(response.read()).rejects.toMatchObject({ code: ATTEMPT_TIMEOUT });
    });
    expect(errors).toEqual([]);
  });

  it("called directly on a body never read, raises nothing", async () => {
    const url = await wholeBody();
    const errors = await uncaughtDuring(async () => {
      const response = await undiciTransport().send({ method: "GET", url, headers: {}, body: undefined, timeoutMs: 5000, signal: undefined });
      response.cancel();
      await expect(response.read()).resolves.toBeNull();
    });
    expect(errors).toEqual([]);
  });
});
