import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { ClientError, openTelemetry, type FetchLike, type SpanAttributeValue } from "@powercontext/runtime";
import { PowerContextClient } from "../../src/client.js";

// A server that reflects the bearer token into every field it can: envelope
// code, message, detail keys and values (nested, and once spelled with JSON
// escapes), the request-id header, Location, operation ids and every string
// of an Operation. Nothing the SDK hands out or reports may hold the token.
const TOKEN = "pcTok-9f1c7e2b4a6d8035";
const BASE = "https://pc.example.com";

/** The token written with JSON `\u` escapes, which JSON.parse turns back into the token. */
const ESCAPED = [...TOKEN].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");

function tokenOf(headers: Record<string, string>): string {
  return (headers.authorization ?? "").replace(/^Bearer /, "");
}

function headersFor(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return { "content-type": "application/json", "x-powercontext-request-id": `req-${token}`, ...extra };
}

function operation(token: string, status: string, version: number): Record<string, unknown> {
  return {
    operation_id: `op-${token}`,
    kind: "memory_flush",
    scope_id: `scope ${token}`,
    status,
    version,
    created_at: "2026-11-30T10:00:00Z",
    updated_at: "2026-11-30T10:00:01Z",
    started_at: null,
    finished_at: null,
    attempt_count: 1,
    error: status === "failed" ? { category: "storage", code: "storage_unavailable" } : null,
    result: null,
  };
}

/** The error envelope with the token in every string and member name; the escaped spelling once. */
function envelopeText(token: string, code: string, details: Record<string, unknown> = {}): string {
  const body = JSON.stringify({
    error: {
      code,
      message: `no access for ${token}`,
      details: {
        ...details,
        [`key-${token}`]: { [token]: [`deep ${token}`, { [`k${token}`]: token }] },
        escaped: "@ESCAPED@",
      },
    },
  });
  return body.replace('"@ESCAPED@"', `"${ESCAPED}"`);
}

/** The echoing server: `/v1/memory/flush` answers 202, operations stay running, everything else errs. */
const echoingServer: FetchLike = async (url, init) => {
  const token = tokenOf(init.headers);
  const path = new URL(url).pathname;
  if (path === "/v1/memory/flush") {
    return new Response(JSON.stringify(operation(token, "queued", 1)), {
      status: 202,
      headers: headersFor(token, { location: `/v1/operations/op-${token}`, "retry-after": "0" }),
    });
  }
  if (path.startsWith("/v1/operations/") && path.endsWith("/cancel")) {
    return new Response(envelopeText(token, "version_conflict", { current_version: 7 }), {
      status: 409,
      headers: headersFor(token),
    });
  }
  if (path.startsWith("/v1/operations/") && init.method === "GET") {
    return new Response(JSON.stringify(operation(token, "running", 2)), { status: 200, headers: headersFor(token) });
  }
  if (path === "/v1/memory/search") {
    // A success body breaking the schema at a member named after the token.
    return new Response(JSON.stringify({ hits: [], [token]: { [token]: token } }), {
      status: 200,
      headers: headersFor(token),
    });
  }
  return new Response(envelopeText(token, `unavailable_${token}`), {
    status: 503,
    headers: headersFor(token, { "retry-after": "0" }),
  });
};

/** Every way an error can be turned into text. */
function renderings(error: unknown): string {
  const e = error as Error & Record<string, unknown>;
  return [
    String(e),
    JSON.stringify(e),
    inspect(e, { depth: Infinity, showHidden: true }),
    e.stack ?? "",
    ...Object.getOwnPropertyNames(e).map((key) => `${key}=${inspect(e[key], { depth: Infinity })}`),
  ].join("\n");
}

function observedClient() {
  const seen: string[] = [];
  const attributes: Array<[string, SpanAttributeValue]> = [];
  const record = (label: string) => (message: string, fields?: Record<string, unknown>) =>
    seen.push(label, message, inspect(fields, { depth: Infinity }));
  const tracer = {
    startSpan: (name: string, options?: { attributes?: Record<string, SpanAttributeValue> }) => {
      seen.push(name, JSON.stringify(options));
      return {
        setAttribute: (key: string, value: SpanAttributeValue) => attributes.push([key, value]),
        setStatus: (status: { code: number; message?: string }) => seen.push(JSON.stringify(status)),
        end: () => undefined,
      };
    },
  };
  const client = new PowerContextClient({
    baseUrl: BASE,
    token: TOKEN,
    fetch: echoingServer,
    maxRetries: 2,
    retry: { baseDelayMs: 0, maxDelayMs: 0 },
    minPollIntervalMs: 1,
    maxPollIntervalMs: 5,
    logger: { warn: record("warn"), debug: record("debug") },
    onRetry: (event) => seen.push(inspect(event)),
    telemetry: openTelemetry({ tracer }),
  });
  return { client, seen, attributes };
}

describe("a token the server reflects is redacted everywhere", () => {
  const calls: Array<[string, (client: PowerContextClient) => Promise<unknown>]> = [
    [
      "a retried 503 whose envelope code, message, detail keys and request id hold the token",
      (c) => c.getCapabilities(),
    ],
    [
      "a 409 version_conflict with the token in its details",
      (c) => c.cancelOperation({ operation_id: "op-1", expected_version: 1 }),
    ],
    [
      "a 202 whose Location and Operation ids hold the token, polled to the deadline",
      (c) => c.flushMemory({ scope_id: "s" }, { deadlineMs: 1000 }),
    ],
    ["waitForOperation on an Operation full of the token", (c) => c.waitForOperation("op-1", { deadlineMs: 1000 })],
    [
      "a success body that breaks the schema at a member named after the token",
      (c) => c.searchMemory({ scope_id: "s", query: "q" }),
    ],
  ];

  it.each(calls)("%s", async (_label, call) => {
    const { client, seen, attributes } = observedClient();
    const error = await call(client).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ClientError);
    const text = renderings(error);
    // The server did reflect it: the redaction marker shows where.
    expect(text).toContain("[REDACTED]");
    expect(text).not.toContain(TOKEN);
    expect(seen.join("\n")).not.toContain(TOKEN);
    expect(attributes.map(([key, value]) => `${key}=${String(value)}`).join("\n")).not.toContain(TOKEN);
  });

  it("redacts member names and the escaped spelling, keeping the rest of the details", async () => {
    const { client } = observedClient();
    const error = (await client
      .cancelOperation({ operation_id: "op-1", expected_version: 1 })
      .catch((caught: unknown) => caught)) as {
      code: string;
      details: Record<string, unknown>;
      requestId: string;
    };
    expect(error.code).toBe("version_conflict");
    expect(error.requestId).toBe("req-[REDACTED]");
    expect(error.details).toEqual({
      current_version: 7,
      "key-[REDACTED]": { "[REDACTED]": ["deep [REDACTED]", { "k[REDACTED]": "[REDACTED]" }] },
      escaped: "[REDACTED]",
    });
  });

  it("redacts the operation id taken from Location and the Operation it reports", async () => {
    const { client } = observedClient();
    const error = (await client
      .flushMemory({ scope_id: "s" }, { deadlineMs: 1000 })
      .catch((caught: unknown) => caught)) as {
      operationId: string;
      lastKnown: Record<string, unknown> | null;
    };
    expect(error.operationId).toBe("op-[REDACTED]");
    expect(error.lastKnown?.scope_id).toBe("scope [REDACTED]");
  });
});

describe("a token quoted in an invalid success body's issues", () => {
  async function failure(token: string, body: string): Promise<string> {
    const fetch: FetchLike = async () =>
      new Response(body, { status: 200, headers: { "content-type": "application/json" } });
    const client = new PowerContextClient({ baseUrl: BASE, token, fetch, maxRetries: 0 });
    const error = await client.getReadiness().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ClientError);
    expect((error as Error).name).toBe("InvalidResponseError");
    return renderings(error);
  }

  it("is redacted when a member name spells it as a JSON Pointer segment (~0, ~1)", async () => {
    const token = "abc/DEF+ghi~jkl==";
    const text = await failure(token, JSON.stringify({ status: "ready", checks: { [token]: 1 } }));
    expect(text).toContain("/checks/[REDACTED] must be string");
    expect(text).not.toContain("abc~1DEF+ghi~0jkl==");
    expect(text).not.toContain("ghi~0jkl");
  });

  it.each([
    ["the whole literal", "98765432109876543210", (token: string) => token],
    [
      "longer than the 40 characters an issue quotes",
      "123456789012345678901234567890123456789012345678",
      (token: string) => token,
    ],
    ["inside a longer literal", "123456789012345678901234567890", (token: string) => `9999999999999${token}`],
  ])("is redacted when an all-digit token is %s of an unsafe integer", async (_case, token, literal) => {
    const text = await failure(token, `{"status":"ready","checks":{},"x":${literal(token)}}`);
    expect(text).toMatch(/integer \d*\[REDACTED\] is outside/);
    expect(text).not.toContain(token.slice(0, 16));
  });
});

describe("a token in a caller's header name", () => {
  it("is never quoted by the refusal, made at construction or for a call", async () => {
    const token = "pc_live_SECRET123";
    const line = `Authorization: Bearer ${token}`;
    const fetch: FetchLike = async () => new Response("{}");
    const made = (() => {
      try {
        return new PowerContextClient({ baseUrl: BASE, token, fetch, headers: { [line]: "x" } });
      } catch (error) {
        return error;
      }
    })();
    expect((made as Error).name).toBe("ConfigurationError");
    expect(renderings(made)).not.toContain(token);
    const client = new PowerContextClient({ baseUrl: BASE, token, fetch, maxRetries: 0 });
    for (const headers of [{ [line]: "x" }, { [token]: "bad\nvalue" }]) {
      const error = await client.getLiveness({ headers }).catch((caught: unknown) => caught);
      expect((error as Error).name).toBe("InvalidRequestError");
      expect(renderings(error)).not.toContain(token);
    }
  });
});

describe("a token spelled otherwise inside an error envelope", () => {
  it("is redacted from its message and details, percent-encoded or as a JSON Pointer", async () => {
    const token = "tok~en/abc+1";
    const envelope = {
      error: {
        code: "version_conflict",
        message: `m ${encodeURIComponent(token)}`,
        details: { current_version: 2, at: `/x/${token.replaceAll("~", "~0").replaceAll("/", "~1")}` },
      },
    };
    const fetch: FetchLike = async () =>
      new Response(JSON.stringify(envelope), { status: 409, headers: { "content-type": "application/json" } });
    const client = new PowerContextClient({ baseUrl: BASE, token, fetch, maxRetries: 0 });
    const error = (await client
      .cancelOperation({ operation_id: "op-1", expected_version: 1 })
      .catch((caught: unknown) => caught)) as {
      serverMessage: string;
      details: Record<string, unknown>;
    };
    expect(error.serverMessage).toBe("m [REDACTED]");
    expect(error.details).toMatchObject({ current_version: 2, at: "/x/[REDACTED]" });
    expect(renderings(error)).not.toContain(encodeURIComponent(token));
  });
});
