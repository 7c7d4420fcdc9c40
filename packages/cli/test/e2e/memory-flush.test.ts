import type { MockServer } from "@powercontext/msw/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureSources, hasScript, runCli, runCliOnTerminal, startCli, startServer, tokensIn } from "./harness.js";

let server: MockServer;
const runs: Awaited<ReturnType<typeof runCli>>[] = [];

async function cli(args: readonly string[]) {
  const run = await runCli(args, { url: server.url });
  runs.push(run);
  return run;
}

/** Flushes answer 202 at once and the work runs for `runningMs`. */
function slowFlushes(runningMs: number): void {
  server.simulator.controls.setFlushTiming({ waitBudgetMs: 0, queuedMs: 100, runningMs });
}

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server.close();
  expect(runs.flatMap(tokensIn)).toEqual([]);
});

describe("memory flush without --wait", () => {
  it("prints the immediate result when the work finishes within the server's budget", async () => {
    server.simulator.controls.setFlushTiming({ waitBudgetMs: 1_000, queuedMs: 100, runningMs: 400 });
    captureSources(server, "scope-quick", 3);
    const run = await cli(["memory", "flush", "--scope-id", "scope-quick"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Flush finished\.$/m);
    expect(run.stdout).toMatch(/^Memory cursor\s+0 -> 3\s+previous_cursor -> current_cursor$/m);
    expect(run.stdout).toMatch(/^Processed Sources\s+3$/m);
  });

  it("prints the accepted Operation and how to wait for it", async () => {
    slowFlushes(30_000);
    captureSources(server, "scope-accepted", 2);
    const run = await cli(["--json", "memory", "flush", "--scope-id", "scope-accepted"]);
    expect(run.code).toBe(0);
    const operation = JSON.parse(run.stdout);
    expect(operation.kind).toBe("memory_flush");
    expect(["queued", "running"]).toContain(operation.status);
    const human = await cli(["memory", "flush", "--scope-id", "scope-accepted"]);
    expect(human.stdout).toContain(`Flush accepted as operation ${operation.operation_id}`);
    expect(human.stdout).toContain(`Wait for it with: powercontext-ts operations wait ${operation.operation_id}`);
  });
});

describe("memory flush --wait", () => {
  it("waits to completion, with plain progress lines on a pipe", async () => {
    slowFlushes(1_200);
    captureSources(server, "scope-wait", 4);
    const run = await cli(["memory", "flush", "--scope-id", "scope-wait", "--wait", "--deadline", "30s"]);
    expect(run.code).toBe(0);
    const [operation] = server.simulator.inspect.operations("scope-wait");
    expect(operation?.status).toBe("succeeded");
    expect(run.stdout).toContain(`Flush finished (operation ${operation?.operation_id}).`);
    expect(run.stdout).toMatch(/^Processed Sources\s+4$/m);
    const progress = run.stderr.trimEnd().split("\n");
    expect(progress[0]).toBe("progress: submitting flush for scope scope-wait");
    expect(progress.some((line) => /^progress: operation \S+: running, attempt 1, elapsed \S+$/.test(line))).toBe(true);
    expect(progress.at(-1)).toMatch(/^progress: operation \S+: succeeded, attempt 1, elapsed \S+$/);
    expect(run.stderr).not.toMatch(/[\r\x1b]/);
  });

  it("stops at a short deadline with the operation id and the resume command, exit 3", async () => {
    slowFlushes(60_000);
    captureSources(server, "scope-deadline", 2);
    const run = await cli(["memory", "flush", "--scope-id", "scope-deadline", "--wait", "--deadline", "1500ms"]);
    expect(run.code).toBe(3);
    const [operation] = server.simulator.inspect.operations("scope-deadline");
    const id = operation!.operation_id;
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(
      new RegExp(`^pending: operation ${id} is still (queued|running), attempt \\d after \\S+$`, "m"),
    );
    expect(run.stderr).toMatch(new RegExp(`^resume with: powercontext-ts operations wait ${id}$`, "m"));

    const resumed = await cli(["operations", "wait", id, "--deadline", "500ms"]);
    expect(resumed.code).toBe(3);
    expect(resumed.stderr).toContain(`resume with: powercontext-ts operations wait ${id}`);
  });

  it("stops waiting on Ctrl-C with the resume command, exit 130, and the operation goes on", async () => {
    slowFlushes(60_000);
    captureSources(server, "scope-interrupt", 1);
    const cliRun = startCli(["memory", "flush", "--scope-id", "scope-interrupt", "--wait", "--deadline", "2m"], {
      url: server.url,
    });
    await cliRun.stderrMatches(/^progress: operation \S+: (queued|running)/m);
    cliRun.signal("SIGINT");
    const run = await cliRun.finished;
    runs.push(run);
    expect(run.code).toBe(130);
    const [operation] = server.simulator.inspect.operations("scope-interrupt");
    const id = operation!.operation_id;
    expect(["queued", "running"]).toContain(operation!.status);
    expect(run.stderr).toMatch(new RegExp(`^interrupted: pending: operation ${id} is still (queued|running)`, "m"));
    expect(run.stderr).toMatch(new RegExp(`^resume with: powercontext-ts operations wait ${id}$`, "m"));
  });

  it.skipIf(!hasScript)("shows a live progress line on a terminal, rewritten with carriage returns", async () => {
    slowFlushes(1_500);
    captureSources(server, "scope-tty", 2);
    const run = await runCliOnTerminal(["memory", "flush", "--scope-id", "scope-tty", "--wait"], { url: server.url });
    runs.push(run);
    expect(run.code).toBe(0);
    const [operation] = server.simulator.inspect.operations("scope-tty");
    const id = operation!.operation_id;
    // A redraw starts with a carriage return, then the spinner frame and the text.
    const redraws =
      run.stdout.match(new RegExp(`\\r\\S+ operation ${id}: (queued|running), attempt \\d, elapsed [0-9.]+m?s`, "g")) ??
      [];
    expect(redraws.length).toBeGreaterThanOrEqual(2);
    expect(run.stdout).not.toContain("progress: ");
    expect(run.stdout).toContain(`Flush finished (operation ${id}).`);
  });
});

describe("operations wait", () => {
  it("prints the succeeded Operation", async () => {
    slowFlushes(800);
    captureSources(server, "scope-op-wait", 1);
    const accepted = await cli(["--json", "memory", "flush", "--scope-id", "scope-op-wait"]);
    const id = JSON.parse(accepted.stdout).operation_id as string;
    const run = await cli(["operations", "wait", id, "--deadline", "30s"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Operation\\s+${id}$`, "m"));
    expect(run.stdout).toMatch(/^Status\s+succeeded$/m);
  });

  it("reports a failed Operation with its error class, exit 1", async () => {
    slowFlushes(800);
    server.simulator.controls.failNextFlushAttempts(1, { category: "worker", code: "worker_lost" });
    captureSources(server, "scope-op-fail", 1);
    const accepted = await cli(["--json", "memory", "flush", "--scope-id", "scope-op-fail"]);
    const id = JSON.parse(accepted.stdout).operation_id as string;
    const run = await cli(["operations", "wait", id, "--deadline", "30s"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^Status\s+failed$/m);
    expect(run.stderr).toMatch(new RegExp(`error: operation ${id} failed \\(worker/worker_lost\\)\\n$`));
  });
});
