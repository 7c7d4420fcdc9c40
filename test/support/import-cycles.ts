// Import cycles of a source folder, type-only imports included, for any package's
// tests: `findImportCycles(dir)` lists each group of modules that import each other.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** Every `.ts` file under `dir` (declaration files too), sorted. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/** The file a relative specifier names (`./a.js` is `./a.ts`), or null for a package or a file outside the sources. */
function resolve(from: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) return null;
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [
    base.replace(/\.(m?js)$/, ".ts"),
    base.replace(/\.js$/, ".d.ts"),
    base,
    `${base}.ts`,
    path.join(base, "index.ts"),
  ];
  return candidates.find((file) => file.endsWith(".ts") && existsSync(file)) ?? null;
}

/**
 * The modules each source file imports: every `import` and `export ... from`,
 * `import type` and `export type` included, and `import("...")` types and calls.
 */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    graph.set(file, [
      ...new Set(
        info.importedFiles
          .map((ref) => resolve(file, ref.fileName))
          .filter((target): target is string => target !== null),
      ),
    ]);
  }
  return graph;
}

/**
 * The import cycles under `dir`: each strongly connected group of modules
 * (Tarjan's algorithm), as paths relative to `dir`, sorted; a module that
 * imports itself is a group of one. Empty when the imports form no cycle.
 */
export function findImportCycles(dir: string): string[][] {
  const graph = importGraph(sourceFiles(dir));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let counter = 0;
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const group: string[] = [];
      for (let member = stack.pop()!; ; member = stack.pop()!) {
        onStack.delete(member);
        group.push(member);
        if (member === file) break;
      }
      if (group.length > 1 || (graph.get(file) ?? []).includes(file))
        groups.push(group.map((f) => path.relative(dir, f)).sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return groups.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

/** The imports from files under `fromDir` into files under `intoDir`, as `from -> into` (relative to `root`). */
export function importsAcross(root: string, fromDir: string, intoDir: string): string[] {
  const graph = importGraph(sourceFiles(root));
  const inside = (file: string, dir: string) => file.startsWith(path.join(root, dir) + path.sep);
  return [...graph].flatMap(([file, targets]) =>
    inside(file, fromDir)
      ? targets
          .filter((t) => inside(t, intoDir))
          .map((t) => `${path.relative(root, file)} -> ${path.relative(root, t)}`)
      : [],
  );
}
