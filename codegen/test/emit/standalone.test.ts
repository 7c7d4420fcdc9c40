import { execFile } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { releaseContractPath, releaseContractTool } from "../../../test/real/release-contract.js";
import { startRealServer, type RealServer } from "../../../test/real/server.js";
import { requireTools } from "../../../test/real/tools.js";
import { EXIT, runCli } from "../../src/cli.js";
import { compileStrict, freshFolder } from "../helpers/fresh-folder.js";
import { fixturesDir } from "../helpers/paths.js";

const run = promisify(execFile);

async function generateInto(root: string, spec: string, extra: string[] = []): Promise<void> {
  let stderr = "";
  const code = await runCli(["--spec", spec, "--out", path.join(root, "client"), "--quiet", ...extra], {
    cwd: root,
    stdout: () => undefined,
    stderr: (t) => (stderr += t),
  });
  expect(stderr).toBe("");
  expect(code).toBe(EXIT.ok);
}

/** Runs `script` (an ES module beside the compiled client) with Node in the fresh folder and returns its stdout. */
async function node(root: string, script: string): Promise<string> {
  writeFileSync(path.join(root, "call.mjs"), script);
  const { stdout } = await run(process.execPath, ["call.mjs"], { cwd: root, timeout: 20_000 });
  return stdout;
}

describe("--out DIR: a standalone client folder for the feature fixture", () => {
  let root: string;
  let server: Server;
  let seen: IncomingMessage | undefined;
  let url = "";

  beforeAll(async () => {
    root = freshFolder("pc-standalone-features");
    await generateInto(root, path.join(fixturesDir, "features.yaml"), [
      "--client-class",
      "FeaturesClient",
      "--regenerate-command",
      "npx my-codegen",
    ]);
    server = createServer((request, response) => {
      seen = request;
      response.writeHead(200, { "content-type": "application/json", "x-powercontext-request-id": "req-1" });
      response.end(JSON.stringify({ pet_type: "dog", barks: 3 }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve()))));

  it("holds every artifact in one folder, named by the options", () => {
    const files = readdirSync(path.join(root, "client")).sort();
    expect(files).toEqual([
      "README.md",
      "contract-errors.ts",
      "error-codes.ts",
      "handlers.ts",
      "index.ts",
      "methods.ts",
      "openapi.d.ts",
      "operations.json",
      "operations.ts",
      "validator-map.ts",
      "validators.d.ts",
      "validators.js",
    ]);
  });

  it("type-checks under --strict with only the runtime package and msw installed, and makes a real call", {
    timeout: 120_000,
  }, async () => {
    const files = readdirSync(path.join(root, "client"))
      .filter((f) => f.endsWith(".ts"))
      .map((f) => `client/${f}`);
    expect(compileStrict(root, files)).toEqual([]);
    const out = await node(
      root,
      `import { createClient, FeaturesClient } from "./client/index.js";
const client = createClient({ baseUrl: ${JSON.stringify(url)}, token: "t0ken" });
if (!(client instanceof FeaturesClient)) throw new Error("wrong class");
console.log(JSON.stringify(await client.getPet({ pet_id: "p 1" })));
`,
    );
    expect(JSON.parse(out)).toEqual({ pet_type: "dog", barks: 3 });
    expect(seen?.url).toBe("/v1/pets/p%201");
    expect(seen?.headers.authorization).toBe("Bearer t0ken");
  });
});

describe("--out DIR: a standalone client folder for the wide fixture", () => {
  it("type-checks under --strict with only the runtime package and msw installed", { timeout: 120_000 }, async () => {
    const root = freshFolder("pc-standalone-wide");
    await generateInto(root, path.join(fixturesDir, "wide.yaml"));
    const files = readdirSync(path.join(root, "client"))
      .filter((f) => f.endsWith(".ts"))
      .map((f) => `client/${f}`);
    expect(compileStrict(root, files)).toEqual([]);
  });
});

const withRelease = requireTools("standalone client of the released 1.4.1 contract", releaseContractTool());

describe.runIf(withRelease)("--out DIR: a standalone client folder for the released 1.4.1 contract", () => {
  let root: string;
  let real: RealServer | undefined;

  beforeAll(async () => {
    root = freshFolder("pc-standalone-release");
    await generateInto(root, releaseContractPath(), ["--lint", "upstream"]);
    real = await startRealServer();
  }, 120_000);
  afterAll(async () => {
    await real?.stop();
  });

  it("type-checks under --strict and makes a real call against the released server", async () => {
    const files = readdirSync(path.join(root, "client"))
      .filter((f) => f.endsWith(".ts"))
      .map((f) => `client/${f}`);
    expect(compileStrict(root, files)).toEqual([]);
    const out = await node(
      root,
      `import { createClient } from "./client/index.js";
const client = createClient({ baseUrl: ${JSON.stringify(real!.baseUrl)}, token: ${JSON.stringify(real!.token)} });
console.log(JSON.stringify(await client.getLiveness()));
`,
    );
    expect(JSON.parse(out)).toMatchObject({ status: expect.any(String) });
  }, 120_000);
});
