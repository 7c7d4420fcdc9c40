/**
 * Writes what codegen/schema/extensions.schema.json drives besides the loader's
 * check: the fact types each package imports (the generator's IR, the runtime's
 * descriptor, the mock's contract), each with the definitions its package reads,
 * and docs/extensions.md. With --check, writes nothing and exits 1 when a file
 * differs from what the schema gives (`npm run generate:check` runs it).
 *
 * Usage: tsx scripts/codegen/facts.ts [--check]
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { emitExtensionReference } from "../../codegen/src/emit/facts/extension-reference.js";
import { emitFactTypes } from "../../codegen/src/emit/facts/fact-types.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const REGENERATE = "`npm run generate`";

/** Each output and the schema definitions it declares (with every definition they reach). */
export const FACT_OUTPUTS: readonly {
  readonly file: string;
  readonly roots: readonly string[];
  /** `written`: the facts as the spec writes them, for a reader that takes them as they are. */
  readonly form?: "read" | "written";
}[] = [
  {
    file: "codegen/src/facts/generated/fact-types.ts",
    roots: [
      "async",
      "reconcile",
      "pagination",
      "not-served",
      "media-from",
      "router",
      "refusal-rule",
      "error-codes",
      "resources",
      "resource-use",
      "anchor-records",
      "model-rule",
      "rule-step",
      "rule-issues",
    ],
  },
  {
    file: "packages/runtime/src/generated/facts.ts",
    roots: ["async", "reconcile", "pagination", "not-served", "error-code", "rule-check", "rule-step"],
  },
  {
    file: "packages/msw/src/contract/generated/facts.ts",
    roots: [
      "pagination",
      "media-from",
      "refusal-rule",
      "resources",
      "resource-use",
      "anchor-records",
      "model-rule",
      "rule-issues",
    ],
  },
  {
    file: "packages/msw/src/contract/generated/access-facts.ts",
    roots: ["access-policy", "access-resolvers", "access-after", "access-owner"],
    form: "written",
  },
];

function outputs(): Map<string, string> {
  const files = new Map<string, string>();
  for (const { file, roots, form } of FACT_OUTPUTS) files.set(file, emitFactTypes(roots, REGENERATE, form));
  files.set("docs/extensions.md", emitExtensionReference(REGENERATE));
  return files;
}

const check = process.argv.includes("--check");
const drifted: string[] = [];
for (const [file, text] of outputs()) {
  const at = path.join(root, file);
  const current = existsSync(at) ? readFileSync(at, "utf8") : null;
  if (current === text) continue;
  if (check) drifted.push(file);
  else {
    mkdirSync(path.dirname(at), { recursive: true });
    writeFileSync(at, text);
    console.log(`wrote ${file}`);
  }
}
if (drifted.length > 0) {
  console.error(`out of date with codegen/schema/extensions.schema.json (run npm run generate): ${drifted.join(", ")}`);
  process.exit(1);
}
