import type { MockServer } from "@powercontext/msw/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, captureSources, runCli, startServer, tokensIn } from "./harness.js";

// Flush work that runs on at once: a re-queued Operation has moved on
// (running, succeeded) before the CLI's re-sent request and read arrive.
let server: MockServer;

beforeAll(async () => {
  server = await startServer({ flushTiming: { queuedMs: 0, runningMs: 0 } });
});

afterAll(async () => {
  await server.close();
});

function operationsOf(scopeId: string) {
  return server.simulator.inspect.operations(scopeId);
}

describe("operations retry whose response was lost while the Operation moved on", () => {
  it("is not reported as reconciled: exit 1, the conflict and the unknown outcome", async () => {
    server.simulator.controls.failNextFlushAttempts(1, { category: "storage", code: "storage_unavailable" });
    captureSources(server, "scope-stale-retry", 1);
    server.simulator.handle("flush_memory", { token: ADMIN_TOKEN, body: { scope_id: "scope-stale-retry" } });
    const failed = operationsOf("scope-stale-retry").find((operation) => operation.status === "failed");
    if (failed === undefined) throw new Error("no failed operation");

    server.simulator.controls.injectFault({ operationId: "retry_operation", action: { type: "reset", when: "after" } });
    const run = await runCli(
      ["operations", "retry", failed.operation_id, "--expected-version", String(failed.version)],
      {
        url: server.url,
      },
    );
    const after = operationsOf("scope-stale-retry").find((operation) => operation.operation_id === failed.operation_id);
    expect(after?.status).toBe("succeeded");
    expect(after?.version).toBeGreaterThan(failed.version + 1);

    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).not.toMatch(/reconciled/);
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      new RegExp(`^error: 409 version_conflict \\(request id \\S+\\): .*\\[current_version=${after?.version}\\]$`),
    );
    expect(lines[1]).toBe(
      `note: an earlier attempt of this request got no answer, and whether it took effect is unknown; it is now succeeded at version ${after?.version}`,
    );
    expect(tokensIn(run)).toEqual([]);
  });
});
