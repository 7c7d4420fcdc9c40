import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * Runs each example as a user would (tsx, against the built packages) and
 * checks it exits 0 and reports what the scenario is about.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));

function run(file: string) {
  return spawnSync(process.execPath, ["--import", "tsx", `examples/${file}`], {
    cwd: root,
    encoding: "utf8",
    timeout: 60_000,
  });
}

describe("examples", () => {
  it("type-check under the repository's strict settings (a wrong msw override answer included)", () => {
    const tsc = spawnSync(
      process.execPath,
      ["node_modules/typescript/bin/tsc", "-p", "examples/tsconfig.json", "--noEmit"],
      { cwd: root, encoding: "utf8", timeout: 120_000 },
    );
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  }, 120_000);

  it("quickstart flushes asynchronously and finds Memory", () => {
    const result = run("quickstart.ts");
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/answered the flush with 202/);
    expect(result.stdout).toMatch(/Search found [1-9]\d* Memory entries/);
    expect(result.stdout).not.toContain("pc-admin");
  });

  it("recovery shows one acceptance, an identical receipt, 409 and 404", () => {
    const result = run("recovery.ts");
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("returns the identical receipt");
    expect(result.stdout).toContain("Acceptances recorded for the block: 1; budgets granted to the scope: 1");
    expect(result.stdout).toContain("409 topic_memory_block_conflict");
    expect(result.stdout).toContain("404 topic_memory_block_not_found");
    expect(result.stdout).not.toContain("pc-admin");
  });
});
