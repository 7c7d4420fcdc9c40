// Nothing the packages publish compiles code from strings: no `eval`, no
// `new Function`, no `Function(...)`, which Cloudflare Workers, Deno Deploy and
// pages under a strict Content-Security-Policy refuse (the validators are
// tables that the runtime prepares, docs/adr/0020-validator-tables.md). Read
// from the tarballs `npm pack` makes of every published package
// (scripts/pack-packages.mjs; run `npm run build` first), every file of them.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLISHED, packPackages } from "../../scripts/pack-packages.mjs";
import { checkAll, checkFile, repoRoot, requireTools } from "../real/tools.js";

const enabled = requireTools(
  "no code from strings in the published packages",
  checkAll(
    ...PUBLISHED.filter((folder) => folder !== "packages/types").map((folder) =>
      checkFile(join(repoRoot, folder, "dist"), "run: npm run build"),
    ),
  ),
);

/** A call that compiles a string into code: `eval(`, `new Function`, `Function(` (spaces allowed). */
const COMPILES_CODE = /\beval\s*\(|\bnew\s+Function\b|\bFunction\s*\(/;

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe.skipIf(!enabled)("the published packages", () => {
  let work = "";
  let files: string[] = [];
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), "powercontext-no-eval-"));
    for (const tarball of packPackages(join(work, "tarballs"))) {
      const into = join(work, "unpacked", relative(join(work, "tarballs"), tarball).replace(/\.tgz$/, ""));
      execFileSync("mkdir", ["-p", into]);
      execFileSync("tar", ["-xzf", tarball, "-C", into]);
    }
    files = filesUnder(join(work, "unpacked"));
  }, 180_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("hold the validators, the runtime and the generator", () => {
    const shipped = files.map((file) => relative(join(work, "unpacked"), file));
    expect(shipped.some((file) => file.endsWith("/package/dist/generated/validators.js"))).toBe(true);
    expect(shipped.some((file) => file.endsWith("/package/dist/validation/check.js"))).toBe(true);
    expect(shipped.filter((file) => file.endsWith("/package/package.json"))).toHaveLength(PUBLISHED.length);
  });

  it("compile no code from strings: no eval, new Function or Function( in any file", () => {
    const offenders = files
      .filter((file) => COMPILES_CODE.test(readFileSync(file, "utf8")))
      .map((file) => relative(join(work, "unpacked"), file));
    expect(offenders).toEqual([]);
  });
});
