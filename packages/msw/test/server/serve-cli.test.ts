import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createProgram } from "../../src/server/cli.js";
import { spawnServe } from "../support/spawn-serve.js";

/** The `powercontext-mock serve` path: the hardening of startMockServer holds for the binary's options too. */

let child: ChildProcess | undefined;
afterEach(() => {
  if (child?.exitCode === null) child.kill("SIGTERM");
  child = undefined;
});

const ENVELOPE = { error: { code: "request_too_large", message: expect.any(String), details: null } };
const capture = (content: string) => JSON.stringify({ scope_id: "s1", source_id: "a", content });

describe("powercontext-mock serve", () => {
  it("--max-body-bytes sets the body limit, --config grants on scopes named __proto__ or toString hold, deep bodies are 422", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pc-mock-"));
    const config = join(dir, "principals.json");
    // Written as text: an object literal key __proto__ would set the prototype instead of a grant.
    writeFileSync(
      config,
      '{"tokens":{"pc-admin":{"name":"admin","scopes":{"*":["scope.read","scope.contribute","scope.admin"]}},' +
        '"__proto__":{"name":"odd token","scopes":{"__proto__":["scope.read"],"toString":["scope.read"]}}}}',
    );
    const served = await spawnServe([
      "--port",
      "0",
      "--max-body-bytes",
      "262144",
      "--config",
      config,
      "--scope",
      "s1",
      "__proto__",
      "toString",
      "hasOwnProperty",
    ]).finally(() => rmSync(dir, { recursive: true, force: true }));
    child = served.child;
    const url = served.url;
    const status = (token: string, scopeId: string) =>
      fetch(`${url}/v1/topic-memory/processing/status`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ scope_id: scopeId }),
      }).then((res) => res.status);
    expect(await status("__proto__", "__proto__")).toBe(200);
    expect(await status("__proto__", "toString")).toBe(200);
    expect(await status("__proto__", "constructor")).toBe(403);
    expect(await status("pc-admin", "hasOwnProperty")).toBe(200);
    const deep = await fetch(`${url}/v1/memory/flush`, {
      method: "POST",
      headers: { Authorization: "Bearer pc-admin", "Content-Type": "application/json" },
      body: "[".repeat(100_000) + "]".repeat(100_000),
    });
    expect(deep.status).toBe(422);
    expect(await deep.json()).toMatchObject({ error: { code: "invalid_request", details: { field: "body" } } });
    const send = (content: string) =>
      fetch(`${url}/v1/sources/content`, {
        method: "POST",
        headers: { Authorization: "Bearer pc-admin", "Content-Type": "application/json" },
        body: capture(content),
      });
    expect((await send("small")).status).toBe(202);
    const refused = await send("x".repeat(300_000));
    expect(refused.status).toBe(413);
    expect(refused.headers.get("x-powercontext-request-id")).toMatch(/^req_/);
    expect(await refused.json()).toEqual(ENVELOPE);
  });
});

describe("powercontext-mock serve --demo", () => {
  it("with --wait-budget-ms 0 prepares the demo, serves, and answers flushes with 202 at once", async () => {
    const served = await spawnServe(["--port", "0", "--demo", "--wait-budget-ms", "0"]);
    child = served.child;
    const url = served.url;
    expect(served.stderr()).toMatch(/demo: scope demo-topic is blocked .*scope demo-ops has failed operation/);
    const post = (path: string, body: unknown) =>
      fetch(`${url}${path}`, {
        method: "POST",
        headers: { Authorization: "Bearer pc-admin", "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const scope = (await (
      await fetch(`${url}/v1/scopes/default`, { headers: { Authorization: "Bearer pc-admin" } })
    ).json()) as { scope_id: string };
    expect(
      (await post("/v1/sources/content", { scope_id: scope.scope_id, source_id: "a", content: "after the demo" }))
        .status,
    ).toBe(202);
    expect((await post("/v1/memory/flush", { scope_id: scope.scope_id })).status).toBe(202);
  });
});

describe("powercontext-mock --version", () => {
  it("prints the package version, spelled as the other binaries spell it", async () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    let out = "";
    const program = createProgram()
      .exitOverride()
      .configureOutput({ writeOut: (text) => (out += text) });
    await expect(program.parseAsync(["node", "powercontext-mock", "--version"])).rejects.toMatchObject({
      code: "commander.version",
    });
    expect(out).toBe(`${pkg.version}\n`);
    expect(program.helpInformation()).toMatch(/^ {2}--version +show the version and exit$/m);
  });
});
