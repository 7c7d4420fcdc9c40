import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import type { MockServer } from "@powercontext/msw/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { ADMIN_TOKEN, BIN, runCli, startServer, tokensIn } from "./harness.js";

let server: MockServer;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server.close();
});

function oneLine(stderr: string): string {
  const lines = stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

describe("bad usage exits 2 with one line", () => {
  it.each([
    [["topic-memory", "status"], /^error: required option '--scope-id <id>' not specified$/],
    [["topic-memory", "retry", "--scope-id", "s"], /^error: missing required argument 'block-id'$/],
    [["--bogus", "operations", "list", "--scope-id", "s"], /^error: unknown option '--bogus'$/],
    [["operations", "nope"], /^error: unknown command 'nope'$/],
    [
      ["--timeout", "soon", "operations", "get", "op_1"],
      /^error: option '--timeout <seconds>' argument 'soon' is invalid\. --timeout must be a positive number of seconds, got 'soon'$/,
    ],
    [["--timeout", "0", "operations", "get", "op_1"], /--timeout must be a positive number of seconds, got '0'$/],
    [["operations", "wait", "op_1", "--deadline", "60"], /add a unit, for example 500ms, 60s or 2m$/],
    [["operations", "cancel", "op_1", "--expected-version", "1.5"], /expected a whole number >= 1, got '1.5'$/],
    [["operations", "cancel", "op_1"], /^error: required option '--expected-version <n>' not specified$/],
  ])("%j", async (args, message) => {
    const run = await runCli(args, { url: server.url });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(oneLine(run.stderr)).toMatch(message);
  });

  it("refuses an invalid --status before sending anything", async () => {
    const run = await runCli(["operations", "list", "--scope-id", "s", "--status", "sleeping"], { url: server.url });
    expect(run.code).toBe(2);
    expect(oneLine(run.stderr)).toMatch(/^error: invalid request: /);
  });

  it("refuses a plaintext non-loopback server URL as a configuration error", async () => {
    const run = await runCli(["--server-url", "http://example.com", "operations", "get", "op_1"]);
    expect(run.code).toBe(2);
    expect(oneLine(run.stderr)).toBe(
      "error: plaintext http:// is for loopback hosts only; use an https:// server URL (check --server-url or POWERCONTEXT_CLIENT_SERVER_URL)",
    );
  });
});

describe("commander's own lines", () => {
  it("escape control characters the operator typed, like every other error line", async () => {
    const unknown = await runCli(["--x\u001b]0;pwned\u0007"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("error: unknown option '--x\\x1b]0;pwned\\x07'\n");
    const forged = await runCli(["bogus\nerror: forged line"]);
    expect(forged.code).toBe(2);
    expect(forged.stderr).toBe("error: unknown command 'bogus\\nerror: forged line'\n");
    const duration = await runCli(["--timeout", "1\u001b[31m", "operations", "get", "op_1"]);
    expect(duration.code).toBe(2);
    expect(duration.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });
});

describe("a reader that goes away", () => {
  it("ends the CLI quietly (exit 0, no stack trace) when stdout is closed before it writes", async () => {
    const child = spawn(process.execPath, [BIN, "--help"], {
      env: { ...process.env, POWERCONTEXT_CLI_FROM_SOURCE: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    // Closed at once: the CLI (compiled from source first) writes its help into a pipe nobody reads.
    child.stdout.destroy();
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });
});

describe("help and version", () => {
  it("prints help on stdout, exit 0, and documents the token variable", async () => {
    const run = await runCli(["--help"]);
    expect(run.code).toBe(0);
    for (const word of ["--server-url", "--timeout", "--json", "--version", "topic-memory", "operations", "memory"]) {
      expect(run.stdout).toContain(word);
    }
    expect(run.stdout).toContain("POWERCONTEXT_CLIENT_API_TOKEN");
    expect(run.stdout).not.toContain("--token");
  });

  it("prints the package version", async () => {
    const run = await runCli(["--version"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});

describe("server and transport failures exit 1", () => {
  it("reports a rejected token without ever printing it", async () => {
    const wrong = `${ADMIN_TOKEN}-revoked`;
    const run = await runCli(["topic-memory", "status", "--scope-id", "s"], { url: server.url, token: wrong });
    expect(run.code).toBe(1);
    expect(oneLine(run.stderr)).toMatch(/^error: 401 unauthorized \(request id \S+\)/);
    expect(run.stderr).not.toContain("hint:");
    expect(run.stdout + run.stderr).not.toContain(wrong);
    expect(tokensIn(run)).toEqual([]);
  });

  it("adds a hint after a 401 when POWERCONTEXT_CLIENT_API_TOKEN is not set", async () => {
    const run = await runCli(["topic-memory", "status", "--scope-id", "s"], { url: server.url, token: null });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^error: 401 unauthorized \(request id \S+\)/);
    expect(lines[1]).toBe("hint: POWERCONTEXT_CLIENT_API_TOKEN is not set, so the request carried no token");
    expect(tokensIn(run)).toEqual([]);
  });

  it("adds a hint after a 401 when POWERCONTEXT_CLIENT_API_TOKEN is blank, without mangling the output", async () => {
    const run = await runCli(["topic-memory", "status", "--scope-id", "s"], { url: server.url, token: " " });
    expect(run.code).toBe(1);
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^error: 401 unauthorized \(request id \S+\)/);
    expect(lines[1]).toBe("hint: POWERCONTEXT_CLIENT_API_TOKEN is blank, so the request carried no token");
  });

  it("gives no token hint when the failure is not a 401", async () => {
    const run = await runCli(["--timeout", "2", "operations", "get", "op_1"], {
      url: "http://127.0.0.1:9",
      token: null,
    });
    expect(run.code).toBe(1);
    expect(oneLine(run.stderr)).toMatch(/^error: cannot reach the server/);
  });

  it("reports an unreachable server in one line", async () => {
    const closed = await startServer();
    const url = closed.url;
    await closed.close();
    const run = await runCli(["--timeout", "2", "operations", "get", "op_1"], { url });
    expect(run.code).toBe(1);
    expect(oneLine(run.stderr)).toMatch(
      /^error: cannot reach the server \(\/v1\/operations\/op_1\): connect ECONNREFUSED/,
    );
    expect(tokensIn(run)).toEqual([]);
  });

  it("exits as soon as the timeout is reported when the server accepts but never answers", async () => {
    // A server that reads requests and never answers: a timed-out request must not keep the process alive.
    const silent = createServer((socket) => socket.resume());
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const started = Date.now();
      const run = await runCli(["--timeout", "0.2", "topic-memory", "status", "--scope-id", "s"], { url });
      expect(run.code).toBe(1);
      expect(oneLine(run.stderr)).toMatch(
        /^error: no answer from the server in time .*attempt timed out after 200 ms$/,
      );
      // Three attempts of 0.2 s with backoff take about 1-2 s; a leaked exchange would hold the process for minutes.
      expect(Date.now() - started).toBeLessThan(30_000);
    } finally {
      silent.close();
    }
  }, 60_000);

  it("takes the server URL from --server-url over the environment", async () => {
    const run = await runCli(["--server-url", server.url, "topic-memory", "status", "--scope-id", "s"], {
      url: "http://127.0.0.1:9",
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^State\s+idle/m);
  });
});
