// A server that reflects the bearer token in other spellings: in response headers, JSON
// escapes (\u, \/), percent-encoding, or right at the error body's 8 KiB cut. None of it
// reaches withResponse() headers, middleware, or an error's body.
import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/core/runtime.js";
import { secretSpellings } from "../../src/core/redact-answer.js";
import { InvalidResponseError, ServerResponseError } from "../../src/errors.js";
import { callWithResponse } from "../../src/operations/submit.js";
import { descriptor } from "../helpers/descriptors.js";
import { scripted } from "@powercontext/runtime/testing";

const TOKEN = "s3cr3t+tok/en=XYZ";
const plain = descriptor({ operationId: "get_thing", method: "GET", requestLocation: null, errorStatuses: [404] });
const runtimeFor = (answer: Response, middleware: unknown[] = []) => {
  const server = scripted(answer);
  return createRuntime({
    baseUrl: "https://pc.example.com",
    token: TOKEN,
    fetch: server.fetch,
    maxRetries: 0,
    middleware: middleware as never,
  });
};
const failure = async (answer: Response) => {
  const error = await callWithResponse(runtimeFor(answer), plain, undefined).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ServerResponseError);
  return error as ServerResponseError;
};
const escaped = [...TOKEN].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");

describe("echoed secrets in other spellings", () => {
  it("are removed from the headers withResponse() gives, and from what onResponse middleware sees", async () => {
    const seen: string[] = [];
    const headers = {
      "content-type": "application/json",
      "x-echo": `Bearer ${TOKEN}`,
      "x-encoded": encodeURIComponent(TOKEN),
    };
    const runtime = runtimeFor(new Response("{}", { status: 200, headers }), [
      {
        onResponse: ({ response }: { response: { headers: Headers } }) => void seen.push(...response.headers.values()),
      },
    ]);
    const { response } = await callWithResponse(runtime, plain, undefined);
    const values = [...response.headers.values()].join("\n");
    expect(response.headers.get("x-echo")).toContain("[REDACTED]");
    expect(values).not.toContain(TOKEN);
    expect(values).not.toContain(encodeURIComponent(TOKEN));
    expect(seen.join("\n")).toContain("[REDACTED]");
    expect(seen.join("\n")).not.toContain(TOKEN);
  });

  it.each([
    ["JSON \\u escapes", `{"detail":"auth ${escaped}"}`],
    ["a JSON \\/ escape", JSON.stringify({ detail: `auth ${TOKEN}` }).replace("/", "\\/")],
    ["percent-encoding in an HTML page", `<html>/x?t=${encodeURIComponent(TOKEN)}</html>`],
    [
      "lower-case percent-encoding",
      `<p>${encodeURIComponent(TOKEN).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())}</p>`,
    ],
    ["the 8 KiB cut through the token", `${"x".repeat(8 * 1024 - 5)}${TOKEN}`],
    ["a member given twice, the second hiding the first", `{"detail":"auth ${escaped}","detail":"x"}`],
    [
      "one \\u escape in JSON cut short",
      `{"detail":"auth ${TOKEN.slice(0, 3)}\\u00${TOKEN.charCodeAt(3).toString(16)}${TOKEN.slice(4)}`,
    ],
  ])("are removed from a non-envelope error body: %s", async (_label, text) => {
    const error = await failure(new Response(text, { status: 404, headers: { "content-type": "text/html" } }));
    const body = error.body ?? "";
    expect(body).not.toContain(TOKEN);
    expect(body).not.toContain(TOKEN.slice(0, 5));
    expect(body.toLowerCase()).not.toContain(encodeURIComponent(TOKEN).toLowerCase());
    let decoded = body;
    try {
      // JSON.stringify writes every character of a parsed string as itself (a \u escape undone).
      decoded = JSON.stringify(JSON.parse(body));
    } catch {
      // not JSON
    }
    expect(decoded).not.toContain(TOKEN);
    // Nor in escapes that parsing would drop or cannot reach (a repeated member, a cut text).
    expect(
      body.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    ).not.toContain(TOKEN);
    expect(new TextEncoder().encode(body).byteLength).toBeLessThanOrEqual(8 * 1024);
  });

  it("keeps a body without secrets as the server wrote it", async () => {
    const error = await failure(new Response('{ "detail" : "Not Found" }', { status: 404 }));
    expect(error.body).toBe('{ "detail" : "Not Found" }');
  });
});

describe("secretSpellings", () => {
  it("spells a list once: every answer of a client reuses the same list", () => {
    const secrets = [TOKEN, `Bearer ${TOKEN}`];
    const first = secretSpellings(secrets);
    expect(secretSpellings(secrets)).toBe(first);
    expect(first).toEqual(
      expect.arrayContaining([TOKEN, "s3cr3t%2Btok%2Fen%3DXYZ", "s3cr3t%2btok%2fen%3dXYZ", "s3cr3t+tok\\/en=XYZ"]),
    );
    // A different list with the same secrets gets its own, equal spelling.
    expect(secretSpellings([...secrets])).toEqual(first);
    expect(secretSpellings([])).toEqual([]);
  });

  it("are removed from a content type the contract does not declare, in the case it was sent and before the quote is cut", async () => {
    const mixed = "PcTestABC123xyz";
    for (const contentType of [`text/x-${mixed}`, `text/x-${"a".repeat(90)}${mixed}`]) {
      const server = scripted(new Response("{}", { status: 200, headers: { "content-type": contentType } }));
      const runtime = createRuntime({
        baseUrl: "https://pc.example.com",
        token: mixed,
        fetch: server.fetch,
        maxRetries: 0,
      });
      const error = await callWithResponse(runtime, plain, undefined).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidResponseError);
      const text = `${(error as Error).message} ${(error as Error).stack}`;
      expect(text).toContain("[RE"); // the redaction mark, cut with the quote in the long one
      for (const part of [mixed, mixed.toLowerCase(), mixed.slice(0, 6), mixed.toLowerCase().slice(0, 6)])
        expect(text).not.toContain(part);
    }
  });
});

describe("a runtime, and a client holding one", () => {
  it("shows the token to no inspection, serialisation or enumeration, and still sends it", async () => {
    const { inspect } = await import("node:util");
    const { PowerContextClient } = await import("@powercontext/sdk");
    const server = scripted(
      new Response('{"status":"ok"}', { status: 200, headers: { "content-type": "application/json" } }),
    );
    const runtime = createRuntime({ baseUrl: "https://pc.example.com", token: TOKEN, fetch: server.fetch });
    const client = new PowerContextClient({ baseUrl: "https://pc.example.com", token: TOKEN, fetch: server.fetch });
    for (const value of [runtime, client]) {
      const views = [
        inspect(value, { depth: 8 }),
        JSON.stringify(value, (_key, v: unknown) => (typeof v === "function" ? "fn" : v)),
        JSON.stringify(Object.entries(value)),
      ];
      for (const view of views) expect(view).not.toContain(TOKEN);
    }
    expect(runtime.token).toBe(TOKEN);
    await client.getLiveness();
    expect(server.seen[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });
});
