import { suiteName } from "../../../../test/real/tools.js";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT, runCli } from "../../../src/cli.js";
import { PYTHON_DEFAULTS } from "../../../src/targets/python/layer.js";
import { pyLiteral } from "../../../src/targets/python/literal.js";
import { pyConstantName } from "../../../src/targets/python/names-py.js";
import type { OperationIr } from "../../../src/ir/model.js";
import { generate } from "../../../src/index.js";
import { fixturesDir, scratchDir } from "../../helpers/paths.js";
import { modelsTool } from "../../helpers/python-models.js";

const spec = path.join(fixturesDir, "features.yaml");
const dir = PYTHON_DEFAULTS.dir;

async function run(args: string[], cwd: string) {
  let stderr = "";
  const code = await runCli(args, { cwd, stdout: () => undefined, stderr: (t) => (stderr += t) });
  return { code, stderr };
}

describe("Python literals", () => {
  it("writes JSON values as Python", () => {
    expect(pyLiteral({ a: [true, false, null], b: 'x"y\n', c: 1.5 })).toBe(
      '{"a": [True, False, None], "b": "x\\"y\\n", "c": 1.5}',
    );
  });
  it("writes tuples, with the trailing comma of a one-element tuple", () => {
    expect(pyLiteral(["a"], { tuples: true })).toBe('("a",)');
    expect(pyLiteral([], { tuples: true })).toBe("()");
    expect(pyLiteral(["a", "b"], { tuples: true })).toBe('("a", "b")');
  });
  it("writes decimal keys as ints only at the top level", () => {
    expect(pyLiteral({ "200": { "404": 1 }, default: 2 }, { intKeys: true })).toBe('{200: {"404": 1}, "default": 2}');
  });
  it("breaks what does not fit, one member a line", () => {
    const text = pyLiteral({ long: "x".repeat(130), short: 1 });
    expect(text).toBe(`{\n    "long": "${"x".repeat(130)}",\n    "short": 1,\n}`);
  });
  it("decides what fits on the escaped length of strings and keys", () => {
    // '["a\\"b"]' is 8 characters written, 7 before escaping
    expect(pyLiteral(['a"b'], { width: 8 })).toBe('["a\\"b"]');
    expect(pyLiteral(['a"b'], { width: 7 })).toBe('[\n    "a\\"b",\n]');
    expect(pyLiteral({ 'k"': 1 }, { width: 10 })).toBe('{"k\\"": 1}');
    expect(pyLiteral({ 'k"': 1 }, { width: 9 })).toBe('{\n    "k\\"": 1,\n}');
    // a lone surrogate is written as an escape (6 characters)
    expect(pyLiteral(["\ud800"], { width: 10 })).toBe('["\\ud800"]');
    expect(pyLiteral(["\ud800"], { width: 9 })).toBe('[\n    "\\ud800",\n]');
  });
  it("writes a value met twice the same way at each depth", () => {
    // 60 columns: the shared object fits at the first level, and not at the fifth
    const shared = { name: "y".repeat(40) };
    const text = pyLiteral({ a: shared, b: { c: { d: [shared, shared] } } }, { width: 60 });
    const y = "y".repeat(40);
    expect(text).toBe(
      `{\n    "a": {"name": "${y}"},\n    "b": {\n        "c": {\n            "d": [\n                {\n                    "name": "${y}",\n                },\n                {\n                    "name": "${y}",\n                },\n            ],\n        },\n    },\n}`,
    );
  });
  it("refuses what Python JSON cannot hold", () => {
    expect(() => pyLiteral(Number.NaN)).toThrow(TypeError);
    expect(() => pyLiteral(undefined)).toThrow(TypeError);
  });
});

describe("Python constant names", () => {
  it.each([
    ["flush_memory", "FLUSH_MEMORY"],
    ["listPets", "LIST_PETS"],
    ["showPetById", "SHOW_PET_BY_ID"],
    ["getHTTPStatus", "GET_HTTP_STATUS"],
    ["get-topic.status", "GET_TOPIC_STATUS"],
    ["v2Items", "V2_ITEMS"],
  ])("%s becomes %s", (operationId, constant) => {
    expect(pyConstantName({ operationId } as OperationIr)).toBe(constant);
  });
});

describe("the Python layer of a contract", async () => {
  const generated = await generate(spec);
  const operations = generated.files.get(`${dir}/operations.py`)!;

  it("has one Operation constant per operation, in document order, importing its models", () => {
    const constants = [...operations.matchAll(/^([A-Z0-9_]+) = Operation\[/gm)].map((m) => m[1]);
    expect(constants.sort()).toEqual(generated.ir.operations.map((op) => pyConstantName(op)).sort());
    expect(operations).toContain(`from ${PYTHON_DEFAULTS.package}.models import (`);
    for (const op of generated.ir.operations) {
      expect(operations).toContain(`    operation_id="${op.operationId}",\n`);
      expect(operations).toContain(
        `    path_parameters=(${op.pathParameters.map((p) => `"${p.name}"`).join(", ")}${op.pathParameters.length === 1 ? "," : ""}),\n`,
      );
    }
  });

  it("writes the extensions of each operation into extensions.py", () => {
    const extensions = generated.files.get(`${dir}/extensions.py`)!;
    for (const op of generated.ir.operations) expect(extensions).toContain(`retry_class="${op.retryClass}"`);
    const asyncOps = generated.ir.operations.filter((op) => op.async !== null);
    expect(asyncOps.length).toBeGreaterThan(0);
    for (const op of asyncOps) expect(extensions).toContain(`accepted_status=${op.async!.acceptedStatus}`);
  });

  it("does not run the model generator unless asked", () => {
    expect(generated.files.has(`${dir}/models.py`)).toBe(false);
    expect([...generated.skipped.keys()]).toEqual([`${dir}/models.py`, `${dir}/parameters.py`]);
  });

  it("escapes the spec's file name in the Python banners, so it cannot end the comment", async () => {
    const { generateFromText } = await import("../../../src/pipeline.js");
    const evil = await generateFromText(readFileSync(spec, "utf8"), "x\nimport os\r\u2028.yaml");
    for (const file of ["__init__.py", "operations.py", "schema.py", "extensions.py", "errors.py"]) {
      const text = evil.files.get(`${dir}/${file}`)!;
      const header = text.slice(0, text.indexOf("\n\n"));
      expect(
        header.split("\n").every((line) => line.startsWith("# ")),
        file,
      ).toBe(true);
      expect(header).toContain("x\\nimport os");
    }
  });

  it("writes a contract error class per registry row that names one, with typed detail members", () => {
    const errors = generated.files.get(`${dir}/errors.py`)!;
    expect(errors).toContain("class AccountTakenError(ConflictError):");
    expect(errors).toContain("    def owner(self) -> object | None:");
    expect(errors).toContain("class StaleJobError(GuardedConflictError):");
    expect(errors).toContain("    def current_version(self) -> int | None:");
    expect(errors).toContain('    "stale_job": (409, StaleJobError),');
    expect(errors).not.toContain("warming_up");
  });

  it("names the package and folder it is told to", async () => {
    const other = await generate(spec, { python: { dir: "gen/py", package: "acme.api" } });
    expect([...other.files.keys()].filter((f) => f.startsWith("gen/py/")).sort()).toEqual([
      "gen/py/__init__.py",
      "gen/py/errors.py",
      "gen/py/extensions.py",
      "gen/py/operations.py",
      "gen/py/schema.py",
    ]);
    expect(other.files.get("gen/py/operations.py")).toContain("from acme.api.models import (");
    expect(other.files.get("gen/py/extensions.py")).toContain("from acme.api import models, parameters\n");
    await expect(generate(spec, { python: { package: "not a package" } })).rejects.toThrow(/dotted identifier/);
  });
});

describe.runIf(modelsTool(suiteName(import.meta.url)))("--check covers the Python layer", () => {
  it("names a modified operations.py and a modified models.py; writing restores both", async () => {
    const out = scratchDir("python-check");
    expect((await run(["--spec", spec, "--root", out, "--python-models", "require"], out)).code).toBe(EXIT.ok);
    const models = path.join(out, dir, "models.py");
    expect(readFileSync(models, "utf8")).toContain("# generated by datamodel-codegen:");
    writeFileSync(models, `${readFileSync(models, "utf8")}# hand edit\n`);
    const ops = path.join(out, dir, "operations.py");
    writeFileSync(ops, readFileSync(ops, "utf8").replace("success_status=", "success_status=1"));
    const drift = await run(["--spec", spec, "--root", out, "--check", "--python-models", "require"], out);
    expect(drift.code).toBe(EXIT.drift);
    expect(drift.stderr).toContain(`modified: ${dir}/models.py`);
    expect(drift.stderr).toContain(`modified: ${dir}/operations.py`);
    expect((await run(["--spec", spec, "--root", out, "--python-models", "require"], out)).code).toBe(EXIT.ok);
    expect((await run(["--spec", spec, "--root", out, "--check", "--python-models", "require"], out)).code).toBe(
      EXIT.ok,
    );
  }, 120_000);

  it("keeps models.py as it is, with a warning, when its tool is not there", async () => {
    const out = scratchDir("python-missing");
    expect((await run(["--spec", spec, "--root", out, "--python-models", "require"], out)).code).toBe(EXIT.ok);
    const before = readFileSync(path.join(out, dir, "models.py"), "utf8");
    const saved = process.env.POWERCONTEXT_CODEGEN_PYTHON;
    process.env.POWERCONTEXT_CODEGEN_PYTHON = path.join(out, "no-such-python");
    try {
      const auto = await run(["--spec", spec, "--root", out, "--python-models", "auto"], out);
      expect(auto.code).toBe(EXIT.ok);
      expect(auto.stderr).toContain(`warning: ${dir}/models.py not regenerated`);
      expect(readFileSync(path.join(out, dir, "models.py"), "utf8")).toBe(before);
      const required = await run(["--spec", spec, "--root", out, "--check", "--python-models", "require"], out);
      expect(required.code).toBe(EXIT.badInput);
      expect(required.stderr).toContain("python-codegen-env.sh");
    } finally {
      if (saved === undefined) delete process.env.POWERCONTEXT_CODEGEN_PYTHON;
      else process.env.POWERCONTEXT_CODEGEN_PYTHON = saved;
    }
  }, 120_000);
});
