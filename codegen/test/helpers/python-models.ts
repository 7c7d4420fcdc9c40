import { codegenPython } from "../../src/targets/python/models-py.js";
import { requireTools } from "../../../test/real/tools.js";

/**
 * Whether this run has the model generator's environment (`.venv-codegen`, or
 * `POWERCONTEXT_CODEGEN_PYTHON`), which writes the Python layer's `models.py`.
 * Without it, `suite`'s generator runs keep `models.py` as it is and say so in one
 * warning: locally a banner names what is missing; under `CI=true` its absence
 * fails the file (see `requireTools`).
 */
export function modelsTool(suite: string): boolean {
  return requireTools(`${suite} (models.py of the Python layer)`, {
    ok: codegenPython() !== null,
    missing: ".venv-codegen/bin/python (run: bash scripts/ci/python-codegen-env.sh)",
  });
}

/** The warning the generator prints when `models.py` is not regenerated because its environment is missing. */
const MODELS_NOT_REGENERATED =
  /^warning: \S+\/models\.py not regenerated \(no Python environment for datamodel-code-generator[^\n]*\n/gm;

/**
 * The generator's stderr less the one warning a run without the model generator's
 * environment is documented to print; with the environment present, stderr as it is.
 * A test that expects a clean run compares this with "".
 */
export function stderrBesidesModels(stderr: string, toolPresent: boolean): string {
  return toolPresent ? stderr : stderr.replace(MODELS_NOT_REGENERATED, "");
}
