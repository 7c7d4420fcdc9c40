import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { syntheticSpec } from "../../../../bench/synthetic-spec.js";
import { releaseContractPath, releaseContractTool } from "../../../../test/real/release-contract.js";
import { requireTools } from "../../../../test/real/tools.js";
import type { ApiIr } from "../../../src/ir/model.js";
import { generate, generateFromText } from "../../../src/pipeline.js";
import {
  fixturesDir,
  repoRoot,
  scratchDir,
  upstreamContract,
  upstreamSpec,
  OUTPUT_PATHS,
} from "../../helpers/paths.js";

/**
 * openapi-typescript as the oracle of the types emitter: for every spec of the
 * corpus, each component schema and each operation's parameters, request body
 * and response contents and headers must be mutually assignable between our
 * `openapi.d.ts` and openapi-typescript's, checked by the TypeScript compiler.
 * The deliberate differences (docs/adr/0019-types-from-the-ir.md) are exempt,
 * and only they: a part is exempt when it reaches a schema with `readOnly` or
 * `writeOnly` members, a discriminator (or is mapped by one), or `prefixItems`.
 */

/** openapi-typescript's options matching our decisions (free-form objects as open records: `emptyObjectsUnknown`). */
const ORACLE_OPTIONS = {
  defaultNonNullable: false,
  enum: false,
  exportType: false,
  immutable: false,
  alphabetize: false,
  additionalProperties: false,
  emptyObjectsUnknown: true,
  silent: true,
} as const;

interface Check {
  readonly id: string;
  /** The compared type, in the module imported as `root`. */
  readonly type: (root: string) => string;
  readonly exempt: boolean;
}

const DELIBERATE = /"(readOnly|writeOnly)":true|"discriminator":|"prefixItems":/;

/** The component schemas whose types differ on purpose, closed over references. */
function deliberate(ir: ApiIr): Set<string> {
  const mapped = new Set<string>();
  const refs = new Map<string, string[]>();
  for (const { name, schema } of ir.schemas) {
    const text = JSON.stringify(schema);
    for (const m of text.matchAll(/"mapping":\{([^}]*)\}/g))
      for (const t of m[1]!.matchAll(/#\/components\/schemas\/([^"/]+)/g)) mapped.add(t[1]!);
    refs.set(
      name,
      [...text.matchAll(/"\$ref":"#\/components\/schemas\/([^"/]+)"/g)].map((m) => m[1]!),
    );
  }
  const set = new Set(
    ir.schemas
      .filter(({ name, schema }) => mapped.has(name) || DELIBERATE.test(JSON.stringify(schema)))
      .map(({ name }) => name),
  );
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, targets] of refs)
      if (!set.has(name) && targets.some((t) => set.has(t))) changed = set.add(name) !== undefined;
  }
  return set;
}

function exemptSchema(schema: unknown, differing: Set<string>): boolean {
  const text = JSON.stringify(schema ?? null);
  return (
    DELIBERATE.test(text) ||
    [...text.matchAll(/"\$ref":"#\/components\/schemas\/([^"/]+)"/g)].some((m) => differing.has(m[1]!))
  );
}

const q = (key: string | number) => (typeof key === "number" ? String(key) : JSON.stringify(key));

/** Every comparison of one spec: schemas, then per operation its parameters, body, and responses. */
function checks(ir: ApiIr): Check[] {
  const differing = deliberate(ir);
  const out: Check[] = [];
  const add = (id: string, type: (root: string) => string, exempt: boolean) => out.push({ id, type, exempt });
  for (const { name, schema } of ir.schemas)
    add(
      `schema ${name}`,
      (r) => `${r}.components["schemas"][${q(name)}]`,
      differing.has(name) || exemptSchema(schema, differing),
    );
  for (const op of ir.operations) {
    const at = (r: string) => `${r}.operations[${q(op.operationId)}]`;
    for (const location of ["query", "header", "path", "cookie"] as const) {
      const list = op.parameters[location];
      if (list.length > 0)
        add(
          `${op.operationId} ${location} parameters`,
          (r) => `${at(r)}["parameters"][${q(location)}]`,
          list.some((p) => exemptSchema(p.schema, differing)),
        );
    }
    const body = op.requestBody;
    if (body !== null)
      add(
        `${op.operationId} request body`,
        (r) => `NonNullable<${at(r)}["requestBody"]>["content"][${q(body.mediaType)}]`,
        exemptSchema(body.schema, differing),
      );
    for (const response of op.responses) {
      // Required<>: openapi-typescript makes a header declared by reference required whatever it says; ours follows `required`.
      add(
        `${op.operationId} ${response.status} headers`,
        (r) => `Required<${at(r)}["responses"][${response.status}]["headers"]>`,
        response.headers.some((h) => exemptSchema(h.schema, differing)),
      );
      for (const media of response.media)
        add(
          `${op.operationId} ${response.status} ${media.mediaType}`,
          (r) => `${at(r)}["responses"][${response.status}]["content"][${q(media.mediaType)}]`,
          exemptSchema(media.schema, differing),
        );
    }
  }
  return out;
}

/** The check module of one spec: one alias per comparison, which fails to compile when the two types are not mutually assignable. */
function checkModule(list: readonly Check[]): string {
  const lines = [
    `import type * as O from "./theirs.js";`,
    `import type * as P from "./ours.js";`,
    "type Eq<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;",
    "type Check<T extends true> = T;",
  ];
  list.forEach((c, i) => {
    lines.push(`export type C${i} = Check<Eq<${c.type("O")}, ${c.type("P")}>>;`);
  });
  return `${lines.join("\n")}\n`;
}

interface Corpus {
  readonly name: string;
  readonly load: () => Promise<{ ours: string; ir: ApiIr }>;
}

async function fromFile(file: string, lint: "strict" | "upstream") {
  const generated = await generate(file, { lint, python: { models: "skip" } });
  return { ours: generated.files.get(OUTPUT_PATHS.types)!, ir: generated.ir };
}

const corpus: Corpus[] = [
  { name: "openapi.yaml", load: () => fromFile(path.join(repoRoot, "openapi.yaml"), "strict") },
  { name: "features fixture", load: () => fromFile(path.join(fixturesDir, "features.yaml"), "strict") },
  { name: "wide fixture", load: () => fromFile(path.join(fixturesDir, "wide.yaml"), "strict") },
  {
    name: "synthetic 600",
    load: async () => {
      const generated = await generateFromText(syntheticSpec(600), "synthetic-600.yaml", {
        python: { models: "skip" },
      });
      return { ours: generated.files.get(OUTPUT_PATHS.types)!, ir: generated.ir };
    },
  },
];

describe("our types and openapi-typescript's are mutually assignable, deliberate differences aside", () => {
  it("on every spec of the corpus", { timeout: 600_000 }, async () => {
    const specs = [...corpus];
    if (upstreamContract("types equivalence: the published 0.0.2 contract")) {
      specs.push({ name: "powercontext-0.0.2", load: () => fromFile(upstreamSpec, "upstream") });
    }
    if (requireTools("types equivalence: the released 1.4.1 contract", releaseContractTool())) {
      specs.push({ name: "released 1.4.1", load: () => fromFile(releaseContractPath(), "upstream") });
    }
    const root = scratchDir("types-equivalence");
    const all: { spec: string; checks: Check[]; file: string }[] = [];
    for (const [index, spec] of specs.entries()) {
      const { ours, ir } = await spec.load();
      // The document in the loader's one form (as the IR holds it), so both read the same Schema Objects.
      const theirs = astToString(await openapiTS(structuredClone(ir.document) as never, ORACLE_OPTIONS));
      const dir = path.join(root, String(index));
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, "ours.d.ts"), ours);
      writeFileSync(path.join(dir, "theirs.d.ts"), theirs);
      const list = checks(ir);
      writeFileSync(path.join(dir, "checks.ts"), checkModule(list));
      all.push({ spec: spec.name, checks: list, file: path.join(dir, "checks.ts") });
    }
    const program = ts.createProgram(
      all.map((a) => a.file),
      {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        skipLibCheck: false,
        types: [],
        lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
      },
    );
    const unexpected: string[] = [];
    const failedExempt = new Map<string, number>();
    for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
      const entry = all.find((a) => diagnostic.file?.fileName === a.file);
      if (entry === undefined || diagnostic.start === undefined) {
        unexpected.push(
          `${diagnostic.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n").slice(0, 300)}`,
        );
        continue;
      }
      const line = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start).line;
      const check = entry.checks[line - 4];
      if (check === undefined)
        unexpected.push(
          `${entry.spec} line ${line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n").slice(0, 300)}`,
        );
      else if (!check.exempt) unexpected.push(`${entry.spec}: ${check.id}`);
      else failedExempt.set(entry.spec, (failedExempt.get(entry.spec) ?? 0) + 1);
    }
    expect(unexpected.slice(0, 40)).toEqual([]);
    const total = all.reduce((n, a) => n + a.checks.length, 0);
    expect(total).toBeGreaterThan(5000);
    console.log(
      `types equivalence: ${total} comparisons on ${all.length} specs; deliberate differences that fail as expected: ${JSON.stringify(Object.fromEntries(failedExempt))}`,
    );
  });
});
