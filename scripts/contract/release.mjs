// Reading the released server's contract from the installed Python package. The
// release ships no YAML or JSON copy; its document is a Python dict
// (docs/compatibility.md, "Where the release keeps its OpenAPI document"). Nothing read
// here is ever written into the repository except through the sync script, which keeps
// the wire facts and drops the prose.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

/** The release this repository follows. */
export const RELEASE = Object.freeze({ distribution: "powercontext", version: "1.4.1" });

const PRINT_CONTRACT = [
  "import json, importlib.metadata as m",
  "from powercontext.http._generated.schema import OPENAPI_SCHEMA as s",
  "print(json.dumps({'version': m.version('powercontext'), 'document': s}))",
].join("\n");

/** The venv's python (PC_VENV, else `<root>/.venv`). */
export function venvPython(root) {
  return join(process.env.PC_VENV ?? join(root, ".venv"), "bin", "python");
}

/**
 * Loads the release's OpenAPI document.
 *
 * @param {string} python path of a Python interpreter that has `powercontext` installed
 * @returns {{ version: string, document: Record<string, unknown> }}
 * @throws {Error} when the interpreter is missing, the import fails, or the installed
 *   distribution is not {@link RELEASE}.version (a newer one is followed by changing
 *   RELEASE on purpose, never silently)
 */
export function readReleaseContract(python) {
  if (!existsSync(python)) throw new Error(`no Python interpreter at ${python} (run: bash scripts/ci/python-env.sh)`);
  const text = execFileSync(python, ["-c", PRINT_CONTRACT], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const parsed = JSON.parse(text);
  if (parsed.version !== RELEASE.version) {
    throw new Error(
      `installed ${RELEASE.distribution} is ${parsed.version}, this repository follows ${RELEASE.version}`,
    );
  }
  return parsed;
}
