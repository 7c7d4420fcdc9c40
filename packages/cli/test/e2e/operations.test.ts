import type { MockServer } from "@powercontext/msw/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, captureSources, runCli, startServer, tokensIn } from "./harness.js";

let server: MockServer;
const runs: Awaited<ReturnType<typeof runCli>>[] = [];

async function cli(args: readonly string[]) {
  const run = await runCli(args, { url: server.url });
  runs.push(run);
  return run;
}

/** One flush straight on the simulator; with the default timing it finishes within the wait budget. */
function flushOnce(scopeId: string, index: number): void {
  captureSources(server, scopeId, 1, `${scopeId}-${index}`);
  server.simulator.handle("flush_memory", { token: ADMIN_TOKEN, body: { scope_id: scopeId } });
}

/** Leaves one failed Operation holding the window of `scopeId` and returns it. */
function failedOperation(scopeId: string) {
  server.simulator.controls.failNextFlushAttempts(1, { category: "storage", code: "storage_unavailable" });
  flushOnce(scopeId, 0);
  const operation = server.simulator.inspect.operations(scopeId).find((candidate) => candidate.status === "failed");
  if (operation === undefined) throw new Error("no failed operation");
  return operation;
}

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server.close();
  expect(runs.flatMap(tokensIn)).toEqual([]);
});

describe("operations list", () => {
  it("follows every page, whatever the page size", async () => {
    for (let index = 0; index < 5; index += 1) flushOnce("scope-paging", index);
    const expected = server.simulator.inspect.operations("scope-paging").map((operation) => operation.operation_id);
    expect(expected).toHaveLength(5);

    const run = await cli(["operations", "list", "--scope-id", "scope-paging", "--page-size", "2"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const listed = run.stdout
      .split("\n")
      .slice(1, -2)
      .map((line) => line.split(/\s+/)[0]);
    expect([...listed].sort()).toEqual([...expected].sort());
    expect(run.stdout).toContain("5 operations");

    const json = await cli(["--json", "operations", "list", "--scope-id", "scope-paging", "--page-size", "1"]);
    const page = JSON.parse(json.stdout);
    expect(page.next_cursor).toBeNull();
    expect(page.operations.map((operation: { operation_id: string }) => operation.operation_id).sort()).toEqual(
      [...expected].sort(),
    );
  });

  it("filters by status", async () => {
    const failed = failedOperation("scope-filter");
    flushOnce("scope-filter-other", 0);
    const run = await cli(["--json", "operations", "list", "--scope-id", "scope-filter", "--status", "failed"]);
    expect(run.code).toBe(0);
    expect(
      JSON.parse(run.stdout).operations.map((operation: { operation_id: string }) => operation.operation_id),
    ).toEqual([failed.operation_id]);
  });

  it("refuses a page size out of range as bad usage, exit 2", async () => {
    const run = await cli(["operations", "list", "--scope-id", "s", "--page-size", "500"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/^error: option '--page-size <n>' argument '500' is invalid/);
  });
});

describe("operations get, cancel and retry", () => {
  it("shows an Operation with its version and error class", async () => {
    const failed = failedOperation("scope-get");
    const run = await cli(["operations", "get", failed.operation_id]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Operation\\s+${failed.operation_id}$`, "m"));
    expect(run.stdout).toMatch(new RegExp(`^Version\\s+${failed.version}\\s`, "m"));
    expect(run.stdout).toMatch(/^Error\s+storage\/storage_unavailable$/m);
  });

  it("rejects a cancel with a stale version as 409 version_conflict and changes nothing", async () => {
    const failed = failedOperation("scope-cancel");
    const run = await cli([
      "operations",
      "cancel",
      failed.operation_id,
      "--expected-version",
      String(failed.version + 7),
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(
      new RegExp(`^error: 409 version_conflict \\(request id \\S+\\): .*\\[current_version=${failed.version}\\]\\n$`),
    );
    const after = server.simulator.inspect
      .operations("scope-cancel")
      .find((op) => op.operation_id === failed.operation_id);
    expect(after?.status).toBe("failed");
    expect(after?.version).toBe(failed.version);
  });

  it("cancels with the current version", async () => {
    const failed = failedOperation("scope-cancel-ok");
    const run = await cli(["operations", "cancel", failed.operation_id, "--expected-version", String(failed.version)]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")[0]).toMatch(
      new RegExp(`^Operation ${failed.operation_id} is now cancelled \\(version \\d+\\)\\.$`),
    );
    const after = server.simulator.inspect
      .operations("scope-cancel-ok")
      .find((op) => op.operation_id === failed.operation_id);
    expect(after?.status).toBe("cancelled");
  });

  it("says so when a cancel whose response was lost is reconciled from the Operation", async () => {
    const failed = failedOperation("scope-cancel-lost");
    server.simulator.controls.injectFault({
      operationId: "cancel_operation",
      action: { type: "reset", when: "after" },
    });
    const run = await cli(["operations", "cancel", failed.operation_id, "--expected-version", String(failed.version)]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      "note: the first cancel request had an unknown outcome; the operation shows it took effect (reconciled)\n",
    );
    expect(run.stdout.split("\n")[0]).toMatch(new RegExp(`^Operation ${failed.operation_id} is now cancelled`));
  });

  // Keep this test after the others that arm flush failures: the Operation it
  // queues again starts later and would take a failure armed for another test.
  it("queues a failed Operation again, and a flush of its window reports the holder while it is failed", async () => {
    const failed = failedOperation("scope-retry-op");
    const blocked = await cli(["memory", "flush", "--scope-id", "scope-retry-op"]);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toMatch(
      new RegExp(
        `^error: 409 operation_blocked \\(request id \\S+\\): .*\\[operation_id=${failed.operation_id}\\]\\n$`,
      ),
    );
    const run = await cli([
      "--json",
      "operations",
      "retry",
      failed.operation_id,
      "--expected-version",
      String(failed.version),
    ]);
    expect(run.code).toBe(0);
    const operation = JSON.parse(run.stdout);
    expect(operation.operation_id).toBe(failed.operation_id);
    expect(["queued", "running", "succeeded"]).toContain(operation.status);
    expect(operation.version).toBeGreaterThan(failed.version);
    expect(operation).not.toHaveProperty("reconciled");
  });

  it("reports an unknown Operation as 404, exit 1", async () => {
    const run = await cli(["operations", "get", "op_does_not_exist"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: 404 operation_not_found \(request id \S+\)/);
  });
});
