import { describe, expect, it } from "vitest";
import { createRuntime } from "../src/core/runtime.js";
import { runOperation } from "../src/core/run-operation.js";
import { ClientError } from "../src/errors.js";
import type { FetchLike } from "../src/transport/fetch-adapter.js";
import { classDescriptor, descriptor } from "./helpers/descriptors.js";
import { envelope, json, scripted, socketClosed } from "@powercontext/runtime/testing";

const TOKEN = "pc_live_SECRET_token_42";

function everything(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== undefined && current !== null; depth += 1) {
    const e = current as Error & Record<string, unknown>;
    parts.push(JSON.stringify(e), String(e), e.message ?? "", e.stack ?? "");
    for (const key of Object.getOwnPropertyNames(e)) parts.push(`${key}=${JSON.stringify(e[key]) ?? String(e[key])}`);
    current = e.cause;
  }
  return parts.join("\n");
}

/** Failures a hostile or buggy transport or server might produce, each echoing the token. */
const failures: Array<[string, FetchLike]> = [
  [
    "fetch error that embeds the request",
    async (url, init) => {
      throw Object.assign(new Error(`boom ${init.headers.authorization}`), {
        request: { url, headers: init.headers },
        cause: Object.assign(new Error(`inner ${TOKEN}`), { code: `E_${TOKEN}` }),
      });
    },
  ],
  [
    "server echoing the token in the envelope",
    async () => envelope(401, "unauthorized", { received: `Bearer ${TOKEN}`, nested: [TOKEN] }),
  ],
  ["server echoing the token in a non-envelope body", async () => new Response(`bad token ${TOKEN}`, { status: 500 })],
  ["invalid success body", async () => new Response(`{"x":${TOKEN}}`, { status: 200 })],
  ["socket closed", async () => Promise.reject(socketClosed())],
  [
    "timeout",
    (_url, init) =>
      new Promise((_resolve, reject) =>
        init.signal.addEventListener("abort", () => reject(new Error(`aborted ${TOKEN}`))),
      ),
  ],
];

describe("the bearer token never leaks", () => {
  const withAndWithoutSignal = failures.flatMap(
    ([label, fetch]) =>
      [
        [label, fetch, false],
        [`${label}, with a caller signal`, fetch, true],
      ] as const,
  );

  it.each(withAndWithoutSignal)("%s", async (_label, fetch, withSignal) => {
    const lines: string[] = [];
    const logger = {
      warn: (message: string, fields?: Record<string, unknown>) => lines.push(message, JSON.stringify(fields)),
      debug: (message: string, fields?: Record<string, unknown>) => lines.push(message, JSON.stringify(fields)),
    };
    const events: string[] = [];
    const runtime = createRuntime({
      baseUrl: "https://pc.example.com",
      token: TOKEN,
      fetch,
      timeoutMs: 20,
      maxRetries: 1,
      retry: { baseDelayMs: 0, maxDelayMs: 0 },
      logger,
      onRetry: (event) => events.push(JSON.stringify(event)),
    });
    const context = withSignal ? { signal: new AbortController().signal } : {};
    const error = await runOperation(runtime, classDescriptor("safe"), { scope_id: "s" }, context).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ClientError);
    expect(everything(error)).not.toContain(TOKEN);
    expect(lines.join("\n")).not.toContain(TOKEN);
    expect(events.join("\n")).not.toContain(TOKEN);
  });

  it("is sent on the wire, and only there", async () => {
    const server = scripted(json(200, {}));
    const runtime = createRuntime({ baseUrl: "https://pc.example.com", token: TOKEN, fetch: server.fetch });
    await runOperation(runtime, descriptor({ operationId: "x" }), {});
    expect(server.seen[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(JSON.stringify(runtime.retry) + JSON.stringify(runtime.baseUrl)).not.toContain(TOKEN);
  });
});
