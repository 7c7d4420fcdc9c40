import { randomBytes } from "node:crypto";
import type { Dirent } from "node:fs";
import { mkdir, readFile, readdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { DriftError, OutputError } from "./errors.js";
import { assertGeneratorOwns } from "./ownership.js";

/** One difference between generated output and the files on disk. */
export interface Drift {
  readonly path: string;
  readonly kind: "modified" | "missing" | "extra";
}

/**
 * Writes the generated files under `outDir`, all owned folders together or none:
 * first every folder's complete new content is written to a temporary sibling
 * folder; only when all are staged are they swapped in, each with two renames
 * (old folder aside, new folder in place). If staging or any swap fails, the
 * folders already swapped are put back and the staged copies removed, so the
 * previous output stays as it was. Files in an owned folder that the generator no
 * longer produces disappear with the swap.
 *
 * Before anything is written, every owned folder that exists must hold nothing
 * but files the generator wrote (see `assertGeneratorOwns`): a folder of user
 * files, or the folder the spec lives in, is refused whole.
 *
 * @param files - relative path (forward slashes) -> text; every path must lie in one of `ownedDirs`
 * @param ownedDirs - relative folders the generator owns entirely
 * @throws {Error} when a path lies outside `ownedDirs`
 * @throws {OutputError} when an owned folder holds anything else, is a file, or
 *   lies under a file (nothing written); when a write or a rename fails (after the
 *   rollback, with the file system's code); naming the folders to restore by
 *   hand if the rollback itself fails
 */
export async function writeGenerated(
  outDir: string,
  files: ReadonlyMap<string, string>,
  ownedDirs: readonly string[],
): Promise<void> {
  const byDir = groupByDir(files, ownedDirs);
  const suffix = randomBytes(4).toString("hex");
  const swaps: Swap[] = ownedDirs.map((dir) => {
    const target = path.join(outDir, dir);
    return { dir, target, staging: `${target}.tmp-${suffix}`, retired: `${target}.old-${suffix}`, state: "pending" };
  });
  for (const swap of swaps) await assertGeneratorOwns(swap.target);
  try {
    for (const swap of swaps) await stage(swap.staging, byDir.get(swap.dir) ?? []);
    for (const swap of swaps) {
      if (await exists(swap.target)) {
        await rename(swap.target, swap.retired);
        swap.state = "retired";
      }
      await rename(swap.staging, swap.target);
      swap.state = swap.state === "retired" ? "replaced" : "created";
    }
  } catch (error) {
    await rollBack(swaps, error);
    throw new OutputError(
      `writing the generated output failed (${(error as Error).message}); the previous output is as it was`,
      { cause: error },
    );
  }
  for (const swap of swaps) if (swap.state === "replaced") await rm(swap.retired, { recursive: true, force: true });
}

/** One owned folder on its way to being replaced; `state` says how far it got. */
interface Swap {
  readonly dir: string;
  readonly target: string;
  readonly staging: string;
  readonly retired: string;
  state: "pending" | "retired" | "replaced" | "created";
}

async function stage(staging: string, entries: readonly [string, string][]): Promise<void> {
  await mkdir(staging, { recursive: true });
  for (const [relative, text] of entries) {
    const file = path.join(staging, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text, "utf8");
  }
}

/** Undoes the swaps done so far, last first, and removes every staged copy. */
async function rollBack(swaps: readonly Swap[], cause: unknown): Promise<void> {
  const stuck: string[] = [];
  for (const swap of [...swaps].reverse()) {
    try {
      if (swap.state === "replaced" || swap.state === "created")
        await rm(swap.target, { recursive: true, force: true });
      if (swap.state === "replaced" || swap.state === "retired") await rename(swap.retired, swap.target);
      swap.state = "pending";
    } catch {
      stuck.push(`${swap.retired} -> ${swap.target}`);
    }
    await rm(swap.staging, { recursive: true, force: true }).catch(() => undefined);
  }
  if (stuck.length > 0) {
    throw new OutputError(
      `writing the generated output failed (${(cause as Error).message}) and the previous output could not be put back; move these folders back by hand: ${stuck.join(", ")}`,
      { cause },
    );
  }
}

/**
 * Compares generated files with the disk without writing anything.
 *
 * @returns every modified, missing or extra file (extra: present in an owned folder
 *   but not generated), sorted by path; empty when the output is up to date
 */
export async function checkGenerated(
  outDir: string,
  files: ReadonlyMap<string, string>,
  ownedDirs: readonly string[],
): Promise<Drift[]> {
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
export async function assertUpToDate(
  outDir: string,
  files: ReadonlyMap<string, string>,
  ownedDirs: readonly string[],
): Promise<void> {
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
  let entries: Dirent[];
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
