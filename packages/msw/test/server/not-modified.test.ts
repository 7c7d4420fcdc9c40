import { afterEach, describe, expect, it } from "vitest";
import { startMockServer, type MockServer } from "../../src/server/start.js";

/** A 304 from the mock server carries its ETag and the CORS headers, but no body and no Content-Type, as from the release. */
let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("mock server: 304 Not Modified", () => {
  it("answers a conditional read of an unchanged Artifact with 304, its ETag and no Content-Type", async () => {
    server = await startMockServer({ port: 0, seed: 4, cors: true });
    const auth = { Authorization: "Bearer pc-admin" };
    const scope = (await (await fetch(`${server.url}/v1/scopes/default`, { headers: auth })).json()) as {
      scope_id: string;
    };
    const base = `${server.url}/v1/scopes/${scope.scope_id}/artifacts`;
    const created = await fetch(base, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ family: "atomic-memory", content: { kind: "fact", text: "Backups run nightly." } }),
    });
    expect(created.status).toBe(201);
    const { artifact_id } = (await created.json()) as { artifact_id: string };
    const read = await fetch(`${base}/atomic-memory/${artifact_id}`, { headers: auth });
    const etag = read.headers.get("etag") as string;
    expect(etag).toBe('"revision:1"');
    const again = await fetch(`${base}/atomic-memory/${artifact_id}`, { headers: { ...auth, "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("content-type")).toBeNull();
    expect(again.headers.get("x-powercontext-request-id")).toBeTruthy();
    expect(again.headers.get("access-control-expose-headers")).toMatch(/ETag/i);
    expect(await again.text()).toBe("");
  });
});
