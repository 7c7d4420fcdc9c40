// Packaging lint of every published package, on the tarballs `npm pack` makes
// (the files an application gets): publint (package.json against the packed
// files, strict: warnings count) and @arethetypeswrong/cli (what TypeScript
// resolves for each entry point). Both run from devDependencies, offline.
//
// attw runs with its `esm-only` profile: the packages are ES modules only, so a
// CommonJS `require` (node16-cjs) and the pre-exports node10 resolution are out
// of scope; every other resolution (node16 from ESM, bundler) must be clean.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLISHED, packPackages } from "../../scripts/pack-packages.mjs";
import { checkAll, checkFile, repoRoot, requireTools } from "../real/tools.js";

const run = promisify(execFile);
const built = checkAll(
  ...PUBLISHED.filter((folder) => folder !== "packages/types").map((folder) =>
    checkFile(join(repoRoot, folder, "dist"), "run: npm run build"),
  ),
);
const enabled = requireTools("packaging lint (publint, attw)", built);
const attw = join(repoRoot, "node_modules/@arethetypeswrong/cli/dist/index.js");

describe.skipIf(!enabled)("publint and attw on every packed package", () => {
  let dir = "";
  let tarballs: string[] = [];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "powercontext-lint-"));
    tarballs = packPackages(dir);
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("packs one tarball per published package", () => {
    expect(tarballs.map((file) => basename(file))).toEqual([
      "powercontext-types-0.1.0.tgz",
      "powercontext-runtime-0.1.0.tgz",
      "powercontext-sdk-0.1.0.tgz",
      "powercontext-msw-0.1.0.tgz",
      "powercontext-cli-0.1.0.tgz",
      "powercontext-codegen-0.1.0.tgz",
    ]);
  });

  it.each(PUBLISHED)("%s: publint reports nothing", async (folder) => {
    const tarball = tarballs[PUBLISHED.indexOf(folder)] ?? "";
    const bytes = readFileSync(tarball);
    const { messages, pkg } = await publint({
      pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
      strict: true,
    });
    expect(messages.map((message) => `${message.type}: ${formatMessage(message, pkg) ?? message.code}`)).toEqual([]);
  });

  it.each(PUBLISHED)("%s: attw reports no problem", async (folder) => {
    const tarball = tarballs[PUBLISHED.indexOf(folder)] ?? "";
    // Exit code 1 with the problems on stdout when there is any.
    const result = await run(process.execPath, [attw, tarball, "--profile", "esm-only", "--format", "json"], {
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
    const report = JSON.parse(result.stdout) as { analysis: { problems: unknown[] } };
    expect(report.analysis.problems).toBeDefined();
    const kept = report.analysis.problems.filter((problem) => {
      const kind = (problem as { resolutionKind?: string }).resolutionKind;
      return kind !== "node10" && kind !== "node16-cjs";
    });
    expect(kept).toEqual([]);
  });
});
