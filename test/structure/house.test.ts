// The house keeps its shape: what each package and each layer may import, stated as
// data and checked on every run. Within every source folder no two rooms (files and
// folders side by side) import each other, directly or around a circle, so no import
// climbs back; the generator's stages run one way (spec -> load -> IR -> emitters ->
// targets -> pipeline), its emitters read the IR and never the loader, its targets
// stand apart and its renderer names none of them; the mock's contract types sit under
// its generated data, which sits under the simulator; the runtime names no wire field;
// the packages depend on each other in one direction. The last tests plant a violation
// of each kind and see it reported.
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findImportCycles, importGraph, sourceFiles } from "../support/import-cycles.js";
import { houseViolations, packagesImported, type HouseRules } from "../support/house.js";
import { contractNames, wireNamesIn } from "../support/wire-names.js";
import { repoRoot } from "../real/tools.js";
import { readFileSync } from "node:fs";

/** The generator: one stage per layer, from the spec up to the command line. */
const CODEGEN: HouseRules = {
  dir: "codegen/src",
  layers: [
    ["errors.ts", "domain/"],
    ["facts/"],
    ["load/"],
    ["ir/"],
    ["emit/"],
    ["targets/"],
    ["ownership.ts", "write.ts", "pipeline.ts"],
    ["cli.ts", "index.ts"],
  ],
  never: [
    { from: "emit/", to: "load/", why: "the emitters read the IR, never the loader" },
    { from: "targets/", to: "load/", why: "the targets read the IR, never the loader" },
    ...["types/", "tables/", "client/", "msw/", "python/"].map((target) => ({
      from: "pipeline.ts",
      to: `targets/${target}`,
      why: "the renderer runs the targets of targets/registry.ts and names none of them",
    })),
  ],
  apart: ["targets/"],
};

/**
 * The mock: its contract types, the generated data typed by them, the simulator, the handlers, the package's
 * entry, the server (whose entry hands the package's on), verify and the test helpers over the server, the
 * command line program, and the Node entry over all of them.
 */
const MSW: HouseRules = {
  dir: "packages/msw/src",
  layers: [
    ["contract/"],
    ["generated/"],
    ["simulator/"],
    ["handlers/"],
    ["index.ts"],
    ["server/"],
    ["verify/"],
    ["testing/"],
    ["cli.ts"],
    ["node.ts"],
  ],
};

/** The runtime: no circle, and no wire field (below). */
const RUNTIME: HouseRules = { dir: "packages/runtime/src" };

const SDK: HouseRules = { dir: "packages/sdk/src" };

const CLI: HouseRules = {
  dir: "packages/cli/src",
  exceptions: [
    {
      // KNOWN EXCEPTION, to be deleted when the formatters take the Terminal type from a module under io.ts.
      import: "format/ -> io.ts",
      why: "the formatters name the Terminal type of io.ts, which imports format/terminal-safe.ts",
    },
  ],
};

/** Each package's source folder and the packages it may import. */
const PACKAGES = [
  { name: "types", dir: "packages/types", may: [] },
  { name: "runtime", dir: "packages/runtime/src", may: [] },
  { name: "sdk", dir: "packages/sdk/src", may: ["runtime", "types"] },
  { name: "msw", dir: "packages/msw/src", may: ["runtime", "sdk", "types"] },
  { name: "cli", dir: "packages/cli/src", may: ["runtime", "sdk", "types"] },
  { name: "codegen", dir: "codegen/src", may: [] },
] as const;

describe("the house", () => {
  it.each([CODEGEN, MSW, RUNTIME, SDK, CLI])(
    "$dir keeps its rules: no import climbs back, each layer imports down",
    (rules) => {
      expect(houseViolations(repoRoot, rules)).toEqual([]);
    },
  );

  it.each(PACKAGES)("$name imports no module twice around a cycle, and only the packages it may", ({ dir, may }) => {
    expect(findImportCycles(path.join(repoRoot, dir))).toEqual([]);
    expect(
      [...packagesImported(path.join(repoRoot, dir))].filter((name) => !(may as readonly string[]).includes(name)),
    ).toEqual([]);
  });

  it("the runtime names no PowerContext wire field", () => {
    const names = contractNames(path.join(repoRoot, "openapi.yaml"));
    expect(names.has("expected_version")).toBe(true); // the search really reads the contract
    expect(wireNamesIn(path.join(repoRoot, "packages/runtime/src"), names)).toEqual([]);
  });

  it("the mock's simulator reaches no module that imports msw, types included", () => {
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

describe("a planted violation", () => {
  /** A copy of the generator's sources, with `plant` applied, held against the generator's rules. */
  function plantedInCodegen(plant: (dir: string) => void): string[] {
    const root = path.join(repoRoot, "codegen/.cache", `house-${process.pid}-${Math.random().toString(36).slice(2)}`);
    cpSync(path.join(repoRoot, "codegen/src"), path.join(root, "codegen/src"), { recursive: true });
    plant(path.join(root, "codegen/src"));
    return houseViolations(root, CODEGEN);
  }
  const append = (file: string, line: string) => writeFileSync(file, `${readFileSync(file, "utf8")}\n${line}\n`);

  it("is reported: an import that climbs back (the IR importing the pipeline)", () => {
    const found = plantedInCodegen((dir) => append(path.join(dir, "ir/naming.ts"), `import "../pipeline.js";`));
    expect(found).toEqual(
      expect.arrayContaining([expect.stringMatching(/^circle in \.\/: .*ir\/ <-> .*pipeline\.ts/)]),
    );
    expect(found).toContain(
      "ir/naming.ts -> pipeline.ts: layer 4 imports layer 7 (ownership.ts, write.ts, pipeline.ts)",
    );
  });

  it("is reported: an emitter reading the loader, a target reading another, the renderer naming a target", () => {
    const found = plantedInCodegen((dir) => {
      append(
        path.join(dir, "targets/msw/msw-routes.ts"),
        `import "../../load/lint.js";\nimport "../client/accept.js";`,
      );
      append(path.join(dir, "pipeline.ts"), `import "./targets/python/index.js";`);
    });
    expect(found).toEqual([
      "pipeline.ts -> targets/python/index.ts: the renderer runs the targets of targets/registry.ts and names none of them",
      "targets/msw/msw-routes.ts -> load/lint.ts: the targets read the IR, never the loader",
      "targets/msw/msw-routes.ts -> targets/client/accept.ts: the folders of targets/ are apart",
    ]);
  });

  it("is reported: a circle deep inside a folder, and a known exception that is gone", () => {
    const root = path.join(repoRoot, "codegen/.cache", `house-deep-${process.pid}`);
    mkdirSync(path.join(root, "pkg/a/b"), { recursive: true });
    mkdirSync(path.join(root, "pkg/a/c"), { recursive: true });
    writeFileSync(path.join(root, "pkg/a/b/one.ts"), `import type { T } from "../c/two.js";\nexport type U = T;\n`);
    writeFileSync(path.join(root, "pkg/a/c/two.ts"), `export type T = import("../b/one.js").U[];\n`);
    expect(houseViolations(root, { dir: "pkg", exceptions: [{ import: "x.ts -> y.ts", why: "planted" }] })).toEqual([
      "circle in a/: b/ <-> c/ (a/b/one.ts -> a/c/two.ts; a/c/two.ts -> a/b/one.ts)",
      "the known exception x.ts -> y.ts no longer exists: delete it from the rules",
    ]);
  });

  it("is reported: a cycle of type-only imports and re-exports, and a module that imports itself", () => {
    const dir = path.join(repoRoot, "codegen/.cache", `house-cycles-${process.pid}`);
    mkdirSync(path.join(dir, "sub"), { recursive: true });
    writeFileSync(path.join(dir, "a.ts"), `import type { B } from "./sub/b.js";\nexport type A = B | 1;\n`);
    writeFileSync(path.join(dir, "sub/b.ts"), `export type { C as B } from "../c.js";\n`);
    writeFileSync(path.join(dir, "c.ts"), `export type C = import("./a.js").A[];\n`);
    writeFileSync(path.join(dir, "self.ts"), `export * from "./self.js";\n`);
    writeFileSync(path.join(dir, "free.ts"), `import type { A } from "./a.js";\nexport type F = A;\n`);
    expect(findImportCycles(dir)).toEqual([["a.ts", "c.ts", path.join("sub", "b.ts")], ["self.ts"]]);
  });

  it("is reported: a wire field in the runtime's code (not in a comment)", () => {
    const root = path.join(repoRoot, "codegen/.cache", `house-wire-${process.pid}`);
    mkdirSync(root, { recursive: true });
    writeFileSync(
      path.join(root, "polling.ts"),
      `// reads expected_version\nexport const field = "expected_version";\n`,
    );
    expect(wireNamesIn(root, new Set(["expected_version"]))).toEqual(["polling.ts: expected_version"]);
  });
});
