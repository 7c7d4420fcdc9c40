import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { repoRoot } from "./paths.js";

/** Runs `tsc -b project` when `built` (a file it emits) is absent: `npm test` builds first, a bare `vitest run` may not have. */
function ensureBuilt(project: string, built: string): void {
  if (existsSync(built)) return;
  execFileSync(process.execPath, [path.join(repoRoot, "node_modules/typescript/bin/tsc"), "-b", project], {
    stdio: "inherit",
    timeout: 120_000,
  });
}

/** Builds `packages/runtime` when its `dist/` is absent; returns its folder. */
export function ensureRuntimeBuilt(): string {
  const runtime = path.join(repoRoot, "packages/runtime");
  ensureBuilt(runtime, path.join(runtime, "dist/index.js"));
  return runtime;
}

/** Builds the generator (`codegen/dist`, which its installed command `bin/powercontext-codegen.js` runs) when absent; returns that command's path. */
export function ensureCodegenBuilt(): string {
  ensureBuilt(path.join(repoRoot, "codegen/tsconfig.build.json"), path.join(repoRoot, "codegen/dist/cli.js"));
  return path.join(repoRoot, "codegen/bin/powercontext-codegen.js");
}

/**
 * A fresh folder outside the repository whose `node_modules` holds only
 * `@powercontext/runtime` (this repository's package, built) and `msw` (unless
 * `msw: false`), as a user's project that installed those would. Nothing else resolves from it.
 */
export function freshFolder(prefix: string, options: { msw?: boolean } = {}): string {
  const runtime = ensureRuntimeBuilt();
  const root = mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  mkdirSync(path.join(root, "node_modules/@powercontext"), { recursive: true });
  symlinkSync(runtime, path.join(root, "node_modules/@powercontext/runtime"), "dir");
  if (options.msw !== false)
    symlinkSync(path.join(repoRoot, "node_modules/msw"), path.join(root, "node_modules/msw"), "dir");
  writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "fresh", private: true, type: "module" }));
  return root;
}

/**
 * In a repository layout written into a {@link freshFolder} `root`, makes
 * `@powercontext/sdk/validators` (which the mock package's contract imports:
 * the SDK's validators are the one copy) resolve to the generated SDK there.
 */
export function linkGeneratedSdk(root: string): void {
  const exports = {
    "./validators": { types: "./src/generated/validators.d.ts", default: "./src/generated/validators.js" },
  };
  writeFileSync(
    path.join(root, "packages/sdk/package.json"),
    JSON.stringify({ name: "@powercontext/sdk", private: true, type: "module", exports }),
  );
  symlinkSync(path.join(root, "packages/sdk"), path.join(root, "node_modules/@powercontext/sdk"), "dir");
}

/**
 * Type-checks `files` (relative to `root`) with `--strict` (and the strictest
 * flags this repository uses) and emits JavaScript beside each file; `extra`
 * overrides compiler options.
 *
 * @returns formatted diagnostics of files inside `root` (empty when it compiles)
 */
export function compileStrict(root: string, files: readonly string[], extra: ts.CompilerOptions = {}): string[] {
  const program = ts.createProgram(
    files.map((f) => path.join(root, f)),
    {
      strict: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      verbatimModuleSyntax: true,
      skipLibCheck: true,
      types: [],
      ...extra,
    },
  );
  const emitted = program.emit();
  return [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics]
    .filter((d) => d.file === undefined || d.file.fileName.startsWith(root))
    .map((d) => {
      const where =
        d.file && d.start !== undefined
          ? `${path.relative(root, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}`
          : "";
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
}
