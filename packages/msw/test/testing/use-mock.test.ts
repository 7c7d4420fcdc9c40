// The vitest helper an app's tests use: the embedded mock started before the file's
// tests, its URL and token handed over, closed after them.
import { describe, expect, it } from "vitest";
import { startMock } from "../../src/testing/start-mock.js";
import { useMock } from "../../src/testing/vitest.js";

const mock = useMock({ inference: "off", seed: 4 });

describe("useMock", () => {
  it("serves the mock at its URL to its token, and refuses another token", async () => {
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const listed = await fetch(`${mock.url}/v1/scopes`, { headers: { authorization: `Bearer ${mock.token}` } });
    expect(listed.status).toBe(200);
    const refused = await fetch(`${mock.url}/v1/scopes`, { headers: { authorization: "Bearer not-a-token" } });
    expect(refused.status).toBe(401);
  });

  it("hands over the face it was asked for", async () => {
    const answer = await fetch(`${mock.url}/v1/capabilities`, { headers: { authorization: `Bearer ${mock.token}` } });
    expect(((await answer.json()) as { memory_extraction: boolean }).memory_extraction).toBe(false);
  });
});

describe("startMock", () => {
  it("hands over the token of the app's own principals, and stops serving once closed", async () => {
    const own = await startMock({
      token: "team-token-123",
      principals: {
        tokens: { "team-token-123": { name: "team", scopes: { "*": ["scope.read"] }, server: ["server.observe"] } },
      },
    });
    const answer = await fetch(`${own.url}/v1/scopes`, { headers: { authorization: `Bearer ${own.token}` } });
    expect(answer.status).toBe(200);
    await own.close();
    await expect(fetch(`${own.url}/v1/scopes`)).rejects.toThrow();
  });
});
