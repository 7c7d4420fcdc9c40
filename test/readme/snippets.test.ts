// The README's code blocks, run as written: the SDK snippet of "Using the SDK" against
// the embedded mock server and (with the Python environment) a default released 1.4.1
// server, whose flush answers 503 inference_unavailable; and the msw setup of "The mock
// server" with its made-up host.
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockServer, type MockServer } from "@powercontext/msw/server";
import { startRealServer, type RealServer } from "../real/server.js";
import { pythonTools, repoRoot, requireTools } from "../real/tools.js";

const readme = readFileSync(join(repoRoot, "README.md"), "utf8");

/** The first ```ts block after the heading `## title` whose text contains `marker`. */
function block(title: string, marker: string): string {
  const section = readme.slice(readme.indexOf(`\n## ${title}\n`));
  const found = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!).find((code) => code.includes(marker));
  if (found === undefined) throw new Error(`README: no ts block with ${marker} under "## ${title}"`);
  return found;
}

/**
 * Runs `code` as an ES module inside the repository (so the workspace packages resolve), with `env`.
 * Asynchronously: the mock server answering it runs in this process.
 */
function run(
  name: string,
  code: string,
  env: Record<string, string> = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const dir = join(repoRoot, ".cache", "readme-snippets");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}-${process.pid}.mts`);
  writeFileSync(file, code);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", file],
      { cwd: repoRoot, encoding: "utf8", timeout: 60_000, env: { ...process.env, ...env } },
      (error, stdout, stderr) => {
        resolve({ status: error === null ? 0 : typeof error.code === "number" ? error.code : null, stdout, stderr });
      },
    );
  });
}

const sdkSnippet = block("Using the SDK", "PowerContextClient.fromEnv()");

describe("the README's SDK snippet against the mock server", () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ seed: 1 });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it("captures, flushes and reports what was processed", async () => {
    const result = await run("sdk-mock", sdkSnippet, {
      POWERCONTEXT_CLIENT_SERVER_URL: mock.url,
      POWERCONTEXT_CLIENT_API_TOKEN: "pc-writer",
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Sources processed: 1$/m);
  }, 60_000);
});

describe.runIf(requireTools("test/readme/snippets.test.ts (the released server)", pythonTools()))(
  "the README's SDK snippet against a default 1.4.1 server",
  () => {
    let server: RealServer;
    beforeAll(async () => {
      server = await startRealServer();
    }, 90_000);
    afterAll(async () => {
      await server?.stop();
    });

    it("handles the 503 inference_unavailable of a server without a model", async () => {
      const result = await run("sdk-real", sdkSnippet, {
        POWERCONTEXT_CLIENT_SERVER_URL: server.baseUrl,
        POWERCONTEXT_CLIENT_API_TOKEN: server.token,
      });
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toContain("The server has no model configured; the Sources wait for one.");
      expect(result.stdout + result.stderr).not.toContain(server.token);
    }, 90_000);
  },
);

describe("the README's msw setup", () => {
  it("runs as written with its made-up host", async () => {
    const code = `${block("The mock server", "setupServer")}
const { scope_id } = await client.getDefaultScope();
console.log(\`default scope \${scope_id}\`);
server.close();
`;
    const result = await run("msw", code);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^default scope \S+$/m);
  }, 60_000);
});
