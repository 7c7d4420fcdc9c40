import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT } from "../../src/cli.js";
import { OUTPUT_DIRS } from "../../src/pipeline.js";
import { compileStrict, freshFolder } from "../helpers/fresh-folder.js";
import { runIn } from "../helpers/minimal-spec.js";
import { fixturesDir, scratchDir } from "../helpers/paths.js";

const spec = path.join(fixturesDir, "features.yaml");

/** Generates `features.yaml` into `root/client` with `args`; returns the folder's file names. */
async function standalone(root: string, args: string[]): Promise<string[]> {
  const result = await runIn(root, ["--spec", spec, "--out", "client", "--quiet", ...args]);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(EXIT.ok);
  return readdirSync(path.join(root, "client"), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      path.relative(path.join(root, "client"), path.join(entry.parentPath, entry.name)).split(path.sep).join("/"),
    )
    .sort();
}

describe("--targets chooses what the generator writes", () => {
  it("client,types: no handlers.ts, and the folder type-checks under --strict in a project without msw", {
    timeout: 120_000,
  }, async () => {
    const root = freshFolder("pc-targets-no-msw", { msw: false });
    const files = await standalone(root, ["--targets", "client,types"]);
    expect(files).not.toContain("handlers.ts");
    expect(files).toContain("index.ts");
    expect(existsSync(path.join(root, "node_modules/msw"))).toBe(false);
    expect(
      compileStrict(
        root,
        files.filter((f) => f.endsWith(".ts")).map((f) => `client/${f}`),
      ),
    ).toEqual([]);
  });

  it("types alone: declarations and tables, no runtime code", async () => {
    expect(await standalone(scratchDir("targets-types"), ["--targets", "types"])).toEqual([
      "README.md",
      "openapi.d.ts",
      "operations.json",
    ]);
  });

  it("tables alone: the operation table, nothing else", async () => {
    expect(await standalone(scratchDir("targets-tables"), ["--targets", "tables"])).toEqual([
      "README.md",
      "operations.json",
    ]);
  });

  it("msw alone in the repository brings the client, whose validators the mock's contract imports", async () => {
    const root = scratchDir("targets-repo-msw");
    const written = await runIn(root, ["--spec", spec, "--root", ".", "--targets", "msw", "--quiet"]);
    expect(written.code, written.stderr).toBe(EXIT.ok);
    expect(OUTPUT_DIRS.filter((dir) => existsSync(path.join(root, dir)))).toEqual([
      "packages/sdk/src/generated",
      "packages/msw/src/generated",
    ]);
    expect(readdirSync(path.join(root, "packages/sdk/src/generated"))).toContain("validators.js");
  });

  it("msw alone brings the types file the handlers import", async () => {
    expect(await standalone(scratchDir("targets-msw"), ["--targets", "msw"])).toEqual([
      "README.md",
      "handlers.ts",
      "openapi.d.ts",
      "operations.json",
    ]);
  });

  it("python in a standalone folder writes the Python layer under python/", async () => {
    const root = scratchDir("targets-python");
    const files = await standalone(root, ["--targets", "python", "--python-models", "skip"]);
    expect(files.filter((f) => !f.startsWith("python/"))).toEqual(["README.md"]);
    expect(files).toEqual(
      expect.arrayContaining([
        "python/__init__.py",
        "python/extensions.py",
        "python/operations.py",
        "python/schema.py",
      ]),
    );
    // the README says what each Python file is
    const readme = readFileSync(path.join(root, "client/README.md"), "utf8");
    for (const file of files)
      expect(readme).toMatch(new RegExp(`^\\| \`${file.replace(/\./g, "\\.")}\` \\| (?!generated \\|)`, "m"));
  });

  it("the default with --out is client,types,msw", async () => {
    const files = await standalone(scratchDir("targets-default"), []);
    expect(files).toContain("handlers.ts");
    expect(files).toContain("index.ts");
    expect(files.some((f) => f.startsWith("python/"))).toBe(false);
  });

  it("the repository layout writes and checks only the chosen targets' folders", async () => {
    const root = scratchDir("targets-repo");
    const written = await runIn(root, ["--spec", spec, "--root", ".", "--targets", "types,client", "--quiet"]);
    expect(written.code, written.stderr).toBe(EXIT.ok);
    expect(OUTPUT_DIRS.filter((dir) => existsSync(path.join(root, dir)))).toEqual([
      "packages/types/generated",
      "packages/sdk/src/generated",
    ]);
    expect((await runIn(root, ["--spec", spec, "--root", ".", "--targets", "client", "--check", "--quiet"])).code).toBe(
      EXIT.ok,
    );
  });

  it.each([
    ["foo,client", /^error: --targets: unknown target "foo"; choose from types, tables, client, msw, python$/m],
    [",", /^error: --targets names no target/m],
  ])("--targets %s is refused with exit 2 and nothing written", async (list, message) => {
    const root = scratchDir("targets-bad");
    const result = await runIn(root, ["--spec", spec, "--out", "client", "--targets", list]);
    expect(result.code).toBe(EXIT.badInput);
    expect(result.stderr).toMatch(message);
    expect(existsSync(path.join(root, "client"))).toBe(false);
  });
});

describe("the README of a standalone folder", () => {
  it("is generated, names every file in the folder and the command that regenerates it", async () => {
    const root = scratchDir("targets-readme");
    const files = await standalone(root, ["--targets", "client,types", "--lint", "upstream"]);
    const readme = readFileSync(path.join(root, "client/README.md"), "utf8");
    expect(readme.split("\n")[0]).toMatch(
      /^<!-- Code generated by @powercontext\/codegen \S+ from features\.yaml \(sha256 [0-9a-f]{64}\)\. DO NOT EDIT\. -->$/,
    );
    for (const file of files)
      expect(readme).toMatch(new RegExp(`^\\| \`${file.replace(/\./g, "\\.")}\` \\| (?!generated \\|)`, "m"));
    expect(readme).toContain(
      "npx powercontext-codegen --spec features.yaml --out <this folder> --targets client,types --lint upstream",
    );
    expect(readme).not.toContain(root);
  });
});
