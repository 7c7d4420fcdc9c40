import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EXIT, runCli } from "../../src/cli.js";

const version = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

async function run(args: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, { cwd: process.cwd(), stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe("powercontext-codegen --version", () => {
  it("prints the package version and exits 0, spelled as the other binaries spell it", async () => {
    expect(await run(["--version"])).toEqual({ code: EXIT.ok, stdout: `${version}\n`, stderr: "" });
    const help = await run(["--help"]);
    expect(help.stdout).toMatch(/^ {2}--version +show the version and exit$/m);
    expect(help.stdout).not.toContain("-V,");
  });
});
