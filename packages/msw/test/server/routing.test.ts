import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockServer, type MockServer } from "../../src/server/start.js";

// What the released server's router answers before any operation runs, measured on a
// 1.4.1 server with authentication on (docs/compatibility.md, "Routing"): statuses,
// headers and the framework's {"detail": ...} bodies (x-powercontext-router.framework-bodies).

interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ seed: 1, simulatorOptions: { scopes: ["s1"] } });
});
afterAll(async () => {
  await server.close();
});

/** One raw HTTP exchange (node:http sends any method, HEAD and TRACE included, and never follows a redirect). */
function send(method: string, path: string, token: string | null = "pc-admin", body?: string): Promise<Answer> {
  const url = new URL(server.url);
  const headers: Record<string, string> = token === null ? {} : { Authorization: `Bearer ${token}` };
  if (body !== undefined)
    Object.assign(headers, { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)) });
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const envelope = (code: string, message: string) => ({ error: { code, message, details: null } });
const NOT_FOUND = { detail: "Not Found" };
const NOT_ALLOWED = { detail: "Method Not Allowed" };
const UNAUTHORIZED = envelope("unauthorized", "A valid credential is required.");

describe("routing without a credential: the release authenticates before it routes", () => {
  it.each([
    ["GET", "/v1/no-such-route"],
    ["GET", "/v1/scopes/"],
    ["DELETE", "/v1/scopes"],
    ["GET", "/health/live/"],
    ["GET", "/openapi.jsonx"],
  ])("%s %s is 401 unauthorized with WWW-Authenticate", async (method, path) => {
    const answer = await send(method, path, null);
    expect(answer.status).toBe(401);
    expect(answer.headers["www-authenticate"]).toBe("Bearer");
    expect(answer.headers["x-powercontext-request-id"]).toMatch(/^req_/);
    expect(JSON.parse(answer.text)).toEqual(UNAUTHORIZED);
  });

  it("a browser's preflight (no token) is 401: the release has no CORS", async () => {
    const answer = await send("OPTIONS", "/v1/memory/flush", null);
    expect(answer.status).toBe(401);
    expect(answer.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("a body declared over the limit is 413 before the credential, on any path and method", async () => {
    const url = new URL(server.url);
    for (const [method, path] of [
      ["POST", "/v1/no-such-route"],
      ["GET", "/health/live"],
      ["POST", "/v1/memory/flush"],
    ] as const) {
      const answer = await new Promise<Answer>((resolve, reject) => {
        const req = httpRequest(
          { host: url.hostname, port: url.port, method, path, headers: { "Content-Length": String(17 * 1024 * 1024) } },
          (res) => {
            let text = "";
            res.setEncoding("utf8");
            res.on("data", (chunk: string) => (text += chunk));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
          },
        );
        req.on("error", reject);
        req.write("{");
      });
      expect([method, path, answer.status]).toEqual([method, path, 413]);
      expect(JSON.parse(answer.text)).toMatchObject({ error: { code: "request_too_large", details: null } });
      expect(answer.headers["x-powercontext-request-id"]).toMatch(/^req_/);
    }
  });

  it("an unknown token is refused like none", async () => {
    const answer = await send("GET", "/v1/no-such-route", "not-a-token");
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.text)).toEqual(UNAUTHORIZED);
  });

  it("routes the public paths without one: the root is 404, a probe's other method 405", async () => {
    const root = await send("GET", "/", null);
    expect(root.status).toBe(404);
    expect(JSON.parse(root.text)).toEqual(NOT_FOUND);
    const probe = await send("POST", "/health/live", null);
    expect(probe.status).toBe(405);
    expect(probe.headers.allow).toBe("GET");
    expect(JSON.parse(probe.text)).toEqual(NOT_ALLOWED);
  });
});

describe("routing with a credential", () => {
  it("answers a path no route has with 404, the framework's body and a request id", async () => {
    for (const path of ["/v1/no-such-route", "/v1//scopes", "/v1/scopes/s1/nothing"]) {
      const answer = await send("GET", path);
      expect(answer.status, path).toBe(404);
      expect(answer.headers["content-type"]).toBe("application/json");
      expect(answer.headers["x-powercontext-request-id"]).toMatch(/^req_/);
      expect(JSON.parse(answer.text)).toEqual(NOT_FOUND);
    }
  });

  it("answers a method the path does not take with 405 and Allow naming the first route the release registers there", async () => {
    const cases: [string, string, string][] = [
      ["DELETE", "/v1/scopes", "GET"], // list_scopes is registered before create_scope
      ["PATCH", "/v1/scopes/s1", "GET"],
      ["DELETE", "/v1/scopes/default", "GET"], // get_default_scope, before the {scope_id} routes
      ["DELETE", "/v1/scopes/s1/artifact-handles/notes/k", "PUT"], // bind_artifact_handle comes first
      ["DELETE", "/v1/scopes/s1/dream", "POST"], // create_dream_run comes first
      ["GET", "/v1/memory/flush", "POST"],
      ["TRACE", "/v1/scopes", "GET"],
    ];
    for (const [method, path, allow] of cases) {
      const answer = await send(method, path);
      expect([method, path, answer.status, answer.headers.allow]).toEqual([method, path, 405, allow]);
      expect(JSON.parse(answer.text)).toEqual(NOT_ALLOWED);
    }
  });

  it("treats OPTIONS as a method like any other: 405 with Allow, 404 elsewhere", async () => {
    const onRoute = await send("OPTIONS", "/v1/scopes");
    expect([onRoute.status, onRoute.headers.allow, JSON.parse(onRoute.text)]).toEqual([405, "GET", NOT_ALLOWED]);
    const elsewhere = await send("OPTIONS", "/v1/no-such-route");
    expect([elsewhere.status, JSON.parse(elsewhere.text)]).toEqual([404, NOT_FOUND]);
  });

  it("treats HEAD as a method of its own: 405 on a GET route, 404 elsewhere, no body", async () => {
    const onRoute = await send("HEAD", "/v1/scopes");
    expect([onRoute.status, onRoute.headers.allow, onRoute.text]).toEqual([405, "GET", ""]);
    const elsewhere = await send("HEAD", "/v1/no-such-route");
    expect([elsewhere.status, elsewhere.text]).toEqual([404, ""]);
  });

  it("redirects a trailing slash with 307 to the absolute URL without it, query kept, empty body", async () => {
    const answer = await send("GET", "/v1/scopes/?limit=2&x=%20y");
    expect(answer.status).toBe(307);
    expect(answer.headers.location).toBe(`${server.url}/v1/scopes?limit=2&x=%20y`);
    expect(answer.headers["content-length"]).toBe("0");
    expect(answer.headers["content-type"]).toBeUndefined();
    expect(answer.headers["x-powercontext-request-id"]).toMatch(/^req_/);
    expect(answer.text).toBe("");
    for (const [method, path, location] of [
      ["GET", "/v1/scopes//", "/v1/scopes"],
      ["POST", "/v1/scopes/", "/v1/scopes"],
      ["DELETE", "/v1/scopes/", "/v1/scopes"],
      ["GET", "/health/ready/", "/health/ready"],
      ["POST", "/v1/memory/flush/", "/v1/memory/flush"],
    ] as const) {
      const other = await send(method, path);
      expect([method, path, other.status, other.headers.location]).toEqual([
        method,
        path,
        307,
        `${server.url}${location}`,
      ]);
    }
  });

  it("does not redirect to a route the release matches against the raw path (under /v1/scopes/): 404", async () => {
    for (const path of ["/v1/scopes/s1/", "/v1/scopes/s1/sources/", "/v1/scopes/default/"]) {
      const answer = await send("GET", path);
      expect([path, answer.status]).toEqual([path, 404]);
      expect(JSON.parse(answer.text)).toEqual(NOT_FOUND);
    }
  });

  it("hands every method and path of an operation to the operation", async () => {
    const scope = await send("GET", "/v1/scopes/s1");
    expect(scope.status).toBe(200);
    expect((JSON.parse(scope.text) as { scope_id: string }).scope_id).toBe("s1");
    const anonymous = await send("GET", "/v1/scopes/s1", null);
    expect(anonymous.status).toBe(401);
  });
});
