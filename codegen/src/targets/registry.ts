import { clientTarget } from "./client/index.js";
import { mswTarget } from "./msw/index.js";
import { pythonTarget } from "./python/index.js";
import { tablesTarget } from "./tables/index.js";
import type { GenerateOptions, Layout, Target } from "./target.js";
import { typesTarget } from "./types/index.js";

/**
 * Every target of the generator, in the order their names are listed and their
 * files written. A new target is a folder of `targets/` exporting a {@link Target}
 * from its `index.ts`, added here; nothing else changes.
 */
export const TARGETS: readonly Target[] = [typesTarget, tablesTarget, clientTarget, mswTarget, pythonTarget];

/** The `--targets` names, in {@link TARGETS} order. */
export const TARGET_NAMES: readonly string[] = TARGETS.map((target) => target.name);

/**
 * The targets a run writes, in {@link TARGETS} order: the named ones (default: those
 * marked for the layout) and every target they require, transitively.
 *
 * @throws {Error} for a name no target has (the CLI checks names first)
 */
export function selectTargets(options: GenerateOptions = {}): Target[] {
  const layout: Layout = options.layout ?? "repository";
  const named = options.targets ?? TARGETS.filter((t) => t.byDefault[layout]).map((t) => t.name);
  const chosen = new Set<string>();
  const add = (name: string): void => {
    if (chosen.has(name)) return;
    const target = TARGETS.find((t) => t.name === name);
    if (target === undefined) throw new Error(`no target named ${JSON.stringify(name)}`);
    chosen.add(name);
    for (const required of target.requires(layout)) add(required);
  };
  for (const name of named) add(name);
  return TARGETS.filter((t) => chosen.has(t.name));
}

/** The folders the chosen targets own in the repository layout, each once, in {@link TARGETS} order. */
export function outputDirs(options: GenerateOptions = {}): string[] {
  return [...new Set(selectTargets({ ...options, layout: "repository" }).map((t) => t.folder(options)))];
}
