import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findImportCycles, importsAcross } from "../../test/support/import-cycles.js";
import { repoRoot, scratchDir } from "./helpers/paths.js";

const source = path.join(repoRoot, "codegen/src");

describe("the generator's modules", () => {
  it("import each other without a cycle, type-only imports included", () => {
    expect(findImportCycles(source)).toEqual([]);
  });

  it("flow one way: the emitters read the IR, never the loader", () => {
    expect(importsAcross(source, "emit", "load")).toEqual([]);
    expect(importsAcross(source, "ir", "emit")).toEqual([]);
    expect(importsAcross(source, "load", "emit")).toEqual([]);
  });
});

describe("the cycle finder", () => {
  it("reports a cycle of type-only imports and re-exports, and a module that imports itself", () => {
    const dir = scratchDir("cycles");
    mkdirSync(path.join(dir, "sub"));
    writeFileSync(path.join(dir, "a.ts"), `import type { B } from "./sub/b.js";\nexport type A = B | 1;\n`);
    writeFileSync(path.join(dir, "sub/b.ts"), `export type { C as B } from "../c.js";\n`);
    writeFileSync(path.join(dir, "c.ts"), `export type C = import("./a.js").A[];\n`);
    writeFileSync(path.join(dir, "self.ts"), `export * from "./self.js";\n`);
    writeFileSync(path.join(dir, "free.ts"), `import type { A } from "./a.js";\nexport type F = A;\n`);
    expect(findImportCycles(dir)).toEqual([["a.ts", "c.ts", path.join("sub", "b.ts")], ["self.ts"]]);
  });
});
