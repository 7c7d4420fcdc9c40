// Locating the outside tools that the cross-language checks need (the Python venv
// with the released PowerContext server and client, schemathesis, Chromium, and the
// workspace packages that are built separately).
//
// A tool that is absent makes its test skip locally, with a loud message naming what
// is missing. Under CI=true an absent tool is a failure instead.
import { existsSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

export const inCi = process.env.CI === "true";

/**
 * The name a skip banner gives a test file: its path from the repository root, read from
 * the file's own `import.meta.url`, so the banner names the file where it is today.
 */
export function suiteName(moduleUrl: string): string {
  return relative(repoRoot, fileURLToPath(moduleUrl)).split(sep).join("/");
}

/** The venv made by scripts/ci/python-env.sh (override with PC_VENV). */
export function venvDir(): string {
  return process.env.PC_VENV ?? join(repoRoot, ".venv");
}

export function venvBin(name: string): string {
  return join(venvDir(), "bin", name);
}

export interface ToolCheck {
  /** true when the tool is usable */
  readonly ok: boolean;
  /** what is missing and how to get it, when not ok */
  readonly missing: string;
}

export function checkFile(path: string, hint: string): ToolCheck {
  return existsSync(path) ? { ok: true, missing: "" } : { ok: false, missing: `${path} (${hint})` };
}

export function checkAll(...checks: ToolCheck[]): ToolCheck {
  const missing = checks.filter((c) => !c.ok).map((c) => c.missing);
  return missing.length === 0 ? { ok: true, missing: "" } : { ok: false, missing: missing.join("; ") };
}

export const pythonEnvHint = "run: bash scripts/ci/python-env.sh";

export function pythonTools(): ToolCheck {
  return checkAll(checkFile(venvBin("python"), pythonEnvHint), checkFile(venvBin("powercontext"), pythonEnvHint));
}

export function schemathesisTool(): ToolCheck {
  return checkFile(venvBin("schemathesis"), pythonEnvHint);
}

/**
 * Decide whether a suite runs. Returns true to run. Locally, an absent tool prints a
 * banner and returns false (the caller skips). Under CI=true it throws, so the run fails.
 */
export function requireTools(suite: string, check: ToolCheck): boolean {
  if (check.ok) return true;
  const text = `${suite}: MISSING ${check.missing}`;
  if (inCi) throw new Error(`${text} (CI=true: a missing tool is a failure)`);
  const bar = "!".repeat(Math.min(100, text.length + 8));
  console.warn(`\n${bar}\n!!! SKIPPED ${text}\n${bar}\n`);
  return false;
}

/** Import a workspace package that may not be built yet; null when it cannot be loaded. */
export async function tryImport<T>(specifier: string): Promise<{ module: T | null; error: string }> {
  try {
    return { module: (await import(specifier)) as T, error: "" };
  } catch (error) {
    return { module: null, error: `${specifier} (${(error as Error).message.split("\n")[0]})` };
  }
}
