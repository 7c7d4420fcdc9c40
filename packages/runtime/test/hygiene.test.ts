// The runtime knows no PowerContext contract: every wire name it reads comes
// from a descriptor the generator wrote from openapi.yaml. This test takes the
// contract's own names from openapi.yaml (snake_case member names and enum
// values, the states of the Operation resource, the vendor extension prefix) and
// searches the runtime's sources (comments left out) for them. Import cycles
// are checked for every package by test/package/import-cycles.test.ts. The contract
// error classes and their code table are generated (docs/adr/0014), so no file
// is let through.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const sourceDir = path.join(root, "packages/runtime/src");
const sources = readdirSync(sourceDir, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
  .map((entry) => path.join(entry.parentPath, entry.name));

/** Source text without comments (TSDoc may name wire fields to explain them). */
function code(file: string): string {
  return readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:])\/\/.*$/gm, "$1");
}

function contractNames(): Set<string> {
  const spec = parse(readFileSync(path.join(root, "openapi.yaml"), "utf8")) as unknown;
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
  walk(spec);
  return names;
}

describe("the hand-written runtime", () => {
  it("contains no PowerContext wire name", () => {
    const names = contractNames();
    expect(names.has("expected_version")).toBe(true); // the search really reads the contract
    const found: string[] = [];
    for (const file of sources) {
      const text = code(file);
      for (const name of [...names, "x-powercontext-"]) {
        if (new RegExp(`(?<![\\w.-])${name.replace(/[-]/g, "\\-")}(?![\\w])`).test(text))
          found.push(`${path.relative(sourceDir, file)}: ${name}`);
      }
      for (const state of ["succeeded", "queued", "running"])
        if (text.includes(`"${state}"`)) found.push(`${path.relative(sourceDir, file)}: "${state}"`);
    }
    expect(found).toEqual([]);
  });
});
