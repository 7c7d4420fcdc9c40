// The mock server's CORS answers come from the contract: every method and header
// parameter an operation uses is allowed, and the headers a client reads are exposed,
// so a browser page can call every operation (replace_artifact's PUT with If-Match
// included) and read ETag, Location, Retry-After and the request id.
import { afterEach, describe, expect, it } from "vitest";
import { contractOperations } from "../../src/generated/contract.js";
import { buildCorsHeaders, corsHeaders } from "../../src/server/cors.js";
import { startMockServer, type MockServer } from "../../src/server/start.js";

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const split = (value: string | undefined | null) => (value ?? "").split(",").map((part) => part.trim().toLowerCase());

describe("CORS of the mock server", () => {
  it("allows every method and header parameter of the contract, and exposes what a client reads", () => {
    const operations = Object.values(contractOperations);
    const methods = new Set(operations.map((op) => op.method.toLowerCase()));
    const headerParameters = new Set(operations.flatMap((op) => op.parameters.header.map((p) => p.name.toLowerCase())));
    expect(headerParameters).toEqual(new Set(["if-match", "if-none-match"]));
    for (const method of [...methods, "options"])
      expect(split(corsHeaders["Access-Control-Allow-Methods"])).toContain(method);
    for (const name of [
      ...headerParameters,
      "authorization",
      "content-type",
      "traceparent",
      "x-powercontext-dream-contract",
    ])
      expect(split(corsHeaders["Access-Control-Allow-Headers"])).toContain(name);
    for (const name of ["etag", "location", "retry-after", "x-powercontext-request-id"])
      expect(split(corsHeaders["Access-Control-Expose-Headers"])).toContain(name);
    // every header a response declares, optional ones included (the Handoff Report's digests)
    const declared = operations.flatMap((op) => op.responses.flatMap((r) => r.headers.map((h) => h.toLowerCase())));
    expect(split(corsHeaders["Access-Control-Expose-Headers"])).toEqual(expect.arrayContaining(declared));
  });

  it("takes methods, header parameters and declared response headers from the operations it is given, each name once", () => {
    const base = Object.values(contractOperations)[0]!;
    const headers = buildCorsHeaders([
      {
        ...base,
        method: "PATCH",
        parameters: {
          ...base.parameters,
          header: [
            { name: "X-Request-Tag", required: false, type: "string" },
            { name: "x-request-tag", required: false, type: "string" },
          ],
        },
      },
      {
        ...base,
        method: "DELETE",
        responses: [
          {
            status: 200,
            kind: "json",
            mediaType: "application/json",
            envelope: false,
            requiredHeaders: ["X-Rate-Remaining", "etag"],
            headers: ["X-Rate-Remaining", "etag", "X-Optional-Digest"],
          },
        ],
      },
    ]);
    expect(headers["Access-Control-Allow-Methods"]).toBe("DELETE, GET, PATCH, POST, OPTIONS");
    expect(split(headers["Access-Control-Allow-Headers"]).filter((name) => name === "x-request-tag")).toHaveLength(1);
    expect(split(headers["Access-Control-Expose-Headers"])).toEqual(
      expect.arrayContaining(["x-rate-remaining", "x-optional-digest"]),
    );
    expect(split(headers["Access-Control-Expose-Headers"]).filter((name) => name === "etag")).toHaveLength(1);
  });

  it("answers a preflight for a PUT with If-Match, and a GET with If-None-Match exposes its ETag", async () => {
    server = await startMockServer({ cors: true, simulatorOptions: { scopes: ["s1"] } });
    const preflight = await fetch(`${server.url}/v1/scopes/s1/artifacts/memory/a1`, {
      method: "OPTIONS",
      headers: {
        Origin: "http://page.test",
        "Access-Control-Request-Method": "PUT",
        "Access-Control-Request-Headers": "authorization, content-type, if-match",
      },
    });
    expect(preflight.status).toBe(204);
    expect(split(preflight.headers.get("access-control-allow-methods"))).toContain("put");
    expect(split(preflight.headers.get("access-control-allow-headers"))).toEqual(
      expect.arrayContaining(["if-match", "if-none-match", "authorization", "content-type"]),
    );
    const answer = await fetch(`${server.url}/health/live`, { headers: { Origin: "http://page.test" } });
    expect(split(answer.headers.get("access-control-expose-headers"))).toEqual(
      expect.arrayContaining(["etag", "location", "retry-after", "x-powercontext-request-id"]),
    );
  });
});
