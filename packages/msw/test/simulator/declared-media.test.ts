import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator } from "../../src/simulator/simulator.js";
import { isReset, type SimRequest, type SimResponse } from "../../src/simulator/types.js";
import { startMockServer, type MockServer } from "../../src/server/start.js";
import { contractProblems } from "../support/contract.js";
import { TEST_SCOPES } from "../support/scopes.js";

// The media type and headers the contract declares for a status, as the release sends
// them: get_handoff_report with format "markdown" answers text/markdown (the request
// member chooses it: x-powercontext-media-from), and every answer carries the headers
// its status declares in a pinned form (Cache-Control: no-store, sha256 digests).

const sim = createPowerContextSimulator({ scopes: TEST_SCOPES, clock: new ManualClock(), seed: 5 });
const DIGEST = /^sha256:[0-9a-f]{64}$/;

function send(operationId: string, request: SimRequest): SimResponse {
  const outcome = sim.handle(operationId, { token: "pc-admin", ...request });
  if (isReset(outcome)) throw new Error("unexpected reset");
  return outcome;
}

const report = (extra: Record<string, unknown> = {}) => ({
  body: { selection: { mode: "exact", scope_ids: ["s1"] }, ...extra },
});

describe("the media type a request asks for", () => {
  it("format markdown answers 200 text/markdown; charset=utf-8 with the release's headers", () => {
    const answer = send("get_handoff_report", report({ format: "markdown" }));
    expect(answer.status).toBe(200);
    expect(answer.contentType).toBe("text/markdown; charset=utf-8");
    expect(typeof answer.body).toBe("string");
    expect(answer.headers["Cache-Control"]).toBe("no-store");
    expect(answer.headers["X-PowerContext-Selection-Digest"]).toMatch(DIGEST);
    expect(answer.headers["X-PowerContext-Report-Digest"]).toMatch(DIGEST);
    expect(Object.keys(answer.headers)).not.toContain("Content-Disposition");
  });

  it("format json, or none, answers the JSON report with the same headers", () => {
    for (const extra of [{ format: "json" }, {}]) {
      const answer = send("get_handoff_report", report(extra));
      expect(answer.status).toBe(200);
      expect(answer.contentType).toBeUndefined();
      expect(contractProblems("get_handoff_report", 200, answer.headers, answer.body)).toEqual([]);
      expect(answer.headers["Cache-Control"]).toBe("no-store");
      expect(answer.headers["X-PowerContext-Report-Digest"]).toMatch(DIGEST);
      // The headers name the digests the body carries.
      const body = answer.body as { selection_digest: string; report_digest: string };
      expect(answer.headers["X-PowerContext-Selection-Digest"]).toBe(body.selection_digest);
      expect(answer.headers["X-PowerContext-Report-Digest"]).toBe(body.report_digest);
    }
  });

  it("sends a status's pinned headers with every operation that declares them", () => {
    expect(send("get_stats", { body: { selection: { mode: "all" } } }).headers["Cache-Control"]).toBe("no-store");
    expect(send("get_scope", { params: { scope_id: "s1" } }).headers["Cache-Control"]).toBeUndefined();
  });
});

describe("over HTTP", () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ seed: 5, simulatorOptions: { scopes: ["s1"] } });
  });
  afterAll(async () => {
    await server.close();
  });

  it("the markdown report arrives as text/markdown, its headers intact", async () => {
    const response = await fetch(`${server.url}/v1/handoff-reports/get`, {
      method: "POST",
      headers: { Authorization: "Bearer pc-admin", "Content-Type": "application/json" },
      body: JSON.stringify(report({ format: "markdown" }).body),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-powercontext-selection-digest")).toMatch(DIGEST);
    // The report of Scope s1, which holds no Handoff.
    expect(await response.text()).toBe("# Handoff report\n\n## s1 (s1)\n\nStatus: no_handoff\n");
  });
});
