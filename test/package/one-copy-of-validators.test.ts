// The generated validators are shipped once: @powercontext/sdk publishes them
// (`@powercontext/sdk/validators`), and @powercontext/msw, whose contract checks
// requests and answers with them, depends on the SDK and imports that module
// instead of publishing a copy of its own. Read from what `npm pack` would
// publish of both packages (run `npm run build` first); of @powercontext/msw's
// dist/, only what its sources build (a file an earlier build left there, with
// no source any more, is not published by a clean build).
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { checkAll, checkFile, repoRoot, requireTools } from "../real/tools.js";

const exec = promisify(execFile);
const enabled = requireTools(
  "one copy of the validators",
  checkAll(
    ...["packages/sdk", "packages/msw"].map((folder) =>
      checkFile(join(repoRoot, folder, "dist"), "run: npm run build"),
    ),
  ),
);

interface Packed {
  readonly name: string;
  readonly files: readonly { readonly path: string }[];
}

const digest = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

/** Whether `path`, a file @powercontext/msw packs, is built from one of its sources (or is not build output at all). */
function fromSources(path: string): boolean {
  if (!path.startsWith("dist/")) return true;
  const stem = path.slice("dist/".length).replace(/(\.d)?\.[cm]?[jt]s(\.map)?$/, "");
  return [".ts", ".js"].some((ext) => existsSync(join(repoRoot, "packages/msw/src", `${stem}${ext}`)));
}

describe.skipIf(!enabled)("the validators in the published packages", () => {
  let sdk: Packed;
  let msw: Packed;
  beforeAll(async () => {
    const { stdout } = await exec(
      "npm",
      ["pack", "--dry-run", "--json", "--workspace", "packages/sdk", "--workspace", "packages/msw"],
      {
        cwd: repoRoot,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const packed = JSON.parse(stdout) as Packed[];
    sdk = packed.find((p) => p.name === "@powercontext/sdk") as Packed;
    const packedMsw = packed.find((p) => p.name === "@powercontext/msw") as Packed;
    msw = { ...packedMsw, files: packedMsw.files.filter((f) => fromSources(f.path)) };
    expect(sdk?.files.length).toBeGreaterThan(0);
    expect(msw?.files.length).toBeGreaterThan(0);
  }, 60_000);

  it("are published by the SDK, once", () => {
    expect(sdk.files.map((f) => f.path).filter((path) => /(^|\/)validators\.js$/.test(path))).toEqual([
      "dist/generated/validators.js",
    ]);
  });

  it("are not published again by @powercontext/msw, under any name", () => {
    const validators = digest(join(repoRoot, "packages/sdk/dist/generated/validators.js"));
    const names = msw.files.map((f) => f.path);
    expect(names.filter((path) => /(^|\/)validators\.[cm]?js$/.test(path))).toEqual([]);
    expect(names.filter((path) => digest(join(repoRoot, "packages/msw", path)) === validators)).toEqual([]);
  });

  it("reach @powercontext/msw through the SDK it depends on", () => {
    const manifest = (folder: string) =>
      JSON.parse(readFileSync(join(repoRoot, folder, "package.json"), "utf8")) as {
        version: string;
        dependencies?: Record<string, string>;
      };
    expect(manifest("packages/msw").dependencies?.["@powercontext/sdk"]).toBe(manifest("packages/sdk").version);
    const importers = msw.files
      .map((f) => f.path)
      .filter(
        (path) =>
          path.endsWith(".js") &&
          readFileSync(join(repoRoot, "packages/msw", path), "utf8").includes('"@powercontext/sdk/validators"'),
      );
    expect(importers).toContain("dist/generated/contract.js");
  });
});
