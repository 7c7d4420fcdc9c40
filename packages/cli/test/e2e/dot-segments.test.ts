import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./harness.js";

/** A loopback server that records every request path and answers 404. */
let server: Server;
let url: string;
const paths: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    paths.push(request.url ?? "");
    response
      .writeHead(404, { "content-type": "application/json" })
      .end('{"error":{"code":"not_found","message":"no","details":null}}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("an Operation id that is a dot segment", () => {
  it.each([
    ["get", ".."],
    ["get", "%2e%2e"],
    ["retry", ".", "--expected-version", "1"],
  ])("operations %s %j is refused as bad usage and sends nothing", async (...args) => {
    const before = paths.length;
    const run = await runCli(["operations", ...args], { url });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^error: invalid request: \/operation_id must not be a dot segment\n$/);
    expect(paths.slice(before)).toEqual([]);
  });

  it("sends an id that only looks like dots as one segment", async () => {
    const before = paths.length;
    const run = await runCli(["operations", "get", "..."], { url });
    expect(run.code).toBe(1);
    expect(paths.slice(before)).toEqual(["/v1/operations/..."]);
  });
});
