// --python-out on the published 0.0.2 contract: the generated layer plus powercontext_runtime
// calls a loopback server. The contract is read from the shared folder at test time (never
// committed); without it, or without the Python environments, the suite is skipped loudly.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upstreamSpec } from "../../codegen/test/helpers/paths.js";
import { codegenPython } from "../../codegen/src/targets/python/models-py.js";
import { checkAll, pythonTools, repoRoot, requireTools, suiteName, venvBin } from "../real/tools.js";

const run = promisify(execFile);
const contract = { ok: existsSync(upstreamSpec), missing: `${upstreamSpec} (the published contract)` };
const codegenTool = {
  ok: codegenPython() !== null,
  missing: ".venv-codegen/bin/python (run: bash scripts/ci/python-codegen-env.sh)",
};
const enabled = requireTools(suiteName(import.meta.url), checkAll(pythonTools(), codegenTool, contract));

describe.skipIf(!enabled)("the Python layer of the published 0.0.2 contract, on our runtime", () => {
  let root = "";
  const seen: string[] = [];
  let health = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      seen.push(`${request.method} ${request.url} ${request.headers.authorization ?? ""}`);
      const send = (status: number, value: unknown) => {
        response.writeHead(status, { "content-type": "application/json", "x-powercontext-request-id": "req-1" });
        response.end(JSON.stringify(value));
      };
      if (request.url === "/health/live")
        return (health += 1) === 1
          ? send(503, { error: { code: "unavailable", message: "starting", details: null } })
          : send(200, { status: "ok" });
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as { text?: string };
      if (body.text === "conflict")
        return send(409, { error: { code: "conflict", message: "token published-token clashes", details: null } });
      return send(200, { memory: { family: "memory", artifact_id: "m1", revision: 1 }, entry: null });
    });
  });

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "published-"));
    const generator = [
      "tsx",
      "codegen/src/cli.ts",
      "--spec",
      upstreamSpec,
      "--lint",
      "upstream",
      "--root",
      root,
      "--python-out",
      "gen/published",
      "--python-package",
      "published",
      "--python-models",
      "require",
      "--quiet",
    ];
    await run("npx", generator, { cwd: repoRoot, timeout: 180_000 });
    await writeFile(join(root, "gen/published/__init__.py"), "", { flag: "a" });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  }, 240_000);

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("calls it with typed models, retries a safe read, refuses a bad request before sending and types an error", async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const env = { ...process.env, PYTHONPATH: [join(root, "gen"), join(repoRoot, "python/src")].join(":") };
    const { stdout } = await run(venvBin("python"), [join(repoRoot, "test/python/published_client.py"), url], {
      env,
      timeout: 120_000,
    });
    const results = JSON.parse(stdout) as Record<string, unknown>;
    expect(results.operations).toBeGreaterThan(30);
    expect(results.health).toEqual(["HealthResponse", "ok"]);
    expect(results.missing_text).toEqual(["/text: missing"]);
    expect(results.remembered).toBe(true);
    expect(results.conflict).toEqual(["ConflictError", 409, "conflict", false]);
    expect(seen.filter((r) => r.startsWith("GET /health/live"))).toHaveLength(2);
    expect(seen.filter((r) => r.startsWith("POST /v1/memory/remember"))).toHaveLength(2);
    expect(seen.every((r) => r.endsWith("Bearer published-token"))).toBe(true);
  }, 120_000);
});
