import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { EXIT } from "../../src/cli.js";
import { codegenPython } from "../../src/targets/python/models-py.js";
import { generateFromText } from "../../src/pipeline.js";
import { pythonTools, requireTools, venvBin } from "../../../test/real/tools.js";
import { compileStrict, freshFolder, linkGeneratedSdk } from "../helpers/fresh-folder.js";
import { JS_RUN, LOOK_ALIKES, PY_RUN, WORD_IDS, hostileSpec } from "../helpers/hostile-names.js";
import { OPERATION, minimalSpec, operationOf, runIn, snapshot, type Json } from "../helpers/minimal-spec.js";
import { repoRoot, scratchDir } from "../helpers/paths.js";
import { mswContractTypes } from "../helpers/typecheck.js";

const PYTHON_PACKAGE = "hostile_gen";
const pwned = () => (globalThis as { PWNED?: unknown }).PWNED;

afterEach(() => {
  delete (globalThis as { PWNED?: unknown }).PWNED;
});

/** Writes `files` under `root`. */
function place(root: string, files: ReadonlyMap<string, string>): void {
  for (const [relative, text] of files) {
    const file = path.join(root, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}

/** Imports every JavaScript file under `dir` (compiled beside its TypeScript) and returns the modules. */
async function importAll(dir: string): Promise<Map<string, Record<string, unknown>>> {
  const modules = new Map<string, Record<string, unknown>>();
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith(".js"))
    .sort()) {
    modules.set(name, (await import(pathToFileURL(path.join(dir, name)).href)) as Record<string, unknown>);
  }
  return modules;
}

/** Runs the released client's Python on an import of the generated layer (with our Python runtime it imports); prints whether a payload ran. */
function importPython(root: string): { status: number | null; stdout: string; stderr: string } {
  const modules = ["operations", "extensions", "schema", "models"]
    .map((m) => `import ${PYTHON_PACKAGE}.${m}`)
    .join("; ");
  const script = `import builtins, sys; sys.path[:0] = [${JSON.stringify(path.join(root, "py"))}, ${JSON.stringify(path.join(repoRoot, "python/src"))}]; ${modules}; print("ran" if hasattr(builtins, "PWNED") else "clean")`;
  const run = spawnSync(venvBin("python"), ["-I", "-c", script], { encoding: "utf8", timeout: 120_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

async function refused(spec: Json) {
  const dir = scratchDir("hostile-names");
  writeFileSync(path.join(dir, "openapi.json"), JSON.stringify(spec));
  const result = await runIn(dir, ["--spec", "openapi.json", "--root", "out", "--python-models", "skip"]);
  return { ...result, written: snapshot(path.join(dir, "out")) };
}

describe("an operationId that cannot become an identifier is refused: exit 2 at its pointer, nothing written", () => {
  it.each([
    ["a TypeScript comment closer", `a*/;${JS_RUN};/*`],
    ["a Python string closer", 'x"""'],
    ["a line break", "a\nb"],
    ["a line separator", "a\u2028b"],
    ["a quote", "a'b"],
    ["a backslash", "a\\b"],
    ["a space", "get thing"],
    ...LOOK_ALIKES.map((id): [string, string] => [`the NFKC look-alike ${JSON.stringify(id)}`, id]),
  ])("%s", async (_, operationId) => {
    const spec = minimalSpec();
    operationOf(spec).operationId = operationId;
    const result = await refused(spec);
    expect(result.code).toBe(EXIT.badInput);
    expect(result.stderr).toContain(`error: #${OPERATION}/operationId: operationId "`);
    expect(result.stderr).toContain("cannot become an identifier");
    expect(result.written).toEqual({});
  });

  it("says what the name holds, non-ASCII characters escaped", async () => {
    const spec = minimalSpec();
    operationOf(spec).operationId = "\u{1d452}x\u202e";
    const result = await refused(spec);
    expect(result.stderr).toContain('operationId "\\ud835\\udc52x\\u202e" cannot become an identifier');
  });
});

describe("names the Python layer cannot take are refused: exit 2 at their pointer, nothing written", () => {
  it.each([
    [
      "an operation constant that operations.py defines",
      (spec: Json) => void (operationOf(spec).operationId = "api_title"),
      `#${OPERATION}/operationId`,
      "a name operations.py already defines or imports",
    ],
    [
      "two operations with one constant",
      (spec: Json) => void (spec.paths["/v1/other"] = { post: { ...operationOf(spec), operationId: "GET_THING" } }),
      `#${OPERATION}/operationId`,
      "both become the Python constant GET_THING",
    ],
    [
      "a keyword as an imported model",
      (spec: Json) => renameThing(spec, "class"),
      "#/components/schemas/class",
      "cannot become a Python identifier",
    ],
    [
      "None as an imported model",
      (spec: Json) => renameThing(spec, "None"),
      "#/components/schemas/None",
      "cannot become a Python identifier",
    ],
    [
      "a dunder name as an imported model",
      (spec: Json) => renameThing(spec, "__init__"),
      "#/components/schemas/__init__",
      "cannot become a Python identifier",
    ],
    [
      "a dotted name as an imported model",
      (spec: Json) => renameThing(spec, "a.b"),
      "#/components/schemas/a.b",
      "cannot become a Python identifier",
    ],
  ])("%s", async (_, change, pointer, message) => {
    const spec = minimalSpec();
    change(spec);
    const result = await refused(spec);
    expect(result.code).toBe(EXIT.badInput);
    expect(result.stderr).toContain(`error: ${pointer}`);
    expect(result.stderr).toContain(message);
    expect(result.written).toEqual({});
  });
});

/** Renames the minimal spec's `Thing` (its request and response model) to `name`. */
function renameThing(spec: Json, name: string): void {
  const text = JSON.stringify(spec).replaceAll(
    '"#/components/schemas/Thing"',
    JSON.stringify(`#/components/schemas/${name}`),
  );
  const renamed = JSON.parse(text) as Json;
  const thing = renamed.components.schemas.Thing;
  delete renamed.components.schemas.Thing;
  Object.defineProperty(renamed.components.schemas, name, {
    value: thing,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  Object.assign(spec, renamed);
}

describe.each([1, 2])("hostile text in every place a spec string reaches the output (seed %i)", (seed) => {
  const spec = hostileSpec(seed);
  const text = JSON.stringify(spec);
  const withModels = codegenPython() !== null || process.env.CI === "true";

  it("generates, every TypeScript output compiles under --strict, and importing it runs nothing", {
    timeout: 180_000,
  }, async () => {
    expect(text).toContain(JS_RUN);
    const generated = await generateFromText(text, "hostile.json", {
      python: { dir: `py/${PYTHON_PACKAGE}`, package: PYTHON_PACKAGE, models: "skip" },
    });
    const root = freshFolder("hostile-repo");
    place(root, new Map([...mswContractTypes(), ...generated.files]));
    linkGeneratedSdk(root);
    writeFileSync(path.join(root, "packages/types/index.d.ts"), `export * from "./generated/openapi.js";\n`);
    const sources = [...generated.files.keys()].filter((f) => f.endsWith(".ts"));
    expect(sources.length).toBeGreaterThan(10);
    const errors = compileStrict(root, sources, {
      skipLibCheck: false,
      baseUrl: root,
      paths: {
        "@powercontext/types": ["packages/types/index.d.ts"],
        "@powercontext/sdk/validators": ["packages/sdk/src/generated/validators.d.ts"],
      },
    });
    expect(errors).toEqual([]);
    const modules = new Map<string, Record<string, unknown>>();
    for (const dir of ["packages/types/generated", "packages/sdk/src/generated", "packages/msw/src/generated"]) {
      for (const [name, module] of await importAll(path.join(root, dir))) modules.set(`${dir}/${name}`, module);
    }
    expect([...modules.keys()]).toContain("packages/msw/src/generated/handlers.js");
    expect(pwned()).toBeUndefined();
    // The msw routes are built from the hostile paths, and the tables hold each operationId as a plain key.
    const handlers = modules.get("packages/msw/src/generated/handlers.js")!;
    const impl = Object.fromEntries(generated.ir.operations.map((op) => [op.operationId, () => ({ status: 200 })]));
    const created = (handlers.createHandlers as (impl: unknown, options: unknown) => unknown[])(impl, {
      baseUrl: "http://127.0.0.1:1",
    });
    expect(created).toHaveLength(generated.ir.operations.length);
    const table = modules.get("packages/sdk/src/generated/operations.js")!.operations as Record<string, unknown>;
    expect(Object.keys(table).sort()).toEqual(generated.ir.operations.map((op) => op.operationId).sort());
    expect(Object.getPrototypeOf(table)).toBe(Object.prototype);
    for (const id of WORD_IDS) expect(Object.hasOwn(table, id)).toBe(true);
    expect(pwned()).toBeUndefined();
  });

  it("the standalone folder compiles under --strict and importing it runs nothing", { timeout: 180_000 }, async () => {
    const generated = await generateFromText(text, "hostile.json", { layout: "standalone" });
    const root = freshFolder("hostile-standalone");
    const out = path.join(root, "client");
    place(out, generated.files);
    const sources = [...generated.files.keys()].filter((f) => f.endsWith(".ts")).map((f) => `client/${f}`);
    expect(compileStrict(root, sources, { skipLibCheck: false })).toEqual([]);
    const index = (await import(pathToFileURL(path.join(out, "index.js")).href)) as {
      createClient: (options: unknown) => Record<string, unknown>;
    };
    const client = index.createClient({ baseUrl: "http://127.0.0.1:1", token: "t" });
    for (const id of WORD_IDS)
      expect(typeof client[generated.ir.operations.find((op) => op.operationId === id)!.methodName]).toBe("function");
    expect(pwned()).toBeUndefined();
  });

  it.runIf(withModels)(
    "the Python layer, models.py included, imports in the released client's Python and runs nothing",
    { timeout: 180_000 },
    async () => {
      if (!requireTools("hostile names: Python layer", pythonTools())) return;
      expect(text).toContain(PY_RUN);
      const generated = await generateFromText(text, "hostile.json", {
        python: { dir: `py/${PYTHON_PACKAGE}`, package: PYTHON_PACKAGE, models: "require" },
      });
      const root = scratchDir("hostile-python");
      place(root, new Map([...generated.files].filter(([file]) => file.startsWith("py/"))));
      const run = importPython(root);
      expect(run.stderr).toBe("");
      expect(run.stdout.trim()).toBe("clean");
      expect(run.status).toBe(0);
    },
  );

  it.runIf(!withModels)("skips the Python import without the model generator's environment", () => {
    requireTools("hostile names: models.py (datamodel-code-generator)", {
      ok: false,
      missing: "the model generator's environment (run: bash scripts/ci/python-codegen-env.sh)",
    });
  });
});

describe("output names given as options", () => {
  it("refuses a client class name that is not an ASCII identifier", async () => {
    const spec = JSON.stringify(minimalSpec());
    await expect(
      generateFromText(spec, "s.json", { names: { clientClassName: `A {} ${JS_RUN}; class B` } }),
    ).rejects.toThrow(/clientClassName must be a JavaScript identifier/);
    await expect(generateFromText(spec, "s.json", { names: { clientClassName: "\u{1d452}x" } })).rejects.toThrow(
      /clientClassName/,
    );
  });
});
