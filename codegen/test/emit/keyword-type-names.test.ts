import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { TS_KEYWORDS } from "../../src/ir/naming.js";
import { generateFromText } from "../../src/pipeline.js";
import { schemaTypeNames } from "../../src/targets/types/openapi-types.js";
import { codegenPython } from "../../src/targets/python/models-py.js";
import { pythonTools, requireTools, venvBin } from "../../../test/real/tools.js";
import { compileStrict, freshFolder } from "../helpers/fresh-folder.js";
import { minimalSpec, type Json } from "../helpers/minimal-spec.js";
import { repoRoot, scratchDir } from "../helpers/paths.js";

/** Every keyword the TypeScript compiler knows, reserved or contextual (`keyof`, `readonly`, `infer`, `unique`, `satisfies`, ...). */
const COMPILER_KEYWORDS: readonly string[] = Array.from(
  { length: ts.SyntaxKind.LastKeyword - ts.SyntaxKind.FirstKeyword + 1 },
  (_, i) => ts.tokenToString(ts.SyntaxKind.FirstKeyword + i) as string,
);

/** Schema names that are words of TypeScript yet legal OpenAPI names, and the PascalCase spellings some of them turn into. */
const NAMES = [...COMPILER_KEYWORDS, "match", "case", "Keyof", "Type", "Readonly", "Symbol", "Record", "Array"].filter(
  (name) => name !== "constructor",
);

/** The operationIds (and the schemas of their bodies) that are words of TypeScript or soft keywords of Python. */
const WORD_OPERATIONS = ["keyof", "readonly", "infer", "unique", "type", "satisfies", "match", "case"];
/** Those the Python layer imports models of: `type` names a builtin that `models.py` annotates with. */
const PYTHON_OPERATIONS = WORD_OPERATIONS.filter((id) => id !== "type");

/** Writes `files` under `root`. */
function place(root: string, files: ReadonlyMap<string, string>): void {
  for (const [relative, text] of files) {
    const file = path.join(root, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}

/**
 * A spec whose component schemas are named {@link NAMES}: each referenced by a
 * property of `Thing` (the request and the response), as an array item and
 * in a union, and a few operationIds that are such words too.
 */
function keywordSpec(operations: readonly string[] = WORD_OPERATIONS): Json {
  const spec = minimalSpec();
  const schemas = spec.components.schemas as Json;
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  schemas.Thing = {
    type: "object",
    properties: {
      scope_id: { type: "string" },
      ...Object.fromEntries(NAMES.map((name) => [name, ref(name)])),
      lists: { type: "array", items: ref("keyof") },
      either: { oneOf: [ref("readonly"), ref("unique"), ref("infer")] },
      map: { type: "object", additionalProperties: ref("satisfies") },
    },
  };
  for (const name of NAMES) schemas[name] = { type: "object", properties: { v: { type: "string" } } };
  for (const id of operations) {
    spec.paths[`/v1/${id}`] = {
      post: {
        operationId: id,
        "x-powercontext-retry-class": "safe",
        requestBody: { required: true, content: { "application/json": { schema: ref(id) } } },
        responses: {
          "200": {
            description: "ok",
            headers: { "X-PowerContext-Request-ID": { schema: { type: "string" } } },
            content: { "application/json": { schema: ref(id) } },
          },
        },
      },
    };
  }
  return spec;
}

describe("schema names that are TypeScript keywords (legal OpenAPI names)", () => {
  it("the list the generator escapes holds every keyword the TypeScript compiler knows", () => {
    expect(COMPILER_KEYWORDS).toContain("keyof");
    expect(COMPILER_KEYWORDS.filter((word) => !TS_KEYWORDS.has(word))).toEqual([]);
  });

  it("each becomes a type name that is no keyword, all distinct", async () => {
    const generated = await generateFromText(JSON.stringify(keywordSpec()), "keywords.json", { layout: "standalone" });
    const { read } = schemaTypeNames(generated.ir);
    const typeNames = [...read.values()];
    expect(new Set(typeNames).size).toBe(typeNames.length);
    expect(typeNames.filter((name) => COMPILER_KEYWORDS.includes(name))).toEqual([]);
    expect(read.get("Thing")).toBe("Thing");
  });

  it("the standalone folder compiles under --strict, the types reachable by their spec names", {
    timeout: 180_000,
  }, async () => {
    const generated = await generateFromText(JSON.stringify(keywordSpec()), "keywords.json", { layout: "standalone" });
    const root = freshFolder("keyword-names");
    place(path.join(root, "client"), generated.files);
    writeFileSync(
      path.join(root, "use.ts"),
      `import type { components } from "./client/openapi.js";
import { createClient } from "./client/index.js";
const k: components["schemas"]["keyof"] = { v: "a" };
const thing: components["schemas"]["Thing"] = { keyof: k, readonly: { v: "b" }, lists: [k], either: { v: "c" } };
// @ts-expect-error: a member of the schema is a string
const wrong: components["schemas"]["unique"] = { v: 1 };
export const client = createClient({ baseUrl: "http://127.0.0.1:1", token: "t" });
export const call = () => client.keyof({ v: "x" });
export { thing, wrong };
`,
    );
    const sources = [...generated.files.keys()].filter((f) => f.endsWith(".ts")).map((f) => `client/${f}`);
    expect(compileStrict(root, [...sources, "use.ts"], { skipLibCheck: false })).toEqual([]);
  });

  const withModels = codegenPython() !== null || process.env.CI === "true";

  it.runIf(withModels)(
    "the Python layer imports each model by its schema name, and models.py defines it",
    { timeout: 180_000 },
    async () => {
      if (!requireTools("keyword schema names: Python layer", pythonTools())) return;
      const generated = await generateFromText(JSON.stringify(keywordSpec(PYTHON_OPERATIONS)), "keywords.json", {
        python: { dir: "py/keyword_gen", package: "keyword_gen", models: "require" },
      });
      const root = scratchDir("keyword-python");
      place(root, new Map([...generated.files].filter(([file]) => file.startsWith("py/"))));
      const script = `import sys; sys.path[:0] = [${JSON.stringify(path.join(root, "py"))}, ${JSON.stringify(path.join(repoRoot, "python/src"))}]
import keyword_gen.operations as operations, keyword_gen.extensions, keyword_gen.models as models
print(" ".join(getattr(operations, name.upper()).request_type.__name__ for name in ${JSON.stringify(PYTHON_OPERATIONS)}))
print(models.keyof.model_validate({"v": "a"}).v)`;
      const run = spawnSync(venvBin("python"), ["-I", "-c", script], { encoding: "utf8", timeout: 120_000 });
      expect(run.stderr).toBe("");
      expect(run.stdout.trim().split("\n")).toEqual([PYTHON_OPERATIONS.join(" "), "a"]);
    },
  );

  it.runIf(!withModels)("skips the Python layer's import without the model generator's environment", () => {
    requireTools("keyword schema names: models.py (datamodel-code-generator)", {
      ok: false,
      missing: "the model generator's environment (run: bash scripts/ci/python-codegen-env.sh)",
    });
  });

  it("the Python layer refuses a model named like a builtin models.py annotates with, at its pointer", async () => {
    const text = JSON.stringify(keywordSpec(["type"]));
    await expect(
      generateFromText(text, "keywords.json", { python: { dir: "py/k", package: "k", models: "skip" } }),
    ).rejects.toThrow(/#\/components\/schemas\/type: schema name "type" is imported by the Python layer/);
  });
});
