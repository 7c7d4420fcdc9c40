import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT, runCli } from "../src/cli.js";
import { fixturesDir, scratchDir } from "./helpers/paths.js";

async function run(args: string[], cwd: string) {
  let stderr = "";
  const code = await runCli(args, { cwd, stdout: () => undefined, stderr: (t) => (stderr += t) });
  return { code, stderr };
}

describe("--check", () => {
  const spec = path.join(fixturesDir, "features.yaml");

  async function fresh(): Promise<string> {
    const dir = scratchDir("check");
    expect((await run(["--spec", spec, "--root", dir], dir)).code).toBe(EXIT.ok);
    expect((await run(["--spec", spec, "--root", dir, "--check"], dir)).code).toBe(EXIT.ok);
    return dir;
  }

  it("names a modified file", async () => {
    const dir = await fresh();
    const file = path.join(dir, "packages/sdk/src/generated/methods.ts");
    writeFileSync(file, readFileSync(file, "utf8") + "// hand edit\n");
    const result = await run(["--spec", spec, "--root", dir, "--check"], dir);
    expect(result.code).toBe(EXIT.drift);
    expect(result.stderr).toContain("modified: packages/sdk/src/generated/methods.ts");
  });

  it("names a missing file", async () => {
    const dir = await fresh();
    rmSync(path.join(dir, "packages/types/generated/operations.json"));
    const result = await run(["--spec", spec, "--root", dir, "--check"], dir);
    expect(result.code).toBe(EXIT.drift);
    expect(result.stderr).toContain("missing: packages/types/generated/operations.json");
  });

  it("names an extra file and writing removes it", async () => {
    const dir = await fresh();
    writeFileSync(path.join(dir, "packages/msw/src/generated/stale.ts"), "export {};\n");
    const result = await run(["--spec", spec, "--root", dir, "--check"], dir);
    expect(result.code).toBe(EXIT.drift);
    expect(result.stderr).toContain("extra: packages/msw/src/generated/stale.ts");
    expect((await run(["--spec", spec, "--root", dir], dir)).code).toBe(EXIT.ok);
    expect((await run(["--spec", spec, "--root", dir, "--check"], dir)).code).toBe(EXIT.ok);
  });
});

describe("--root", () => {
  it("defaults to the spec's directory, not the working directory", async () => {
    const specDir = scratchDir("out-default-spec");
    const cwd = scratchDir("out-default-cwd");
    const spec = path.join(specDir, "features.yaml");
    writeFileSync(spec, readFileSync(path.join(fixturesDir, "features.yaml"), "utf8"));
    expect((await run(["--spec", spec], cwd)).code).toBe(EXIT.ok);
    expect(existsSync(path.join(specDir, "packages/sdk/src/generated/methods.ts"))).toBe(true);
    expect(readdirSync(cwd)).toEqual([]);
  });
});
