import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeGenerated } from "../src/write.js";
import { snapshot } from "./helpers/minimal-spec.js";
import { scratchDir } from "./helpers/paths.js";

const DIRS = ["one/generated", "two/generated", "three/generated"] as const;

/** An output root where every owned folder holds an old file. */
function previousOutput(): string {
  const root = scratchDir("write");
  for (const dir of DIRS) {
    mkdirSync(path.join(root, dir), { recursive: true });
    writeFileSync(path.join(root, dir, "old.ts"), `// previous ${dir}\n`);
  }
  return root;
}

function newOutput(): Map<string, string> {
  return new Map(DIRS.map((dir) => [`${dir}/new.ts`, `// new ${dir}\n`]));
}

/** Names of everything beside the owned folders: no staging or retired copy may be left behind. */
function siblings(root: string): string[] {
  return DIRS.flatMap((dir) => readdirSync(path.dirname(path.join(root, dir)))).sort();
}

describe("writeGenerated replaces every owned folder together or none", () => {
  it("replaces all folders when every write succeeds", async () => {
    const root = previousOutput();
    await writeGenerated(root, newOutput(), DIRS);
    expect(Object.keys(snapshot(root)).sort()).toEqual(DIRS.map((dir) => path.join(dir, "new.ts")).sort());
    expect(siblings(root)).toEqual(["generated", "generated", "generated"]);
  });

  it("a write failure in the second folder leaves the first one (and all others) as they were", async () => {
    const root = previousOutput();
    const before = snapshot(root);
    const files = newOutput();
    // A file and a folder of the same name: the second folder's staging fails with ENOTDIR/EEXIST.
    files.set("two/generated/clash", "a file\n");
    files.set("two/generated/clash/inner.ts", "// below a file\n");
    await expect(writeGenerated(root, files, DIRS)).rejects.toThrow(/ENOTDIR|EEXIST/);
    expect(snapshot(root)).toEqual(before);
    expect(siblings(root)).toEqual(["generated", "generated", "generated"]);
  });

  it("a failed swap of the last folder puts the folders already swapped back", async () => {
    const root = previousOutput();
    // The third owned path is a file, not a folder: renaming the staged folder onto it fails.
    const third = path.join(root, DIRS[2]);
    rmSync(third, { recursive: true });
    writeFileSync(third, "not a folder\n");
    const before = snapshot(root);
    await expect(writeGenerated(root, newOutput(), DIRS)).rejects.toThrow(/ENOTDIR|EISDIR|EEXIST/);
    expect(snapshot(root)).toEqual(before);
    expect(siblings(root)).toEqual(["generated", "generated", "generated"]);
  });
});
