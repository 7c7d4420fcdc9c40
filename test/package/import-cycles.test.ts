// The packages' sources, generated modules included, import each other without a
// cycle (type-only imports and `import("...")` types count), and the packages
// depend on each other in one direction: types and runtime first, then the SDK,
// the msw package, the CLI. The generator has its own test (codegen/test), which
// also checks the direction of its load -> ir -> emit folders.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findImportCycles, importGraph, sourceFiles } from "../support/import-cycles.js";
import { repoRoot } from "../real/tools.js";

/** Each package and its source folder, in the order they may depend on each other. */
const layers = [
  { name: "types", dir: "packages/types" },
  { name: "runtime", dir: "packages/runtime/src" },
  { name: "sdk", dir: "packages/sdk/src" },
  { name: "msw", dir: "packages/msw/src" },
  { name: "cli", dir: "packages/cli/src" },
] as const;

/** The `@powercontext/<name>` packages a source folder imports (subpath entries under their package). */
function packagesImported(dir: string): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(path.join(repoRoot, dir))) {
    for (const match of readFileSync(file, "utf8").matchAll(/(?:from\s+|import\s*\(\s*)"@powercontext\/([a-z-]+)/g))
      names.add(match[1]!);
  }
  return names;
}

describe("the packages' modules", () => {
  it.each(layers)("of $name import each other without a cycle", ({ dir }) => {
    expect(findImportCycles(path.join(repoRoot, dir))).toEqual([]);
  });

  it("depend on packages earlier in the order types, runtime, sdk, msw, cli only", () => {
    const upward: string[] = [];
    layers.forEach(({ name, dir }, index) => {
      const allowed = new Set(layers.slice(0, index).map((layer) => layer.name));
      for (const imported of packagesImported(dir))
        if (!allowed.has(imported)) upward.push(`${name} imports @powercontext/${imported}`);
    });
    expect(upward).toEqual([]);
  });
});

describe("the msw package's simulator", () => {
  it("reaches no module that imports msw, types included", () => {
    const files = sourceFiles(path.join(repoRoot, "packages/msw/src"));
    const graph = importGraph(files);
    const importsMsw = (file: string) => /from\s+"msw(?:\/[^"]*)?"/.test(readFileSync(file, "utf8"));
    const reached = new Set<string>();
    const pending = files.filter((file) => file.includes(`${path.sep}simulator${path.sep}`));
    for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
      if (reached.has(file)) continue;
      reached.add(file);
      pending.push(...(graph.get(file) ?? []));
    }
    expect([...reached].filter(importsMsw).map((file) => path.relative(repoRoot, file))).toEqual([]);
  });
});
