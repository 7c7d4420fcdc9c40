// The contract's own names (wire fields and values of openapi.yaml) found in
// hand-written source: the runtime must name none of them (every wire name it reads
// comes from a descriptor), which test/structure/house.test.ts states and
// packages/runtime/test/hygiene.test.ts checks in depth.
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { sourceFiles } from "./import-cycles.js";

/** Source text without comments (TSDoc may name wire fields to explain them). */
function code(file: string): string {
  return readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:])\/\/.*$/gm, "$1");
}

/** The contract's names: snake_case property names and enum values of the spec at `specFile`. */
export function contractNames(specFile: string): Set<string> {
  const names = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(walk);
      return;
    }
    if (node === null || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "properties" && value !== null && typeof value === "object")
        for (const name of Object.keys(value)) if (name.includes("_")) names.add(name);
      if (key === "enum" && Array.isArray(value))
        for (const item of value) if (typeof item === "string" && item.includes("_")) names.add(item);
      walk(value);
    }
  };
  walk(parse(readFileSync(specFile, "utf8")));
  return names;
}

/**
 * Each contract name, the vendor extension prefix and each quoted state of the
 * Operation resource that the code (comments left out) of a module under `dir`
 * writes, as `file: name` (file relative to `dir`).
 */
export function wireNamesIn(dir: string, names: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(dir)) {
    const text = code(file);
    for (const name of [...names, "x-powercontext-"])
      if (new RegExp(`(?<![\\w.-])${name.replace(/[-]/g, "\\-")}(?![\\w])`).test(text))
        found.push(`${path.relative(dir, file)}: ${name}`);
    for (const state of ["succeeded", "queued", "running"])
      if (text.includes(`"${state}"`)) found.push(`${path.relative(dir, file)}: "${state}"`);
  }
  return found;
}
