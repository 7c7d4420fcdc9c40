// The client never changes what the server sent. A short token (`e`, `test`) also spells
// ordinary words and member names; redaction must not rewrite them in success bodies, in
// text answers or in the messages of errors. The token is still kept out of errors where
// the server echoes it in its exact header spelling, and a token long enough to be told
// apart from ordinary text is removed from error bodies wherever it stands.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServerResponseError } from "@powercontext/runtime";
import { PowerContextClient } from "../../src/client.js";

const SCOPE = {
  scope_id: "scp_0123456789abcdef0123456789abcdef",
  title: "test scope",
  summary: "all unit test runs passed; no step skipped",
  parent_scope_id: null,
  context_references: ["ope-notes"],
  external_references: [],
  version: 1,
};

let server: Server;
let baseUrl: string;

/** Answers GET /v1/scopes/default with a Scope, and anything else with an error echoing what it was told to. */
function handler(req: IncomingMessage, res: ServerResponse): void {
  const authorization = req.headers.authorization ?? "";
  const token = authorization.replace(/^Bearer /, "");
  const headers = { "content-type": "application/json", "x-powercontext-request-id": "req-1" };
  if (req.url === "/v1/scopes/default") {
    res.writeHead(200, headers);
    res.end(JSON.stringify(SCOPE));
    return;
  }
  if (req.url === "/v1/scopes/echo-header") {
    res.writeHead(404, headers);
    const message = `no step for ${authorization}`;
    res.end(JSON.stringify({ error: { code: "scope_not_found", message, details: { seen: authorization } } }));
    return;
  }
  res.writeHead(404, headers);
  const message = `Cannot read properties of undefined; no step named ${token}`;
  res.end(JSON.stringify({ error: { code: "scope_not_found", message, details: { token } } }));
}

beforeAll(async () => {
  server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const transports = {
  "the Node default transport": (token: string) => new PowerContextClient({ baseUrl, token, maxRetries: 0 }),
  "the fetch adapter": (token: string) =>
    new PowerContextClient({ baseUrl, token, maxRetries: 0, fetch: (url, init) => fetch(url, init) }),
};

describe.each(Object.entries(transports))("on %s", (_name, clientFor) => {
  it.each(["e", "id", "ope", "test", "scope_id"])(
    "a success body comes back exactly as sent with the token %j",
    async (token) => {
      const client = clientFor(token);
      for (let call = 0; call < 5; call += 1) expect(await client.getDefaultScope()).toEqual(SCOPE);
      const { data } = await client.getDefaultScope().withResponse();
      expect(JSON.stringify(data)).toBe(JSON.stringify(SCOPE));
    },
  );

  it("an error message keeps its words with a short token, and loses the token's header spelling", async () => {
    const short = clientFor("t");
    const error = (await short.getScope({ scope_id: "missing" }).catch((e: unknown) => e)) as ServerResponseError;
    expect(error).toBeInstanceOf(ServerResponseError);
    expect(error.serverMessage).toBe("Cannot read properties of undefined; no step named t");
    const echoed = (await short.getScope({ scope_id: "echo-header" }).catch((e: unknown) => e)) as ServerResponseError;
    expect(echoed.serverMessage).toBe("no step for [REDACTED]");
    expect(echoed.details).toEqual({ seen: "[REDACTED]" });
  });

  it("a token of 8 characters or more is removed from an error body wherever it stands", async () => {
    const token = "pc-secret-7c1e";
    const error = (await clientFor(token)
      .getScope({ scope_id: "missing" })
      .catch((e: unknown) => e)) as ServerResponseError;
    expect(error.serverMessage).toBe("Cannot read properties of undefined; no step named [REDACTED]");
    expect(error.details).toEqual({ token: "[REDACTED]" });
    expect(JSON.stringify(error)).not.toContain(token);
  });
});

it("a success body holding a long token is not rewritten either: it is the caller's data", async () => {
  const token = "pc-secret-7c1e";
  const echo = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "x-powercontext-request-id": "req-2" });
    res.end(JSON.stringify({ ...SCOPE, summary: `saved ${token}` }));
  });
  await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
    const client = new PowerContextClient({ baseUrl: url, token, maxRetries: 0 });
    expect((await client.getDefaultScope()).summary).toBe(`saved ${token}`);
  } finally {
    echo.closeAllConnections();
    await new Promise((resolve) => echo.close(resolve));
  }
});
