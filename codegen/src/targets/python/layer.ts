import type { Json } from "../../domain/types.js";
import type { ApiIr } from "../../ir/model.js";
import { emitPythonErrors } from "./errors-py.js";
import { emitPythonExtensions, extensionModels, parametersModelName } from "./extensions-py.js";
import { checkPythonNames } from "./names-py.js";
import { pyBanner } from "./banner-py.js";
import { emitPythonModels, PythonToolError } from "./models-py.js";
import { emitPythonOperations, operationModels } from "./operations-py.js";
import { emitPythonSchema } from "./schema-py.js";
import type { PythonOptions } from "../target.js";

/** This repository's Python package (python/, distribution `powercontext-ts`). */
export const PYTHON_DEFAULTS = {
  dir: "python/src/powercontext_ts/_generated",
  package: "powercontext_ts._generated",
} as const;

/** The Python files, plus the ones not produced and why. */
export interface PythonLayer {
  readonly files: Map<string, string>;
  readonly skipped: Map<string, string>;
}

/**
 * The Python Client SDK's generated layer for this contract: `__init__.py`,
 * `operations.py` and `schema.py` in the 1.4.1 format, `extensions.py` (our
 * vendor extensions), and `models.py` from datamodel-code-generator.
 * `written` is the document as written (`LoadedSpec.written`): `schema.py` carries it
 * and datamodel-code-generator reads it, so both see the contract itself rather
 * than the IR's normalised Schema Objects.
 *
 * @throws {PythonToolError} with `models: "require"` when the tool's environment is
 *   missing, and whenever the tool itself fails
 * @throws {Error} when `package` is not a dotted Python identifier
 * @throws {LintError} when a spec name cannot become a Python identifier (`checkPythonNames`)
 */
export async function emitPythonLayer(ir: ApiIr, written: Json, options: PythonOptions = {}): Promise<PythonLayer> {
  const dir = (options.dir ?? PYTHON_DEFAULTS.dir).replace(/\/+$/, "");
  const pkg = options.package ?? PYTHON_DEFAULTS.package;
  if (!/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(pkg))
    throw new Error(`Python package "${pkg}" is not a dotted identifier`);
  checkPythonNames(ir, new Set([...operationModels(ir), ...extensionModels(ir)]));
  const models = `${pkg}.models`;
  const mode = options.models ?? "skip";
  // the model generator is a child process: start it first, so it runs while the other files are written
  const modelsText = mode === "skip" ? null : settle(emitPythonModels(ir, written));
  const hasParameters = ir.operations.some((op) => parametersModelName(op) !== null);
  const files = new Map<string, string>([
    [`${dir}/__init__.py`, emitPythonInit(ir)],
    [`${dir}/extensions.py`, emitPythonExtensions(ir, { package: pkg, parameters: hasParameters })],
    [`${dir}/operations.py`, emitPythonOperations(ir, models)],
    [`${dir}/schema.py`, emitPythonSchema(ir, written)],
  ]);
  const errors = emitPythonErrors(ir);
  if (errors !== null) files.set(`${dir}/errors.py`, errors);
  const toolFiles = [`${dir}/models.py`, ...(hasParameters ? [`${dir}/parameters.py`] : [])];
  const skipped = new Map<string, string>();
  if (modelsText === null) {
    for (const file of toolFiles) skipped.set(file, "the model generator was not asked for");
  } else {
    const outcome = await modelsText;
    if ("text" in outcome) {
      files.set(`${dir}/models.py`, outcome.text.models);
      if (outcome.text.parameters !== null) files.set(`${dir}/parameters.py`, outcome.text.parameters);
    } else {
      const error = outcome.error;
      if (!(error instanceof PythonToolError) || !error.missing || mode === "require") throw error;
      for (const file of toolFiles) skipped.set(file, error.message);
    }
  }
  return { files, skipped };
}

/** A promise that never rejects: its failure is a value, so it may wait unobserved while other work runs. */
function settle<T>(pending: Promise<T>): Promise<{ text: T } | { error: unknown }> {
  return pending.then(
    (text) => ({ text }),
    (error: unknown) => ({ error }),
  );
}

/** The generated package's `__init__.py`: it names its modules and exports nothing else. */
function emitPythonInit(ir: ApiIr): string {
  return `${pyBanner(ir)}"""The generated HTTP layer: \`models\` (pydantic), \`operations\` (one \`Operation\` per operation), \`schema\` (the contract), \`extensions\` and \`parameters\` (for powercontext_runtime), and \`errors\` (the contract errors)."""
`;
}
