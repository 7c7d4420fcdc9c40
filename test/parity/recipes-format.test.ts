// The recipe format (test/parity/recipes/README.md): the TypeScript reader's rules, the
// same rules in the Python reader, and recipes that cover the release's operations with
// requests made only of members the contract declares.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadOurs, operationsOf, type Json, type JsonObject } from "../contract/documents.js";
import { pythonTools, requireTools, suiteName, venvBin } from "../real/tools.js";
import {
  MissingValue,
  capture,
  loadRecipes,
  recipesDir,
  substitute,
  type RecipeStep,
} from "./recipes/recipe-format.js";

const values = new Map<string, unknown>([
  ["scope", "scp_1"],
  ["ref", { family: "skill", artifact_id: "a1", revision: 2 }],
  ["n", 3],
]);

/** Template cases both readers must agree on: [input, output or "missing:<name>"]. */
const CASES: readonly [unknown, unknown][] = [
  ["${scope}", "scp_1"],
  ["${ref}", { family: "skill", artifact_id: "a1", revision: 2 }],
  ["${n}", 3],
  ["scope ${scope} rev ${n}", "scope scp_1 rev 3"],
  ["${ref} inline", '{"family":"skill","artifact_id":"a1","revision":2} inline'],
  ["${absent|fallback-id}", "fallback-id"],
  [
    { list: ["${scope}", { deep: "${n}" }], keep: 1, none: null },
    { list: ["scp_1", { deep: 3 }], keep: 1, none: null },
  ],
  ["${absent}", "missing:absent"],
  ["x ${absent} y", "missing:absent"],
];

function typescriptOutcome(input: unknown): unknown {
  try {
    return substitute(input, values);
  } catch (error) {
    if (error instanceof MissingValue) return `missing:${error.valueName}`;
    throw error;
  }
}

describe("recipe templates and captures", () => {
  it("substitutes whole values with their type, parts as text, fallbacks, and reports what is missing", () => {
    for (const [input, output] of CASES) expect(typescriptOutcome(input), JSON.stringify(input)).toEqual(output);
  });

  it("captures from the raw body by pointer and from headers in any case; absent pointers capture nothing", () => {
    const step = {
      id: "s",
      file: "f",
      operation: "o",
      capture: { id: "/items/0/id", gone: "/nothing/here", nul: "/n" },
      capture_headers: { tag: "ETag" },
    } as RecipeStep;
    const found = capture(step, { items: [{ id: "i-1" }], n: null }, new Headers({ etag: '"v1"' }));
    expect([...found]).toEqual([
      ["id", "i-1"],
      ["nul", null],
      ["tag", '"v1"'],
    ]);
  });

  it("refuses unknown members, an expect without why, and an id used twice", () => {
    const dir = mkdtempSync(join(tmpdir(), "recipes-"));
    try {
      const write = (text: string) => writeFileSync(join(dir, "10-a.yaml"), text);
      write("steps:\n  - operation: get_liveness\n    requst: {}\n");
      expect(() => loadRecipes(dir)).toThrow(/10-a.yaml step 1: .*requst/);
      write("steps:\n  - operation: flush_memory\n    expect: { status: 503, code: x }\n");
      expect(() => loadRecipes(dir)).toThrow(/needs why/);
      write("steps:\n  - operation: get_liveness\n  - operation: get_liveness\n");
      expect(() => loadRecipes(dir)).toThrow(/id get_liveness is used twice/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.runIf(requireTools(suiteName(import.meta.url), pythonTools()))("the Python reader", () => {
  it("gives the same results for every template case", () => {
    const script = [
      "import json, sys",
      `sys.path.insert(0, ${JSON.stringify(recipesDir)})`,
      "from recipe_format import MissingValue, substitute",
      "values, cases = json.load(sys.stdin)",
      "out = []",
      "for case in cases:",
      "    try: out.append(substitute(case, values))",
      "    except MissingValue as m: out.append(f'missing:{m}')",
      "print(json.dumps(out))",
    ].join("\n");
    const input = JSON.stringify([Object.fromEntries(values), CASES.map(([i]) => i)]);
    const python = JSON.parse(
      execFileSync(venvBin("python"), ["-c", script], { input, encoding: "utf8" }),
    ) as unknown[];
    expect(python).toEqual(CASES.map(([, o]) => o));
  });

  it("loads the same steps as the TypeScript reader", () => {
    const script = `import json, sys\nsys.path.insert(0, ${JSON.stringify(recipesDir)})\nfrom recipe_format import load_recipes\nfrom pathlib import Path\nprint(json.dumps([s['id'] for s in load_recipes(Path(${JSON.stringify(recipesDir)}))]))`;
    const ids = JSON.parse(execFileSync(venvBin("python"), ["-c", script], { encoding: "utf8" })) as string[];
    expect(ids).toEqual(loadRecipes().map((s) => s.id));
  });
});

describe("the recipes against openapi.yaml", () => {
  const doc = loadOurs();
  const operations = new Map(operationsOf(doc).map((o) => [o.operationId, o]));
  const steps = loadRecipes();
  const SEED = ["cancel_operation", "get_operation", "list_operations", "retry_operation"];

  const deref = (node: Json | undefined): JsonObject => {
    let current = node;
    for (
      let i = 0;
      i < 16 && current && typeof current === "object" && !Array.isArray(current) && typeof current.$ref === "string";
      i++
    ) {
      current = current.$ref
        .slice(2)
        .split("/")
        .reduce<Json | undefined>((n, k) => (n && typeof n === "object" && !Array.isArray(n) ? n[k] : undefined), doc);
    }
    return current && typeof current === "object" && !Array.isArray(current) ? current : {};
  };
  const bodyMembers = (schema: JsonObject): string[] => [
    ...Object.keys((schema.properties ?? {}) as JsonObject),
    ...(["oneOf", "anyOf", "allOf"] as const).flatMap((k) =>
      ((schema[k] ?? []) as Json[]).flatMap((v) => bodyMembers(deref(v))),
    ),
  ];

  it("call every operation of the release at least once", () => {
    const called = new Set(steps.map((s) => s.operation));
    const missing = [...operations.keys()].filter((id) => !SEED.includes(id) && !called.has(id));
    expect(missing).toEqual([]);
    expect(called.size).toBe(126);
  });

  it("use only operations, request members and headers the contract declares", () => {
    const problems: string[] = [];
    for (const step of steps) {
      const op = operations.get(step.operation);
      if (op === undefined) {
        problems.push(`${step.id}: no operation ${step.operation}`);
        continue;
      }
      const parameters = ((op.operation.parameters ?? []) as Json[]).map(deref);
      const media = (deref(op.operation.requestBody).content as JsonObject | undefined)?.["application/json"] as
        | JsonObject
        | undefined;
      const known = new Set([
        ...parameters.filter((p) => p.in !== "header").map((p) => String(p.name)),
        ...bodyMembers(deref(media?.schema)),
      ]);
      const headers = new Set(parameters.filter((p) => p.in === "header").map((p) => String(p.name)));
      for (const member of Object.keys(step.request ?? {}))
        if (!known.has(member)) problems.push(`${step.id}: request member ${member}`);
      for (const header of Object.keys(step.headers ?? {}))
        if (!headers.has(header)) problems.push(`${step.id}: header ${header}`);
    }
    expect(problems).toEqual([]);
  });
});
