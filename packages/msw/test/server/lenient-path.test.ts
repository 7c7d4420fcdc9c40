import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lenientPath } from "../../src/server/lenient-path.js";
import { startMockServer, type MockServer } from "../../src/server/start.js";

// What Python's urllib.parse.unquote (the released server's ASGI decoding) makes of each segment.
const UNQUOTE: ReadonlyArray<[string, string]> = [
  ["%ZZ", "%ZZ"],
  ["%E0%A4%A", "\ufffd%A"],
  ["%C0%AF", "\ufffd\ufffd"],
  ["a%2", "a%2"],
  ["100%", "100%"],
  ["%F0%9F%98", "\ufffd"],
  ["caf\u00e9%", "caf\u00e9%"],
];

describe("lenientPath", () => {
  it.each(UNQUOTE)("makes msw decode %s as the release does", (segment, decoded) => {
    const path = lenientPath(`/v1/operations/${segment}`);
    expect(decodeURIComponent(path)).toBe(`/v1/operations/${decoded}`);
  });

  it("keeps a path strict decoding accepts byte for byte", () => {
    for (const path of ["/v1/operations/op%20one", "/v1/scopes/%E2%82%AC", "/health/live", "/v1/a%2Fb"])
      expect(lenientPath(path)).toBe(path);
  });
});

describe("the mock server on a path with a malformed escape", () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ seed: 1 });
  });
  afterAll(async () => {
    await server.close();
  });

  // "%ZZ" is a well-formed id no Operation has; U+FFFD is outside the id's declared pattern (printable ASCII).
  it.each([
    ["%ZZ", 404, "operation_not_found"],
    ["%E0%A4%A", 422, "invalid_request"],
    ["%C0%AF", 422, "invalid_request"],
  ])("answers %s with the error envelope (%i %s), not a 500", async (segment, status, code) => {
    const response = await fetch(`${server.url}/v1/operations/${segment}`, {
      headers: { Authorization: "Bearer pc-admin" },
    });
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ error: { code } });
  });
});
