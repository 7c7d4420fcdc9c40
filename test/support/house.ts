// The shape of a source folder, held against rules stated as data (test/structure/):
// no two rooms (the files and folders side by side in one folder) import each other,
// directly or around a circle, at any depth, so every import runs down and none climbs
// back; a module imports only rooms of its own layer or lower ones; some imports never
// happen; and a package imports only the packages it may.
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { importGraph, sourceFiles } from "./import-cycles.js";

/** What a source folder may import, stated as data. Paths are relative to `dir`, with `/` between folders. */
export interface HouseRules {
  /** The source folder, relative to the repository root. */
  readonly dir: string;
  /**
   * Layers from the bottom up, each a list of rooms: a file (`pipeline.ts`) or a folder
   * (`ir/`). A module imports only modules of its own layer or a lower one. Modules in
   * no layer are held only to the other rules.
   */
  readonly layers?: readonly (readonly string[])[];
  /** Imports that never happen: from modules under `from` to modules under `to`, with why. */
  readonly never?: readonly { readonly from: string; readonly to: string; readonly why: string }[];
  /** Folders whose subfolders import nothing of one another (plugins side by side). */
  readonly apart?: readonly string[];
  /** Known imports that break a rule, `from -> to` (files, or folders ending in `/`), each with why it is still there; an exception that no longer exists is itself reported. */
  readonly exceptions?: readonly { readonly import: string; readonly why: string }[];
}

/** One import inside the folder: both ends relative to it. */
interface Edge {
  readonly from: string;
  readonly to: string;
}

/** The imports between the modules of `dir` (absolute), relative to it, with `/` between folders. */
export function houseEdges(dir: string): Edge[] {
  const rel = (file: string) => path.relative(dir, file).split(path.sep).join("/");
  return [...importGraph(sourceFiles(dir))].flatMap(([file, targets]) =>
    targets.filter((t) => t.startsWith(dir + path.sep)).map((t) => ({ from: rel(file), to: rel(t) })),
  );
}

/**
 * Every way the folder at `root/rules.dir` breaks its rules, one line each, sorted;
 * empty when it keeps them. Circles are reported per folder with one import of each
 * step: `circle in simulator/: skills/ -> state.ts -> skills/ (state.ts -> skills/index.ts)`.
 */
export function houseViolations(root: string, rules: HouseRules): string[] {
  const dir = path.join(root, rules.dir);
  const all = houseEdges(dir);
  const exceptions = (rules.exceptions ?? []).map((e) => e.import);
  const excepts = (edge: Edge, exception: string) => {
    const [from = "", to = ""] = exception.split(" -> ");
    return matches(edge.from, from) && matches(edge.to, to);
  };
  const found: string[] = [];
  for (const exception of exceptions)
    if (!all.some((e) => excepts(e, exception)))
      found.push(`the known exception ${exception} no longer exists: delete it from the rules`);
  const edges = all.filter((e) => !exceptions.some((exception) => excepts(e, exception)));
  found.push(...circles(edges), ...layerBreaks(edges, rules.layers ?? []));
  for (const rule of rules.never ?? [])
    for (const e of edges)
      if (e.from.startsWith(rule.from) && e.to.startsWith(rule.to)) found.push(`${e.from} -> ${e.to}: ${rule.why}`);
  for (const parent of rules.apart ?? [])
    for (const e of edges) {
      const a = subfolder(e.from, parent);
      const b = subfolder(e.to, parent);
      if (a !== null && b !== null && a !== b) found.push(`${e.from} -> ${e.to}: the folders of ${parent} are apart`);
    }
  return [...new Set(found)].sort();
}

/** True when `file` is `room` (a file) or lies under it (a folder, ending in `/`). */
function matches(file: string, room: string): boolean {
  return room.endsWith("/") ? file.startsWith(room) : file === room;
}

/** The subfolder of `parent` a path lies in (`targets/msw/`), or null when it lies in none. */
function subfolder(file: string, parent: string): string | null {
  if (!file.startsWith(parent)) return null;
  const rest = file.slice(parent.length).split("/");
  return rest.length > 1 ? `${parent}${rest[0]}/` : null;
}

/** The room of `file` among the children of `folder` ("" for the top): a file, or a subfolder with `/`. */
function roomOf(file: string, folder: string): string | null {
  if (!file.startsWith(folder)) return null;
  const [first, ...rest] = file.slice(folder.length).split("/");
  return rest.length > 0 ? `${first}/` : (first ?? null);
}

/** The circles among the rooms of every folder: strongly connected groups of two or more rooms. */
function circles(edges: readonly Edge[]): string[] {
  const folders = new Set<string>([""]);
  for (const e of edges)
    for (const file of [e.from, e.to]) {
      const parts = file.split("/");
      for (let i = 1; i < parts.length; i += 1) folders.add(`${parts.slice(0, i).join("/")}/`);
    }
  const out: string[] = [];
  for (const folder of folders) {
    const between = new Map<string, Map<string, Edge>>();
    for (const e of edges) {
      const a = roomOf(e.from, folder);
      const b = roomOf(e.to, folder);
      if (a === null || b === null || a === b) continue;
      if (!between.has(a)) between.set(a, new Map());
      if (!between.get(a)!.has(b)) between.get(a)!.set(b, e);
    }
    for (const group of stronglyConnected(between)) {
      const steps = group.flatMap((a) =>
        group.filter((b) => between.get(a)?.has(b)).map((b) => between.get(a)!.get(b)!),
      );
      out.push(
        `circle in ${folder || "./"}: ${group.join(" <-> ")} (${steps.map((s) => `${s.from} -> ${s.to}`).join("; ")})`,
      );
    }
  }
  return out;
}

/** The groups of two or more nodes that reach each other (Tarjan), each sorted. */
function stronglyConnected(graph: ReadonlyMap<string, ReadonlyMap<string, unknown>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      group.push(member);
      if (member === node) break;
    }
    if (group.length > 1) groups.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return groups;
}

/** Imports from a lower layer into a higher one. */
function layerBreaks(edges: readonly Edge[], layers: readonly (readonly string[])[]): string[] {
  const layerOf = (file: string) =>
    layers.findIndex((rooms) => rooms.some((room) => (room.endsWith("/") ? file.startsWith(room) : file === room)));
  return edges.flatMap((e) => {
    const from = layerOf(e.from);
    const to = layerOf(e.to);
    return from !== -1 && to !== -1 && to > from
      ? [`${e.from} -> ${e.to}: layer ${from + 1} imports layer ${to + 1} (${layers[to]!.join(", ")})`]
      : [];
  });
}

/** The `@powercontext/<name>` packages the modules under `dir` import (real imports, not text in strings). */
export function packagesImported(dir: string): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(dir))
    for (const ref of ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles) {
      const match = /^@powercontext\/([a-z-]+)/.exec(ref.fileName);
      if (match !== null) names.add(match[1]!);
    }
  return names;
}
