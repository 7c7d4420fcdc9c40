// The yardstick: on the release's own contract (powercontext.http._generated.schema.OPENAPI_SCHEMA
// of the installed powercontext 1.4.1, written to a scratch folder at test time and never kept)
// plus our model rules (contract/overlay/model-rules.yaml), our generator's Python layer must
// equal the one the release ships: every Operation field by field, and models.py class by
// class, the classes with validators compared without them and by the model-rule vectors
// (docs/python.md). test/python/yardstick.py does the comparison in Python.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ts from "typescript";
import { generate, type Generated } from "../../codegen/src/pipeline.js";
import { TABLES_PATHS } from "../../codegen/src/targets/tables/index.js";
import { codegenPython } from "../../codegen/src/targets/python/models-py.js";
import { checkAll, pythonTools, repoRoot, requireTools, suiteName, venvBin } from "../real/tools.js";
import { addModelRules } from "../../scripts/contract/merge.mjs";
import { loadOverlay } from "../../scripts/contract/overlay.mjs";

const run = promisify(execFile);
const codegenTool = {
  ok: codegenPython() !== null,
  missing: ".venv-codegen/bin/python (run: bash scripts/ci/python-codegen-env.sh)",
};
const enabled = requireTools(suiteName(import.meta.url), checkAll(pythonTools(), codegenTool));
const PACKAGE = "yard._generated";
const DIR = "yard/_generated";

interface Report {
  operations: { equal: number; release: number };
  models: {
    release_classes: number;
    equal: number;
    equal_with_rules: number;
    with_rules: string[];
    vectors: { count: number; refused: number; release_agrees: number; ours_agree: number };
    differences: number;
  };
  problems: string[];
}

async function writeLayer(root: string, generated: Generated): Promise<void> {
  for (const [file, text] of generated.files) {
    if (!file.startsWith(`${DIR}/`)) continue;
    await mkdir(dirname(join(root, file)), { recursive: true });
    await writeFile(join(root, file), text);
  }
  await writeFile(join(root, "yard/__init__.py"), "");
}

async function yardstick(root: string): Promise<{ code: number; report: Report }> {
  const args = [join(repoRoot, "test/python/yardstick.py"), "--root", root, "--package", PACKAGE, "--json"];
  try {
    const { stdout } = await run(venvBin("python"), args, {
      cwd: repoRoot,
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, report: JSON.parse(stdout) as Report };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof e.code !== "number" || !e.stdout) throw new Error(`yardstick.py failed: ${e.stderr ?? String(error)}`);
    return { code: e.code, report: JSON.parse(e.stdout) as Report };
  }
}

describe.skipIf(!enabled)("the release regenerates itself: our Python layer on the 1.4.1 contract", () => {
  let root = "";
  let generated: Generated;
  let contract: {
    paths: Record<string, Record<string, { operationId: string; parameters?: { in: string; name: string }[] }>>;
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "yardstick-"));
    const specPath = join(root, "powercontext.json");
    const dump =
      "import json, sys; from powercontext.http._generated.schema import OPENAPI_SCHEMA; json.dump(OPENAPI_SCHEMA, sys.stdout)";
    const { stdout } = await run(venvBin("python"), ["-c", dump], { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
    contract = JSON.parse(stdout) as typeof contract;
    const withRules = JSON.parse(stdout) as { components: { schemas: Record<string, unknown> } };
    addModelRules(
      withRules.components.schemas,
      loadOverlay(join(repoRoot, "contract", "overlay"), repoRoot).modelRules,
    );
    await writeFile(specPath, JSON.stringify(withRules));
    generated = await generate(specPath, {
      lint: "upstream",
      python: { dir: DIR, package: PACKAGE, models: "require" },
    });
    await writeLayer(root, generated);
  }, 240_000);

  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("equals the release's operations.py field by field and its models.py class by class, the model rules included", async () => {
    const { code, report } = await yardstick(root);
    const m = report.models;
    console.log(
      `yardstick: operations.py ${report.operations.equal} of ${report.operations.release} operations equal; ` +
        `models.py ${m.equal + m.equal_with_rules} of ${m.release_classes} classes equal (${m.equal} as generated, ${m.equal_with_rules} with the model rules); ` +
        `vectors: release ${m.vectors.release_agrees}, ours ${m.vectors.ours_agree} of ${m.vectors.count} as expected (${m.vectors.refused} refused); ${m.differences} differences`,
    );
    expect(report.problems).toEqual([]);
    expect(code).toBe(0);
    expect(report.operations.release).toBe(generated.ir.operations.length);
    expect(report.operations.equal).toBe(report.operations.release);
    expect(m.equal + m.equal_with_rules).toBe(m.release_classes);
    expect(m.with_rules).toEqual(
      generated.ir.schemas
        // The Python models apply the wire rules (the release's request models); runtime rules are the server's.
        .filter((s) => s.rules.some((rule) => rule.stage === "wire"))
        .map((s) => s.name)
        .sort(),
    );
    expect(m.vectors.ours_agree).toBe(m.vectors.count);
  }, 180_000);

  it("fails on a difference in a field, a class or a model rule's behaviour", async () => {
    const copy = await mkdtemp(join(tmpdir(), "yardstick-tampered-"));
    try {
      await writeLayer(copy, generated);
      const ops = join(copy, DIR, "operations.py");
      const text = await readFile(ops, "utf8");
      await writeFile(ops, text.replace("    success_status=200,\n", "    success_status=201,\n"));
      const models = join(copy, DIR, "models.py");
      const modelsText = (await readFile(models, "utf8")).replace(
        "class ContractVersion(BaseModel):\n",
        "class ContractVersion(BaseModel):\n    extra_field: StrictInt | None = None\n",
      );
      expect(modelsText).toContain("trimmed[name] = trimmed[name].strip()");
      await writeFile(
        models,
        modelsText.replace("trimmed[name] = trimmed[name].strip()", "trimmed[name] = trimmed[name]"),
      );
      const { code, report } = await yardstick(copy);
      expect(code).toBe(1);
      expect(report.operations.equal).toBe(report.operations.release - 1);
      expect(report.problems.some((p) => /\.success_status: release 200, ours 201$/.test(p))).toBe(true);
      expect(report.problems).toContain("class ContractVersion: differs");
      expect(
        report.problems.some((p) =>
          p.startsWith("ours SearchArtifactsRequest (the query is read without the whitespace around it): holds"),
        ),
      ).toBe(true);
      expect(report.models.equal_with_rules).toBe(0);
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  }, 180_000);

  it("gives the hosts' table the header parameters the contract declares", async () => {
    const js = ts.transpileModule(generated.files.get(TABLES_PATHS.repository.hostTable)!, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    const rows = (
      (await import(`data:text/javascript;base64,${Buffer.from(js).toString("base64")}`)) as {
        OPERATIONS: Record<string, { headerParams: string[] }>;
      }
    ).OPERATIONS;
    let withHeaders = 0;
    for (const item of Object.values(contract.paths)) {
      for (const op of Object.values(item)) {
        const headers = (op.parameters ?? []).filter((p) => p.in === "header").map((p) => p.name);
        withHeaders += headers.length > 0 ? 1 : 0;
        expect(rows[op.operationId]?.headerParams, op.operationId).toEqual(headers);
      }
    }
    expect(withHeaders).toBeGreaterThan(0);
  });
});
