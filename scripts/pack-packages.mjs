#!/usr/bin/env node
// Packs every published package of this repository with `npm pack` into one
// folder, so that an application can install them from tarballs (no workspace,
// no symlinks). Run `npm run build` first: the tarballs carry dist/.
//
//   node scripts/pack-packages.mjs [--out DIR]     (default: .cache/tarballs)
//
// Prints one tarball path per line. The README's install instructions and the
// tarball test (test/package/tarballs.test.ts) both use this script.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The published packages, in dependency order. */
export const PUBLISHED = [
  "packages/types",
  "packages/runtime",
  "packages/sdk",
  "packages/msw",
  "packages/cli",
  "codegen",
];

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Packs each published package into `outDir` and returns the tarballs' absolute paths.
 * @throws Error naming the package when its build output (dist/) is missing or `npm pack` fails
 */
export function packPackages(outDir) {
  mkdirSync(outDir, { recursive: true });
  for (const folder of PUBLISHED) {
    const manifest = JSON.parse(readFileSync(join(root, folder, "package.json"), "utf8"));
    if ((manifest.files ?? []).includes("dist") && !existsSync(join(root, folder, "dist"))) {
      throw new Error(`${manifest.name} is not built (no ${folder}/dist): run npm run build`);
    }
  }
  // One npm process for all of them: npm's start-up dominates a pack.
  const output = execFileSync(
    "npm",
    ["pack", "--json", "--pack-destination", outDir, ...PUBLISHED.flatMap((folder) => ["--workspace", folder])],
    { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
  );
  const tarballs = JSON.parse(output).map((packed) => join(outDir, packed.filename));
  return tarballs;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf("--out");
  const outDir = resolve(at === -1 ? join(root, ".cache/tarballs") : (process.argv[at + 1] ?? ""));
  for (const tarball of packPackages(outDir)) process.stdout.write(`${tarball}\n`);
}
