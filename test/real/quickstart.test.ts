// examples/real-server.ts, run as a user would (a separate process, URL and token from the
// environment), against the released server on loopback with SQLite and auth on.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NotFoundError, OperationNotServedError, PowerContextClient } from "@powercontext/sdk";
import { startRealServer, type RealServer } from "./server.js";
import { pythonTools, repoRoot, requireTools, suiteName } from "./tools.js";

const enabled = requireTools(suiteName(import.meta.url), pythonTools());

describe.runIf(enabled)("examples/real-server.ts against the released server", () => {
  let server: RealServer;
  beforeAll(async () => {
    server = await startRealServer();
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("learns the default Scope from the server, captures, reports the missing model, remembers and finds", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", join(repoRoot, "examples", "real-server.ts")], {
      cwd: repoRoot,
      encoding: "utf8",
      timeout: 60_000,
      env: {
        ...process.env,
        POWERCONTEXT_CLIENT_SERVER_URL: server.baseUrl,
        POWERCONTEXT_CLIENT_API_TOKEN: server.token,
      },
    });
    expect(run.status, `${run.stdout}\n${run.stderr}\n${server.logs().slice(-2000)}`).toBe(0);
    expect(run.stdout).toMatch(/default Scope scp_\S+\./);
    expect(run.stdout).toMatch(/Captured quickstart-\S+-1 at position \d+\./);
    expect(run.stdout).toContain("503 inference_unavailable");
    expect(run.stdout).toMatch(/Search \(text\) found [1-9]\d* Memory record/);
    expect(run.stdout + run.stderr).not.toContain(server.token);
  }, 90_000);

  it("says in words that 1.4.1 has no Operation API, in the SDK and in the CLI", async () => {
    const client = new PowerContextClient({ baseUrl: server.baseUrl, token: server.token, maxRetries: 0 });
    const { scope_id } = await client.getDefaultScope();
    const error = await client.listOperations({ scope_id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperationNotServedError);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toMatch(
      /^PowerContext server responded 404: this server has no Operation API; it answers flush_memory synchronously/,
    );
    const cli = spawnSync(
      process.execPath,
      [join(repoRoot, "packages", "cli", "bin", "powercontext-ts.js"), "operations", "get", "op_missing"],
      {
        cwd: repoRoot,
        encoding: "utf8",
        timeout: 30_000,
        env: {
          ...process.env,
          POWERCONTEXT_CLIENT_SERVER_URL: server.baseUrl,
          POWERCONTEXT_CLIENT_API_TOKEN: server.token,
        },
      },
    );
    expect(cli.status, cli.stderr).toBe(1);
    expect(cli.stderr).toMatch(
      /^error: 404( \(request id [^)]+\))?: this server has no Operation API; it answers flush_memory synchronously/m,
    );
    expect(cli.stdout + cli.stderr).not.toContain(server.token);
  }, 60_000);
});
