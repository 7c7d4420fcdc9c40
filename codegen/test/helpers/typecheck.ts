import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { ensureRuntimeBuilt } from "./fresh-folder.js";
import { repoRoot, scratchDir } from "./paths.js";

// Generated code imports the runtime by package name; it resolves to the
// repository's runtime package as built (`npm run build`; built here when absent).
const RUNTIME_INDEX = path.join(repoRoot, "packages/runtime/dist/index.d.ts");
const RUNTIME_VALIDATION = path.join(repoRoot, "packages/runtime/dist/validation.d.ts");
const RUNTIME_TESTING = path.join(repoRoot, "packages/runtime/dist/testing/index.d.ts");
const TYPES_INDEX = `export * from "./generated/openapi.js";\n`;
/**
 * The mock's contract is data typed by the mock package's hand-written types (and the
 * fact types beside them): those files of the repository, by their path in it, for
 * a scratch layout that compiles a generated contract.
 */
export function mswContractTypes(): [string, string][] {
  return ["packages/msw/src/contract/types.ts", "packages/msw/src/contract/generated/facts.ts"].map((f) => [
    f,
    readFileSync(path.join(repoRoot, f), "utf8"),
  ]);
}

/**
 * Writes generated files (plus `extra` files such as type assertions) into a scratch
 * repository layout and type-checks them with the repository's strict settings.
 * `@powercontext/types` and `@powercontext/sdk/validators` (which the mock's contract
 * imports) resolve to the scratch copies, `@powercontext/runtime` to the
 * repository's runtime package; the mock's contract gets the mock package's
 * contract types beside it, as in the repository.
 *
 * @returns the scratch root and the diagnostics of files inside it, formatted
 */
export function typecheck(
  files: ReadonlyMap<string, string>,
  extra: Record<string, string> = {},
): { root: string; errors: string[] } {
  ensureRuntimeBuilt();
  const root = scratchDir("tsc");
  const contractTypes = files.has("packages/msw/src/generated/contract.ts") ? mswContractTypes() : [];
  const all = new Map<string, string>([
    ["packages/types/index.d.ts", TYPES_INDEX],
    ...contractTypes,
    ...files,
    ...Object.entries(extra),
  ]);
  for (const [relative, text] of all) {
    const file = path.join(root, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  const rootNames = [...all.keys()]
    .filter((f) => /\.(ts|d\.ts)$/.test(f) && !f.endsWith(".json"))
    .map((f) => path.join(root, f));
  const program = ts.createProgram(rootNames, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    noUncheckedIndexedAccess: true,
    verbatimModuleSyntax: true,
    isolatedModules: true,
    skipLibCheck: false,
    types: [],
    baseUrl: root,
    paths: {
      "@powercontext/types": ["packages/types/index.d.ts"],
      "@powercontext/sdk/validators": ["packages/sdk/src/generated/validators.d.ts"],
      "@powercontext/runtime": [RUNTIME_INDEX],
      "@powercontext/runtime/validation": [RUNTIME_VALIDATION],
      "@powercontext/runtime/testing": [RUNTIME_TESTING],
    },
  });
  const errors = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file === undefined || d.file.fileName.startsWith(root))
    .map((d) => {
      const where =
        d.file && d.start !== undefined
          ? `${path.relative(root, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}`
          : "";
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
  return { root, errors };
}
