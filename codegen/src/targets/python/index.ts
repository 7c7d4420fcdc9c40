import type { Target } from "../target.js";
import { emitPythonLayer, PYTHON_DEFAULTS } from "./layer.js";

/**
 * `python`: the Python Client SDK's generated layer for the contract
 * (docs/python.md), in the folder the options name (a standalone folder's
 * `python/`). Its model generator is a child process, started before the other
 * targets emit.
 */
export const pythonTarget: Target = {
  name: "python",
  summary: "the Python layer (operations.py, schema.py, extensions.py, errors.py, models.py)",
  needs:
    "`python`: pydantic and `powercontext_runtime` (this repository's `python/` distribution), the folder placed as the package named by `--python-package`",
  roles: {
    "python/__init__.py": "the Python layer's package",
    "python/operations.py": "the Python layer: the operation table in the Python Client SDK 1.4.1 format",
    "python/schema.py": "the Python layer: the spec as written",
    "python/extensions.py": "the Python layer: the spec's vendor extensions (retry classes, polling)",
    "python/models.py": "the Python layer: pydantic models (datamodel-code-generator)",
    "python/parameters.py":
      "the Python layer: pydantic models of the operations' parameters (datamodel-code-generator)",
    "python/errors.py": "the Python layer: an error class per error code the spec registers",
  },
  byDefault: { repository: true, standalone: false },
  folder: (options) => options.python?.dir ?? PYTHON_DEFAULTS.dir,
  requires: () => [],
  background: true,
  emit({ ir, layout, options }) {
    const python = layout === "standalone" ? { ...options.python, dir: "python" } : options.python;
    return emitPythonLayer(ir, ir.written, python);
  },
};
