// The packages as an application installs them: `npm pack` every published
// package (scripts/pack-packages.mjs, as the README says), install the tarballs
// into a fresh project in the system's temp dir (outside the repository: no
// workspace, no symlinks, npm's cache and registry for third-party packages),
// then, there:
//   1. type-check a strict consumer (and its msw setup, with the app's one msw) without skipLibCheck (TypeScript's own lib
//      files are skipped: skipDefaultLibCheck), compile it, and run it
//      against the embedded mock server (@powercontext/msw/server); and
//      type-check a browser app, whose types must not need undici or @types/node;
//   2. run the generator's bin with plain node on the released contract, read
//      from the installed Python package, and on this repository's openapi.yaml;
//   3. run a vitest test that uses the msw handlers with the app's own msw.
import { execFile } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
  copyFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLISHED, packPackages } from "../../scripts/pack-packages.mjs";
import { checkAll, checkFile, pythonTools, repoRoot, requireTools, venvBin } from "../real/tools.js";

const exec = promisify(execFile);
const built = checkAll(
  ...PUBLISHED.filter((folder) => folder !== "packages/types").map((folder) =>
    checkFile(join(repoRoot, folder, "dist"), "run: npm run build"),
  ),
);
const enabled = requireTools("tarball install", built);
const hasPython = requireTools("tarball install: the generator's bin on the released contract", pythonTools());
const fixtures = join(repoRoot, "test/package/consumer");

/** The third-party packages the app installs beside the tarballs, at the repository's own ranges. */
function thirdParty(): string[] {
  const root = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
  };
  const msw = JSON.parse(readFileSync(join(repoRoot, "packages/msw/package.json"), "utf8")) as {
    peerDependencies: Record<string, string>;
  };
  const dev = root.devDependencies;
  return [
    `msw@${msw.peerDependencies.msw}`,
    `typescript@${dev.typescript}`,
    `vitest@${dev.vitest}`,
    `@types/node@${dev["@types/node"]}`,
  ];
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(file: string, args: string[], cwd: string, timeout = 120_000): Promise<Run> {
  try {
    const { stdout, stderr } = await exec(file, args, {
      cwd,
      timeout,
      maxBuffer: 32 * 1024 * 1024,
      env: { ...process.env, CI: "true", NO_COLOR: "1", FORCE_COLOR: "0" },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === "number" ? failed.code : -1,
      stdout: failed.stdout ?? "",
      stderr: failed.stderr ?? "",
    };
  }
}

describe.skipIf(!enabled)("the packages installed from tarballs into a fresh project", () => {
  let work = "";
  let app = "";
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "powercontext-tarballs-"));
    app = join(work, "app");
    const tarballs = packPackages(join(work, "tarballs"));
    await run("mkdir", [app], work);
    writeFileSync(
      join(app, "package.json"),
      `${JSON.stringify({ name: "app", private: true, type: "module" }, null, 2)}\n`,
    );
    const install = await run(
      "npm",
      ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", ...tarballs, ...thirdParty()],
      app,
      150_000,
    );
    if (install.code !== 0) throw new Error(`npm install failed: ${install.stderr}`);
    for (const name of [
      "consumer.ts",
      "mocks.ts",
      "handlers.test.ts",
      "tsconfig.json",
      "browser.ts",
      "tsconfig.browser.json",
    ])
      copyFileSync(join(fixtures, name), join(app, name));
  }, 180_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("installs real copies: no symlink, one msw", () => {
    const scope = join(app, "node_modules/@powercontext");
    expect(readdirSync(scope).sort()).toEqual(["cli", "codegen", "msw", "runtime", "sdk", "types"]);
    for (const name of readdirSync(scope)) expect(lstatSync(join(scope, name)).isSymbolicLink(), name).toBe(false);
    expect(existsSync(join(scope, "msw/node_modules/msw"))).toBe(false);
    expect(existsSync(join(scope, "sdk/node_modules/@powercontext/runtime"))).toBe(false);
  });

  it("type-checks a strict consumer without skipLibCheck, and runs it against the embedded mock server", async () => {
    const tsc = await run(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "."], app, 240_000);
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.code).toBe(0);
    const program = await run(process.execPath, ["out/consumer.js"], app, 30_000);
    expect(program.stderr).toBe("");
    expect(JSON.parse(program.stdout)).toEqual({
      sourceId: "note-1",
      missing: "404 operation_not_found",
      raw: { status: 202, attempts: 1, requestId: true },
    });
  }, 270_000);

  it("type-checks a browser app (DOM, no @types/node, no skipLibCheck) whose types reach neither undici nor Node's", async () => {
    const tsc = await run(
      process.execPath,
      ["node_modules/typescript/bin/tsc", "-p", "tsconfig.browser.json", "--listFiles"],
      app,
      240_000,
    );
    expect(tsc.stderr).toBe("");
    expect(tsc.code).toBe(0);
    const files = tsc.stdout.split("\n").filter((line) => line.includes("node_modules/"));
    expect(files.some((file) => file.includes("node_modules/@powercontext/sdk/dist/index.d.ts"))).toBe(true);
    expect(files.filter((file) => /node_modules\/(?:undici|@types\/node)\//.test(file))).toEqual([]);
  }, 270_000);

  it("runs the installed bins of the CLI and the mock server with plain node", async () => {
    const cli = await run(
      process.execPath,
      ["node_modules/@powercontext/cli/bin/powercontext-ts.js", "--version"],
      app,
    );
    expect(cli.stdout.trim()).toBe("0.1.0");
    const mock = await run(
      process.execPath,
      ["node_modules/@powercontext/msw/bin/powercontext-mock.js", "--help"],
      app,
    );
    expect(mock.stdout).toMatch(/serve/);
  }, 60_000);

  it("runs the generator's bin with plain node on this repository's openapi.yaml", async () => {
    const result = await run(
      process.execPath,
      [
        "node_modules/@powercontext/codegen/bin/powercontext-codegen.js",
        "--spec",
        join(repoRoot, "openapi.yaml"),
        "--out",
        "gen",
      ],
      app,
      60_000,
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const methods = readFileSync(join(app, "gen/methods.ts"), "utf8");
    expect(methods).toMatch(/^\/\/ Code generated by @powercontext\/codegen 0\.1\.0 from openapi\.yaml/);
    expect(methods).toMatch(/captureContentSource\(/);
    // The emitted validators are plain JavaScript that node loads as they are.
    const load = await run(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        "const v = await import('./gen/validators.js'); console.log(Object.values(v).filter((f) => typeof f === 'function').length);",
      ],
      app,
    );
    expect(Number(load.stdout)).toBeGreaterThan(0);
  }, 90_000);

  it.skipIf(!hasPython)(
    "runs the generator's bin on the released contract, read from the installed Python package",
    async () => {
      const dump = await run(
        venvBin("python"),
        [
          "-c",
          "import json; from powercontext.http._generated.schema import OPENAPI_SCHEMA as s; print(json.dumps(s))",
        ],
        app,
      );
      expect(dump.code).toBe(0);
      writeFileSync(join(app, "released.json"), dump.stdout);
      const result = await run(
        process.execPath,
        [
          "node_modules/@powercontext/codegen/bin/powercontext-codegen.js",
          "--spec",
          "released.json",
          "--out",
          "released",
          "--lint",
          "upstream",
        ],
        app,
        60_000,
      );
      expect(result.code).toBe(0);
      // --out writes one standalone client folder: 126 operations, one method each.
      const methods = readFileSync(join(app, "released/methods.ts"), "utf8");
      expect(methods).toMatch(/listAtomicMemories\(/);
      expect(existsSync(join(app, "released/index.ts"))).toBe(true);
    },
    90_000,
  );

  it("runs the app's vitest test against the msw handlers", async () => {
    const result = await run(
      process.execPath,
      ["node_modules/vitest/vitest.mjs", "run", "handlers.test.ts"],
      app,
      90_000,
    );
    expect(result.stdout + result.stderr, result.stdout + result.stderr).toMatch(/Tests\s+1 passed/);
    expect(result.code).toBe(0);
  }, 120_000);
});
