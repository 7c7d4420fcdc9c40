import { randomBytes } from "node:crypto";
import { mkdir, readFile, readdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { DriftError } from "./errors.js";

/** One difference between generated output and the files on disk. */
export interface Drift {
  readonly path: string;
  readonly kind: "modified" | "missing" | "extra";
}

/**
 * Writes the generated files under `outDir`, one owned folder at a time: each
 * folder's complete new content is written to a temporary sibling folder, then
 * swapped in with two renames, so a reader never sees a half-written folder and a
 * failed run leaves the old folder in place. Files in an owned folder that the
 * generator no longer produces disappear with the swap.
 *
 * @param files - relative path (forward slashes) -> text; every path must lie in one of `ownedDirs`
 * @param ownedDirs - relative folders the generator owns entirely
 * @throws {Error} when a path lies outside `ownedDirs`
 */
export async function writeGenerated(outDir: string, files: ReadonlyMap<string, string>, ownedDirs: readonly string[]): Promise<void> {
  const byDir = groupByDir(files, ownedDirs);
  const suffix = randomBytes(4).toString("hex");
  for (const dir of ownedDirs) {
    const target = path.join(outDir, dir);
    const staging = `${target}.tmp-${suffix}`;
    const retired = `${target}.old-${suffix}`;
    await mkdir(staging, { recursive: true });
    try {
      for (const [relative, text] of byDir.get(dir) ?? []) {
        const file = path.join(staging, relative);
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, text, "utf8");
      }
      const existed = await exists(target);
      if (existed) await rename(target, retired);
      await rename(staging, target);
      if (existed) await rm(retired, { recursive: true, force: true });
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      throw error;
    }
  }
}

/**
 * Compares generated files with the disk without writing anything.
 *
 * @returns every modified, missing or extra file (extra: present in an owned folder
 *   but not generated), sorted by path; empty when the output is up to date
 */
export async function checkGenerated(outDir: string, files: ReadonlyMap<string, string>, ownedDirs: readonly string[]): Promise<Drift[]> {
  groupByDir(files, ownedDirs);
  const drift: Drift[] = [];
  for (const [relative, text] of files) {
    let current: string | undefined;
    try {
      current = await readFile(path.join(outDir, relative), "utf8");
    } catch {
      current = undefined;
    }
    if (current === undefined) drift.push({ path: relative, kind: "missing" });
    else if (current !== text) drift.push({ path: relative, kind: "modified" });
  }
  for (const dir of ownedDirs) {
    for (const relative of await listFiles(path.join(outDir, dir))) {
      const full = `${dir}/${relative}`;
      if (!files.has(full)) drift.push({ path: full, kind: "extra" });
    }
  }
  return drift.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** {@link checkGenerated}, throwing a {@link DriftError} naming each file when anything differs. */
export async function assertUpToDate(outDir: string, files: ReadonlyMap<string, string>, ownedDirs: readonly string[]): Promise<void> {
  const drift = await checkGenerated(outDir, files, ownedDirs);
  if (drift.length > 0) throw new DriftError(drift);
}

function groupByDir(files: ReadonlyMap<string, string>, ownedDirs: readonly string[]): Map<string, [string, string][]> {
  const byDir = new Map<string, [string, string][]>();
  for (const [relative, text] of files) {
    const dir = ownedDirs.find((d) => relative.startsWith(`${d}/`));
    if (dir === undefined) throw new Error(`generated path ${relative} is outside the generator's folders`);
    const list = byDir.get(dir) ?? [];
    list.push([relative.slice(dir.length + 1), text]);
    byDir.set(dir, list);
  }
  return byDir;
}

async function listFiles(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
}

async function exists(target: string): Promise<boolean> {
  try {
    await readdir(target);
    return true;
  } catch {
    return false;
  }
}
